"""Constant folding helpers of the Python analyzer: decoding, string formatting, integer arithmetic.

Pure functions over already-known values; unknown pieces are :data:`~sandlot.risk.paths.HOLE`.
"""

from __future__ import annotations

import ast
import base64
import binascii
import bz2
import codecs
import gzip
import lzma
import pickletools
import shlex
import zlib
from collections.abc import Mapping, Sequence

from sandlot.risk.paths import HOLE
from sandlot.risk.values import UNKNOWN, Val


def mode_bits(num: int) -> tuple[bool, bool, bool]:
    return bool(num & 0o002), bool(num & 0o6000), bool(num & 0o044)


def pickle_globals(data: bytes) -> list[str]:
    """Module.name pairs a pickle would import (GLOBAL / STACK_GLOBAL opcodes)."""
    found: list[str] = []
    strings: list[str] = []
    try:
        for opcode, arg, _ in pickletools.genops(data):
            if opcode.name == "GLOBAL" and isinstance(arg, str):
                found.append(arg.replace(" ", "."))
            elif opcode.name in ("SHORT_BINUNICODE", "BINUNICODE", "UNICODE", "STRING", "SHORT_BINSTRING"):
                strings.append(str(arg))
            elif opcode.name == "STACK_GLOBAL" and len(strings) >= 2:
                found.append(f"{strings[-2]}.{strings[-1]}")
    except Exception:  # a malformed pickle: report the imports read so far
        pass
    return found


def shell_quote(word: str) -> str:
    return shlex.quote(word) if HOLE not in word else word


def identity(text: str) -> str:
    return text


def expandvars(text: str) -> str:
    return text.replace("${HOME}", "~").replace("$HOME", "~")


def env_value(key: str | None) -> Val:
    if key in ("HOME", "USERPROFILE"):
        return Val(text="~")
    if key in ("APPDATA", "LOCALAPPDATA"):
        return Val(text="~/AppData")
    if key in ("TMPDIR", "TEMP", "TMP"):
        return Val(text="/tmp")
    if key in XDG_DEFAULTS:
        return Val(text=XDG_DEFAULTS[key])
    if key == "GITHUB_EVENT_PATH":
        return Val(text=CI_EVENT_FILE)
    return Val(text=None)


#: Where a GitHub Actions runner keeps the triggering event (a pull request's title, body, branch name:
#: text its author chose).
CI_EVENT_FILE = "/home/runner/work/_temp/_github_workflow/event.json"


#: XDG base directories: when unset (the usual case) they are these paths in the home directory.
XDG_DEFAULTS = {
    "XDG_CONFIG_HOME": "~/.config",
    "XDG_DATA_HOME": "~/.local/share",
    "XDG_CACHE_HOME": "~/.cache",
    "XDG_STATE_HOME": "~/.local/state",
}


def fold_int(op: ast.operator, a: int, b: int) -> int | None:
    try:
        if isinstance(op, ast.Pow):
            if b < 0 or (abs(a) > 1 and b > 256):
                return 1 << 64 if b > 0 else None
            return int(a**b)
        if isinstance(op, ast.LShift):
            return a << min(b, 128) if b >= 0 else None
        if isinstance(op, ast.BitOr):
            return a | b
        if isinstance(op, ast.BitAnd):
            return a & b
        if isinstance(op, ast.Sub):
            return a - b
        if isinstance(op, ast.FloorDiv):
            return a // b if b else None
        if isinstance(op, ast.Mod):
            return a % b if b else None
    except (OverflowError, ValueError):
        return None
    return None


def percent_format(template: str, args: Sequence[Val]) -> str:
    out: list[str] = []
    index = 0
    i = 0
    while i < len(template):
        ch = template[i]
        if ch == "%" and i + 1 < len(template):
            j = i + 1
            while j < len(template) and template[j] in "0123456789.-+ #":
                j += 1
            if j < len(template) and template[j] == "%":
                out.append("%")
            else:
                val = args[index] if index < len(args) else UNKNOWN
                out.append(val.text if val.text is not None else (str(val.num) if val.num is not None else HOLE))
                index += 1
            i = j + 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def brace_format(template: str, args: Sequence[Val], kwargs: Mapping[str, Val] | None = None) -> str:
    out: list[str] = []
    index = 0
    i = 0
    while i < len(template):
        ch = template[i]
        if ch == "{" and i + 1 < len(template) and template[i + 1] == "{":
            out.append("{")
            i += 2
            continue
        if ch == "}" and i + 1 < len(template) and template[i + 1] == "}":
            out.append("}")
            i += 2
            continue
        if ch == "{":
            end = template.find("}", i)
            if end < 0:
                out.append(template[i:])
                break
            field = template[i + 1 : end].split(":")[0].split("!")[0]
            if field.isdigit():
                val = args[int(field)] if int(field) < len(args) else UNKNOWN
            elif field == "":
                val = args[index] if index < len(args) else UNKNOWN
                index += 1
            else:
                val = (kwargs or {}).get(field, UNKNOWN)
            out.append(val.text if val.text is not None else HOLE)
            i = end + 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def decode(q: str, text: str, args: Sequence[Val], kwargs: dict[str, Val]) -> str | None:
    data = text.encode("latin-1", "replace")
    try:
        raw: bytes
        if q in (
            "base64.b64decode",
            "base64.standard_b64decode",
            "base64.decodebytes",
            "base64.decodestring",
            "binascii.a2b_base64",
        ):
            raw = base64.b64decode(data + b"===")
        elif q == "base64.urlsafe_b64decode":
            raw = base64.urlsafe_b64decode(data + b"===")
        elif q == "base64.b32decode":
            raw = base64.b32decode(data)
        elif q == "base64.b16decode":
            raw = base64.b16decode(data, casefold=True)
        elif q == "base64.b85decode":
            raw = base64.b85decode(data)
        elif q == "base64.a85decode":
            raw = base64.a85decode(data)
        elif q in ("binascii.unhexlify", "binascii.a2b_hex", "builtins.bytes.fromhex", "builtins.bytearray.fromhex"):
            raw = binascii.unhexlify(b"".join(data.split()))
        elif q == "zlib.decompress":
            raw = zlib.decompress(data)
        elif q == "gzip.decompress":
            raw = gzip.decompress(data)
        elif q == "bz2.decompress":
            raw = bz2.decompress(data)
        elif q == "lzma.decompress":
            raw = lzma.decompress(data)
        elif q in ("codecs.decode", "codecs.encode"):
            encoding = (args[1].text if len(args) > 1 else kwargs.get("encoding", UNKNOWN).text) or ""
            name = encoding.lower().replace("-", "_")
            if name in ("rot13", "rot_13"):
                return codecs.decode(text, "rot13")
            if name in ("hex", "hex_codec"):
                raw = binascii.unhexlify(data)
            elif name in ("base64", "base64_codec"):
                raw = base64.b64decode(data + b"===")
            elif name in ("zlib", "zlib_codec"):
                raw = zlib.decompress(data)
            else:
                return None
        else:
            return None
    except (ValueError, binascii.Error, zlib.error, OSError, EOFError, lzma.LZMAError, TypeError):
        return None
    return raw.decode("latin-1")


def template_substitute(template: str, kwargs: Mapping[str, Val]) -> str:
    """``string.Template(t).substitute(name=...)``: ``$name``/``${name}`` replaced, unknown ones a hole."""
    import re

    def value(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name = match.group(1) or match.group(2)
        val = kwargs.get(name)
        return val.text if val is not None and val.text is not None else HOLE

    return re.sub(r"\$\$|\$(?:\{([_a-zA-Z][_a-zA-Z0-9]*)\}|([_a-zA-Z][_a-zA-Z0-9]*))", value, template)
