"""Argument-vector helpers of the shell analyzer: options, modes, sizes, decoders."""

from __future__ import annotations

import base64
import binascii
import posixpath
import re
from collections.abc import Collection, Sequence

from sandlot.risk.paths import HOLE, HOLE_WORD
from sandlot.risk.shell_tables import UNITS


def short(text: str, limit: int = 160) -> str:
    text = text.replace(HOLE, "…").replace(HOLE_WORD, "…").strip()
    first = text.splitlines()[0] if text else ""
    if len(first) > limit or first != text:
        return first[:limit] + " …"
    return first


def base(word: str) -> str:
    """A command's name: its path's last part, without Windows' ``.exe`` (``powershell.exe`` through WSL)."""
    name = posixpath.basename(word) if "/" in word and not word.endswith("/") else word
    return name[:-4] if name[-4:].lower() == ".exe" and len(name) > 4 else name


def options(args: Sequence[str], valued: frozenset[str] = frozenset()) -> tuple[set[str], list[str]]:
    """Split args into (single-letter and long flags, operands); ``--`` ends options.

    An option in ``valued`` (``--exclude``, ``-e``) takes the next word as its value, which
    is then neither a flag nor an operand."""
    flags: set[str] = set()
    operands: list[str] = []
    ended = False
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if not ended and arg in valued:
            flags.add(arg)
            skip = True
            continue
        if ended or not arg.startswith("-") or arg == "-":
            operands.append(arg)
        elif arg == "--":
            ended = True
        elif arg.startswith("--"):
            flags.add(arg.split("=", 1)[0])
        else:
            flags.update(arg[1:])
    return flags, operands


def size(text: str) -> int | None:
    """``10G``/``4M``/``512k`` -> bytes (dd, fallocate and truncate spellings)."""
    digits = text.rstrip("bBiIkKmMgGtTpPwWcC")
    unit = text[len(digits) :].lower().replace("ib", "").rstrip("b") or ("" if text[len(digits) :] == "" else "b")
    if not digits.isdigit() or unit not in UNITS:
        return None
    return int(digits) * UNITS[unit]


def archive_file(name: str, args: list[str]) -> str | None:
    """The archive a tar/zip command writes (``tar czf OUT``, ``tar -f OUT``, ``zip OUT files``)."""
    if name == "zip":
        operands = [a for a in args if not a.startswith("-")]
        return operands[0] if operands else None
    for i, arg in enumerate(args):
        cluster = arg.lstrip("-")
        # an option cluster (`-czf`), or tar's old-style first word (`czf`), never a path that happens to have c and f
        is_cluster = cluster.isalpha() and (arg.startswith("-") or i == 0)
        if arg in ("-f", "--file") or (not arg.startswith("--") and is_cluster and "f" in cluster and "c" in cluster):
            if arg.startswith("--file="):
                return arg.split("=", 1)[1]
            if i + 1 < len(args):
                return args[i + 1]
    creates = any(
        a == "--create" or (a.lstrip("-").isalpha() and "c" in a.lstrip("-") and (a.startswith("-") or i == 0)
                            and not a.startswith("--"))
        for i, a in enumerate(args)
    )  # fmt: skip
    if name in ("tar", "gtar", "bsdtar") and creates:
        return "-"  # `tar -cz dir | nc …`: with no -f, GNU tar writes the archive to standard output
    return None


def skip_valued(args: list[str], with_value: set[str]) -> list[str]:
    """``args`` without the options in ``with_value`` and the value each takes."""
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in with_value:
            skip = True
        else:
            out.append(arg)
    return out


def option_values(args: Sequence[str], *names: str) -> list[str]:
    """Values of the options ``names`` in ``args``: ``-o yaml``, ``--output=yaml``, ``-oyaml`` (short ones)."""
    found: list[str] = []
    for i, arg in enumerate(args):
        if arg in names and i + 1 < len(args):
            found.append(args[i + 1])
        elif "=" in arg and arg.split("=", 1)[0] in names:
            found.append(arg.split("=", 1)[1])
        elif len(arg) > 2 and arg[:2] in names and not arg.startswith("--"):
            found.append(arg[2:])
    return found


def skip_options(argv: list[str], with_value: set[str] | frozenset[str]) -> list[str]:
    i = 0
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "-":
        if argv[i] == "--":
            return argv[i + 1 :]
        i += 2 if argv[i] in with_value else 1
    return argv[i:]


#: Options of sudo, timeout, nice and ionice that take the next word as their value.
_WRAPPER_VALUED = frozenset({"-u", "-g", "-n", "-c", "-s", "-k", "--user", "--group", "--signal", "--kill-after"})


def unwrapped(argv: Sequence[str], wrappers: Collection[str]) -> list[str]:
    """``argv`` with the ``wrappers`` in front of its program set aside, with their options (``sudo -u x``,
    ``timeout -s KILL 30``, ``nice -n 5``): the command they run."""
    i = 0
    while i < len(argv) and base(argv[i]) in wrappers:
        name = base(argv[i])
        i += 1
        while i < len(argv) and argv[i].startswith("-"):
            i += 2 if argv[i] in _WRAPPER_VALUED else 1
        if name == "timeout" and i < len(argv):
            i += 1  # its duration
    return list(argv[i:])


def is_symbolic_mode(arg: str) -> bool:
    return (
        bool(arg)
        and arg[0] in "ugoa+-="
        and any(c in arg for c in "+-=")
        and all(c in "ugoa+-=rwxXst," for c in arg)
        and not arg.startswith("--")
    )


def mode_bits(mode: str) -> tuple[bool, bool, bool]:
    """(world writable, setuid/setgid, others can read) for a numeric or symbolic mode."""
    if mode.isdigit() and all(c in "01234567" for c in mode):
        value = int(mode, 8)
        return bool(value & 0o002), bool(value & 0o6000), bool(value & 0o044)
    world = setuid = opens = False
    for clause in mode.split(","):
        who = clause.split("+")[0].split("=")[0].split("-")[0]
        if "-" in clause and "+" not in clause and "=" not in clause:
            continue
        perms = clause[len(who) + 1 :]
        everyone = who in ("", "a") or "o" in who
        if "s" in perms:
            setuid = True
        if "w" in perms and everyone and who != "":
            world = True
        if "r" in perms and (everyone or "g" in who):
            opens = True
    return world, setuid, opens


def is_remote(dest: str) -> bool:
    head = dest.split("/", 1)[0]
    return (":" in head and not dest.startswith("/")) or dest.startswith(("s3://", "gs://", "rsync://"))


def apply_transform(transform: str, text: str) -> str | None:
    try:
        if transform == "b64":
            return base64.b64decode(text.strip() + "===", validate=False).decode("utf-8")
        if transform == "b32":
            return base64.b32decode(text.strip()).decode("utf-8")
        if transform == "hex":
            return binascii.unhexlify("".join(text.split())).decode("utf-8")
        if transform == "rev":
            return text[::-1]
        if transform.startswith("tr:"):
            source, target = (tr_set(part) for part in transform[3:].split("\0", 1))
            if len(target) < len(source):
                target += target[-1:] * (len(source) - len(target))
            return text.translate(str.maketrans(source, target[: len(source)]))
    except (ValueError, UnicodeDecodeError, binascii.Error):
        return None
    return None


def tr_set(spec: str) -> str:
    """``A-Za-z`` → the 52 letters (tr's ranges; classes and escapes are left as they are)."""
    out: list[str] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-":
            out.extend(chr(c) for c in range(ord(spec[i]), ord(spec[i + 2]) + 1))
            i += 3
        else:
            out.append(spec[i])
            i += 1
    return "".join(out)


#: Options taking a value, per command whose operands are files (the value is not a file operand).
VALUED_OPTIONS: dict[str, frozenset[str]] = {
    "rsync": frozenset(
        {"--exclude", "--include", "--exclude-from", "--include-from", "--filter", "-f", "-e", "--rsh",
         "--rsync-path", "--log-file", "--password-file", "--chmod", "--chown", "--backup-dir", "--suffix",
         "--partial-dir", "-T", "--temp-dir", "--compare-dest", "--link-dest", "--copy-dest", "--max-size",
         "--min-size", "--bwlimit", "--timeout", "--port", "--out-format", "--files-from", "-M",
         "--remote-option"}
    ),
    "scp": frozenset({"-P", "-i", "-o", "-F", "-c", "-l", "-J", "-S"}),
    "cp": frozenset({"-t", "--target-directory", "-S", "--suffix"}),
    "mv": frozenset({"-t", "--target-directory", "-S", "--suffix"}),
    "install": frozenset({"-m", "--mode", "-o", "--owner", "-g", "--group", "-t", "--target-directory", "-S",
                          "--suffix"}),
}  # fmt: skip


#: Each tool's options that make it report what it would do and change nothing.
_PREVIEW_OPTIONS: dict[str, frozenset[str]] = {
    "aws": frozenset({"--dryrun", "--dry-run"}),
    "kubectl": frozenset({"--dry-run", "--dry-run=client", "--dry-run=server"}),
    "helm": frozenset({"--dry-run"}),
    "rsync": frozenset({"--dry-run", "-n"}),
    "rclone": frozenset({"--dry-run", "-n"}),
    "restic": frozenset({"--dry-run", "-n"}),
    "apt-get": frozenset({"--dry-run", "-s", "--simulate"}),
    "apt": frozenset({"--dry-run", "-s", "--simulate"}),
    "imapsync": frozenset({"--dry"}),
    "certbot": frozenset({"--dry-run"}),
    "ansible": frozenset({"--check", "-C"}),
    "ansible-playbook": frozenset({"--check", "-C"}),
    "npm": frozenset({"--dry-run"}),
    "cargo": frozenset({"--dry-run"}),
}


def previews_only(name: str, args: Sequence[str], written: str | None = None) -> bool:
    """``name ARGS`` is a dry run: one of the tool's preview options is given before any ``--`` (and, when
    the command's ``written`` text is known, spelled in it)."""
    preview = _PREVIEW_OPTIONS.get(name)
    if preview is None:
        return False
    for arg in args:
        if arg == "--":
            return False
        if arg in preview:
            return written is None or re.search(rf"(?<!\S){re.escape(arg)}(?!\S)", written) is not None
    return False


def encryption_input(name: str, args: list[str]) -> str | None:
    """The plaintext file an encryption command reads when it writes the ciphertext elsewhere (``gpg -o x.gpg -e
    x``, ``gcloud kms encrypt --plaintext-file x --ciphertext-file x.enc``, ``age -o x.age x``)."""
    if name in ("gpg", "gpg2") and any(a in ("-e", "--encrypt", "-c", "--symmetric") for a in args):
        operands = options(args, _GPG_VALUED)[1]
        # (without -o, gpg writes FILE.gpg beside it; `-o -` is standard output, not a kept copy)
        return operands[-1] if operands and option_values(args, "-o", "--output")[:1] != ["-"] else None
    if name == "gcloud" and "kms" in args and "encrypt" in args:
        return next(iter(option_values(args, "--plaintext-file")), None)
    if name == "age" and option_values(args, "-o", "--output"):
        operands = options(args, _AGE_VALUED)[1]
        return operands[-1] if operands else None
    return None


_AGE_VALUED = frozenset({"-o", "--output", "-r", "--recipient", "-R", "--recipients-file", "-i"})
_GPG_VALUED = frozenset({"-o", "--output", "-r", "--recipient", "-u", "--local-user", "--passphrase-file",
                         "--passphrase", "--cipher-algo", "--homedir", "--trust-model", "--compress-algo", "-z"})
