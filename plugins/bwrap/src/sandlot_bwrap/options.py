"""``[providers.bwrap]`` options."""

from __future__ import annotations

import enum

import attrs


class DenyCreated(enum.StrEnum):
    """What to do with a file created during a run that matches a deny path or glob."""

    #: Report the violation; leave the file where it is.
    REPORT = "report"
    #: Report it and move it out of the sandbox's view into ``quarantine_dir`` (reversible).
    QUARANTINE = "quarantine"
    #: Report it and delete it.
    REMOVE = "remove"


def _positive_uid(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    # uid/gid 0 inside the user namespace would hand the command every capability
    # over the sandbox's own namespaces (remount, umount a mask): never allowed.
    if not 0 < value < 2**31:
        raise ValueError(f"providers.bwrap.{attribute.name} must be a non-zero id, got {value}")


@attrs.frozen
class BwrapOptions:
    #: The bwrap executable (a name looked up on PATH, or a path).
    bwrap: str = "bwrap"
    #: The shell running the session inside the sandbox.
    shell: str = "/bin/bash"
    #: uid/gid of the command inside the sandbox (never 0; it holds no capabilities).
    uid: int = attrs.field(default=1000, validator=_positive_uid)
    gid: int = attrs.field(default=1000, validator=_positive_uid)
    #: Host name inside the sandbox (own UTS namespace).
    hostname: str = "sandlot"
    #: Host home directory used to expand ``~`` in the policy; empty: the real home.
    home: str = ""
    #: Working directory; empty: a fresh temporary directory per sandbox, removed on close.
    workdir: str = ""
    #: Size of the private /tmp and /dev/shm (tmpfs, counted against host memory).
    tmp_size_mb: int = attrs.field(default=512, validator=attrs.validators.gt(0))
    #: Allow socket(AF_UNIX) (host sockets visible in the filesystem become reachable).
    allow_unix_sockets: bool = False
    #: Files created during a run that match a deny entry: report, quarantine or remove.
    on_deny_created: DenyCreated = DenyCreated.QUARANTINE
    #: Where quarantined files go; empty: <user state dir>/sandlot/quarantine.
    quarantine_dir: str = ""
    #: Upper bound of directory entries scanned for deny globs after each command.
    scan_limit: int = attrs.field(default=50_000, validator=attrs.validators.gt(0))
