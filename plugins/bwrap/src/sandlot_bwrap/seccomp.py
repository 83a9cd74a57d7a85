"""A classic-BPF seccomp program, generated here (no libseccomp), passed to ``bwrap --seccomp FD``.

What it does, on x86_64 and aarch64 only (any other architecture fails closed at creation):

* kills the process on a foreign syscall ABI (i386 / x32 on x86_64): a filter that only
  knows native syscall numbers must not be bypassed through another table;
* ``socket(domain, ...)``: only AF_INET, AF_INET6 and AF_NETLINK (plus AF_UNIX when
  allowed) succeed; every other family fails with EAFNOSUPPORT. With ``network = "none"``
  the IP families only reach the sandbox's own loopback; blocking AF_UNIX stops escapes
  through host sockets visible in the filesystem (docker.sock, ssh-agent, D-Bus), and
  AF_VSOCK/AF_PACKET/... are not namespaced at all. ``socketpair`` stays allowed (it
  connects nothing outside);
* ``io_uring_*``: ENOSYS, because io_uring can create sockets without the ``socket``
  syscall and so bypass the rule above;
* ``ioctl(fd, TIOCSTI|TIOCLINUX, ...)``: EPERM (terminal input injection; ``--new-session``
  already blocks it, this also covers a terminal handed in some other way);
* ``add_key``/``request_key``/``keyctl``: ENOSYS (kernel keyrings are not namespaced).

Only the low 32 bits of arguments are compared: the kernel itself truncates ``int``
domains and ``unsigned int`` ioctl numbers, so high bits cannot smuggle a value past.
"""

from __future__ import annotations

import errno
import platform
import socket
import struct
from collections.abc import Sequence

import attrs

# BPF instruction classes and fields (linux/bpf_common.h).
_LD_W_ABS = 0x00 | 0x00 | 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x05 | 0x10 | 0x00  # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x05 | 0x30 | 0x00  # BPF_JMP | BPF_JGE | BPF_K
_RET_K = 0x06 | 0x00  # BPF_RET | BPF_K

RET_KILL_PROCESS = 0x80000000
RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000

# struct seccomp_data offsets.
_OFF_NR = 0
_OFF_ARCH = 4
_OFF_ARG0_LO = 16
_OFF_ARG1_LO = 24

_X32_SYSCALL_BIT = 0x40000000

TIOCSTI = 0x5412
TIOCLINUX = 0x541C


@attrs.frozen
class Arch:
    name: str
    audit_arch: int
    syscalls: dict[str, int]
    #: Syscall numbers at or above this are another ABI (x32 on x86_64).
    foreign_from: int | None = None


ARCHES: dict[str, Arch] = {
    "x86_64": Arch(
        "x86_64",
        0xC000003E,
        {
            "socket": 41,
            "ioctl": 16,
            "io_uring_setup": 425,
            "io_uring_enter": 426,
            "io_uring_register": 427,
            "add_key": 248,
            "request_key": 249,
            "keyctl": 250,
        },
        foreign_from=_X32_SYSCALL_BIT,
    ),
    "aarch64": Arch(
        "aarch64",
        0xC00000B7,
        {
            "socket": 198,
            "ioctl": 29,
            "io_uring_setup": 425,
            "io_uring_enter": 426,
            "io_uring_register": 427,
            "add_key": 217,
            "request_key": 218,
            "keyctl": 219,
        },
    ),
}


class UnsupportedArch(Exception):
    """No syscall table for this machine; the caller must fail closed."""


def native_arch() -> Arch:
    machine = platform.machine()
    aliases = {"amd64": "x86_64", "arm64": "aarch64"}
    arch = ARCHES.get(aliases.get(machine, machine))
    if arch is None:
        raise UnsupportedArch(f"no seccomp syscall table for architecture {machine!r} (supported: {', '.join(ARCHES)})")
    return arch


@attrs.frozen
class SeccompProgram:
    """The generated filter: its bytes for bwrap and a readable list of its rules."""

    arch: str
    rules: tuple[str, ...]
    code: bytes = attrs.field(repr=False)

    @property
    def instructions(self) -> int:
        return len(self.code) // 8


class _Asm:
    """Tiny assembler with forward labels (all jumps here are forward, as BPF requires)."""

    def __init__(self) -> None:
        self.ops: list[tuple[int, str | int, str | int, int]] = []
        self.labels: dict[str, int] = {}

    def label(self, name: str) -> None:
        self.labels[name] = len(self.ops)

    def ld(self, offset: int) -> None:
        self.ops.append((_LD_W_ABS, 0, 0, offset))

    def jeq(self, value: int, true: str | int, false: str | int = 0) -> None:
        self.ops.append((_JEQ_K, true, false, value))

    def jge(self, value: int, true: str | int, false: str | int = 0) -> None:
        self.ops.append((_JGE_K, true, false, value))

    def ret(self, value: int) -> None:
        self.ops.append((_RET_K, 0, 0, value))

    def assemble(self) -> bytes:
        out = []
        for index, (code, jt, jf, k) in enumerate(self.ops):
            out.append(struct.pack("=HBBI", code, self._offset(index, jt), self._offset(index, jf), k))
        return b"".join(out)

    def _offset(self, index: int, target: str | int) -> int:
        if isinstance(target, int):
            return target
        delta = self.labels[target] - index - 1
        if not 0 <= delta <= 255:
            raise ValueError(f"BPF jump to {target} out of range ({delta})")
        return delta


def build(*, allow_unix: bool, arch: Arch | None = None) -> SeccompProgram:
    arch = arch or native_arch()
    nr = arch.syscalls
    families = [socket.AF_INET, socket.AF_INET6, socket.AF_NETLINK]
    if allow_unix:
        families.append(socket.AF_UNIX)
    a = _Asm()
    a.ld(_OFF_ARCH)
    a.jeq(arch.audit_arch, 1, 0)
    a.ret(RET_KILL_PROCESS)
    a.ld(_OFF_NR)
    if arch.foreign_from is not None:
        a.jge(arch.foreign_from, "kill", 0)
    a.jeq(nr["socket"], "socket")
    a.jeq(nr["ioctl"], "ioctl")
    for name in ("io_uring_setup", "io_uring_enter", "io_uring_register", "add_key", "request_key", "keyctl"):
        a.jeq(nr[name], "enosys")
    a.ret(RET_ALLOW)
    a.label("socket")
    a.ld(_OFF_ARG0_LO)
    for family in families:
        a.jeq(int(family), "allow")
    a.ret(RET_ERRNO | errno.EAFNOSUPPORT)
    a.label("ioctl")
    a.ld(_OFF_ARG1_LO)
    a.jeq(TIOCSTI, "eperm")
    a.jeq(TIOCLINUX, "eperm")
    a.label("allow")
    a.ret(RET_ALLOW)
    a.label("eperm")
    a.ret(RET_ERRNO | errno.EPERM)
    a.label("enosys")
    a.ret(RET_ERRNO | errno.ENOSYS)
    a.label("kill")
    a.ret(RET_KILL_PROCESS)
    allowed = ", ".join(_family_name(f) for f in families)
    rules = (
        f"arch != {arch.name}: kill process",
        *([f"syscall number >= {arch.foreign_from:#x} (x32 ABI): kill process"] if arch.foreign_from else []),
        f"socket(domain): allowed for {allowed}; any other domain -> EAFNOSUPPORT",
        "ioctl(fd, TIOCSTI | TIOCLINUX): EPERM",
        "io_uring_setup, io_uring_enter, io_uring_register: ENOSYS",
        "add_key, request_key, keyctl: ENOSYS",
        "everything else: allowed",
    )
    return SeccompProgram(arch=arch.name, rules=rules, code=a.assemble())


def _family_name(family: int | socket.AddressFamily) -> str:
    try:
        return socket.AddressFamily(family).name
    except ValueError:
        return str(int(family))


def describe(rules: Sequence[str]) -> str:
    return "\n".join(f"  - {rule}" for rule in rules)
