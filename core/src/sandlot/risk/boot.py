"""The boot chain and the kernel's settings: bootloaders, kernel command lines, initramfs images, UEFI boot entries,
Secure Boot keys, firmware, sysctl hardening (shared by both analyzers, judged on the whole text).

What the machine runs before any login, and the kernel's own defences, outlast every other control. What needs a
careful reviewer:

* a kernel command line persisted with its protections off (``selinux=0``, ``mitigations=off``,
  ``lockdown=none``) or straight into a root shell (``init=/bin/sh``);
* UEFI boot entries deleted over a listing, and every kernel's initramfs deleted (the machine no longer boots);
* Secure Boot's validation disabled, or a downloaded key enrolled as a Machine Owner Key;
* the host's own firmware written with ``flashrom -p internal``;
* several of the kernel's hardening settings turned off at once (ASLR, pointer and dmesg restrictions, ptrace
  scope, unprivileged BPF), or the process, thread or file limits cut to a handful;
* the audit system told to panic the kernel on failure (``auditctl -f 2``) and made to fail (a backlog of a few
  records, every system call audited);
* a board's U-Boot told to boot from a server at a bare outside address (``fw_setenv serverip …`` with a network
  ``bootcmd``);
* a production image built with an empty root password or root logins allowed (Yocto's ``debug-tweaks``,
  ``empty-root-password``).

Read-only checks (``efibootmgr``, ``mokutil --sb-state``, ``sysctl -a``), one named boot entry removed, a project's
own key enrolled and a raised limit are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: Where a kernel command line is kept or changed for good.
_CMDLINE_PLACE = re.compile(r"\bgrubby\b|GRUB_CMDLINE_LINUX|/etc/default/grub|\bkernelopts\b|/etc/kernel/cmdline"
                            r"|\bkernelstub\b|/loader/entries/|\bbootctl\b")  # fmt: skip
#: Kernel parameters that switch a protection off or boot into a shell instead of init.
_WEAK_PARAMETER = re.compile(
    r"(?<![\w.-])(?:selinux=0|enforcing=0|apparmor=0|security=none|mitigations=off|lockdown=none|audit=0"
    r"|module\.sig_enforce=0|init=/(?:usr/)?bin/(?:ba|z|da)?sh)(?![\w.-])"
)
#: UEFI boot entries deleted (`efibootmgr -b NUM -B`) from a loop over a listing.
_BOOT_ENTRY_DELETE = re.compile(r"efibootmgr[^\n]*[\s\"']-B\b|efibootmgr[^\n]*--delete-bootnum")
_INITRAMFS_DELETE = re.compile(r"update-initramfs\b[^\n]*\s-d\b[^\n]*-k\s+all\b|update-initramfs\b[^\n]*-k\s+all\b"
                               r"[^\n]*\s-d\b")  # fmt: skip
_MOK_DISABLE = re.compile(r"mokutil\b[^\n]*--disable-validation")
_MOK_IMPORT = re.compile(r"mokutil\b[^\n]*--import\b")
_FETCH = re.compile(r"\b(?:curl|wget|requests\.get|urlopen|urlretrieve|httpx\.get)\b")
_INTERNAL_FLASH = re.compile(r"flashrom\b[^\n]*-p[\s\"',]+internal[\s\S]{0,120}?(?:-w\b|--write\b)"
                             r"|flashrom\b[^\n]*(?:-w\b|--write\b)[^\n]*-p[\s\"',]+internal")  # fmt: skip
#: The audit system told to panic the kernel when it fails (`-f 2`), and made to fail: a backlog of a handful of
#: records, or every system call audited.
_AUDIT_PANIC = re.compile(r"auditctl\W+-f\W+2\b")
_AUDIT_BACKLOG = re.compile(r"auditctl\W+-b\W+(\d+)")
_AUDIT_EVERYTHING = re.compile(r"auditctl\W[^\n]*-S\W+all\b")
#: Hardening settings and the values that switch each off.
_HARDENING = {
    "kernel.randomize_va_space": ("0",),
    "kernel.kptr_restrict": ("0",),
    "kernel.dmesg_restrict": ("0",),
    "kernel.yama.ptrace_scope": ("0",),
    "kernel.unprivileged_bpf_disabled": ("0",),
    "kernel.perf_event_paranoid": ("-1",),
    "fs.protected_symlinks": ("0",),
    "fs.protected_hardlinks": ("0",),
    "fs.suid_dumpable": ("1", "2"),
    "kernel.kexec_load_disabled": ("0",),
}
_SETTING = re.compile(r"(?P<key>(?:kernel|fs|vm)\.[\w.-]+)[\"']?\s*[:=]\s*[\"']?(?P<value>-?\d+)")
#: Limits whose value below a handful starves every program on the machine of processes or files.
_STARVED_LIMITS = {"kernel.pid_max": 4096, "kernel.threads-max": 4096, "fs.file-max": 4096}
#: U-Boot's environment pointed at a TFTP or NFS server, and the server's address (`fw_setenv serverip …`).
_NETWORK_BOOT = re.compile(r"\b(?:fw_)?setenv\s+bootcmd\b[^\n]*\b(?:tftp\w*|dhcp|nfs|pxe)\b")
_BOOT_SERVER = re.compile(r"\b(?:fw_)?setenv\s+serverip\s+[\"']?(\d{1,3}(?:\.\d{1,3}){3})")
#: Image features that leave root without a password or logging in from anywhere...
_OPEN_ROOT_FEATURES = re.compile(
    r"IMAGE_FEATURES\S*\s*[+:?]?=[^\n]*\b(?:debug-tweaks|empty-root-password|allow-empty-password|allow-root-login)\b"
)
#: ...in the configuration of a production build.
_PRODUCTION_BUILD = re.compile(r"prod(?:uction)?\b|-prod\b|_prod\b", re.IGNORECASE)
_WORDS = GateWords("grubby", "GRUB_CMDLINE", "/etc/default/grub", "kernelopts", "/etc/kernel/cmdline", "kernelstub",
                   "/loader/entries/", "bootctl", "efibootmgr", "update-initramfs", "mokutil", "flashrom", "kernel.",
                   "fs.", "auditctl", "setenv", "IMAGE_FEATURES")  # fmt: skip


def boot_risks(text: str) -> list[OperationRisk]:
    """The boot chain broken or opened, and the kernel's defences or limits taken away."""
    if not _WORDS.any_in(text):
        return []
    found = []
    weak = _WEAK_PARAMETER.search(text) if _CMDLINE_PLACE.search(text) else None
    if weak is not None:
        what = f"boots the kernel with a protection off or into a root shell ({weak.group()})"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _BOOT_ENTRY_DELETE.search(text) and each_item(text):
        what = "deletes UEFI boot entries a listing gives (the machine no longer finds what to boot)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _INITRAMFS_DELETE.search(text):
        what = "deletes the initramfs of every installed kernel (none of them boots)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _MOK_DISABLE.search(text):
        what = "disables Secure Boot's validation (unsigned bootloaders and kernels run)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    elif _MOK_IMPORT.search(text) and _FETCH.search(text):
        what = "enrolls a downloaded key as a Machine Owner Key (whatever it signed boots as trusted)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _INTERNAL_FLASH.search(text):
        what = "writes this machine's own firmware with flashrom (a wrong image leaves it unable to start)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    backlog = [int(b) for b in _AUDIT_BACKLOG.findall(text)] if "auditctl" in text else []
    if _AUDIT_PANIC.search(text) and (any(b < 64 for b in backlog) or _AUDIT_EVERYTHING.search(text)):
        what = "makes the kernel panic when auditing fails, and makes auditing fail (the machine crashes)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    server = _BOOT_SERVER.search(text) if "setenv" in text else None
    if server is not None and outside_address(server[1]) and _NETWORK_BOOT.search(text):
        what = f"makes a board boot what a server at a bare outside address serves ({server[1]})"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    if "IMAGE_FEATURES" in text and _OPEN_ROOT_FEATURES.search(text) and _PRODUCTION_BUILD.search(text):
        what = "builds a production image with an empty root password or root logins allowed (debug-tweaks)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    settings = {(m["key"], m["value"]) for m in _SETTING.finditer(text)} if "." in text else set()
    weakened = sorted({key for key, value in settings if value in _HARDENING.get(key, ())})
    if len(weakened) >= 2:
        what = f"turns off the kernel's hardening ({', '.join(weakened[:3])})"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    starved = sorted(key for key, value in settings if key in _STARVED_LIMITS and int(value) < _STARVED_LIMITS[key])
    if starved:
        what = f"cuts {starved[0]} to a handful (programs can no longer start or open files)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    return found
