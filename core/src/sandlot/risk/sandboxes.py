"""Sandbox and namespace launchers: the command each one starts, and the host entered through them (shared by both
analyzers through the shell one).

``nsenter``, ``unshare``, ``firejail``, ``bwrap`` and ``nsjail`` run a command in other namespaces; what the
command does is judged as if it ran directly (a sandbox launched without a profile, or with ``/`` bound writable,
protects nothing, and a reverse shell in a new user namespace still reaches the network). Entering PID 1's
namespaces is different: from a container it is a root shell on the host.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Launchers and their options that take the next word as a value (``bwrap``'s count two words for some).
_VALUED: dict[str, dict[str, int]] = {
    "nsenter": {"-t": 1, "--target": 1, "-S": 1, "--setuid": 1, "-G": 1, "--setgid": 1},
    "unshare": {"-S": 1, "--setuid": 1, "-G": 1, "--setgid": 1, "-R": 1, "--root": 1, "-w": 1, "--wd": 1},
    "firejail": {},
    "bwrap": {
        **dict.fromkeys(("--bind", "--bind-try", "--dev-bind", "--dev-bind-try", "--ro-bind", "--ro-bind-try",
                         "--symlink", "--setenv", "--file", "--bind-data", "--ro-bind-data", "--chmod"), 2),
        **dict.fromkeys(("--dev", "--proc", "--tmpfs", "--mqueue", "--dir", "--chdir", "--unsetenv", "--uid", "--gid",
                         "--hostname", "--remount-ro", "--seccomp", "--info-fd", "--sync-fd", "--block-fd", "--userns",
                         "--userns2", "--pidns", "--cap-add", "--cap-drop", "--perms", "--size", "--lock-file",
                         "--exec-label", "--file-label", "--argv0", "--json-status-fd", "--add-seccomp-fd"), 1),
    },
}
LAUNCHERS = frozenset({*_VALUED, "nsjail"})


def launched_command(name: str, args: Sequence[str]) -> list[str]:
    """The command ``name args`` starts inside its sandbox or namespaces (empty: a shell, or nothing named)."""
    if name == "nsjail":
        return list(args[args.index("--") + 1 :]) if "--" in args else []
    valued = _VALUED.get(name, {})
    i = 0
    while i < len(args) and args[i].startswith("-"):
        if args[i] == "--":
            return list(args[i + 1 :])
        i += 1 + (valued.get(args[i], 0) if "=" not in args[i] else 0)
    return list(args[i:])


def enters_host(name: str, args: Sequence[str]) -> bool:
    """``nsenter`` into the namespaces of PID 1 (the host's init, seen from a container)."""
    if name != "nsenter":
        return False
    targets = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-t", "--target")]
    targets += [a.split("=", 1)[1] for a in args if a.startswith("--target=")]
    return "1" in targets or any("=/proc/1/ns/" in a for a in args)
