"""Abstract values used by the Python analyzer's constant folding and def-use tracking.

A :class:`Val` is what the analyzer knows about an expression: its string value with
unknown pieces as :data:`~sandlot.risk.paths.HOLE` (``text``), alternatives when it is
one of a few constants (``alts``), the object it refers to (``qual``, e.g.
``"os.system"`` or ``"socket.socket()"`` for an instance), an integer (``num``), list
items (``items``), and provenance bits (``flags``) such as "came from a secret file".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from sandlot.risk.paths import HOLE

# Provenance bits. TAINT bits flow through any call or operation that takes the value.
SECRET = 1 << 0  # content of a credential / key / password file
NET = 1 << 1  # data received from the network
DECODED = 1 << 2  # produced by base64/hex/zlib/rot13/chr()-tricks: obfuscated payload
ENV = 1 << 3  # the whole process environment (API keys live there)
INPUT = 1 << 4  # interactive user input
LOCALFILE = 1 << 5  # content of a file in the working directory
LOOPVAR = 1 << 6  # derived from a range() loop variable (port scans)
TRANSFORMED = 1 << 7  # rewritten by str.replace/translate/reversal: hides what it spells when executed
CREDENTIAL = 1 << 12  # the value of an environment variable named like a credential (*_TOKEN, *_SECRET...)
DUMP = 1 << 13  # a whole database, as pg_dump/mysqldump print it
EVERY_CONTAINER = 1 << 14  # the ids of every container on the engine, as `docker ps -aq` prints them
LINE = 1 << 15  # one line of a file read line by line (a wordlist, a host list)
TAINT = (
    SECRET
    | NET
    | DECODED
    | ENV
    | INPUT
    | LOCALFILE
    | LOOPVAR
    | TRANSFORMED
    | CREDENTIAL
    | DUMP
    | EVERY_CONTAINER
    | LINE
)
# Object bits: describe the object itself and do not flow into results of calls.
SOCKFD = 1 << 8  # a socket's file descriptor
PROCITER = 1 << 9  # a process handle from iterating over all processes
OWNPID = 1 << 10  # the pid of this process or of a child it started
CODE = 1 << 11  # a code object
BOOL = 1 << 24  # a True/False literal (its number is 1 or 0): spelled `true`/`false` when rendered as JSON
# Parameter bits: "derived from parameter i of the function being analysed".
PARAM0 = 1 << 16
MAX_PARAMS = 8
PARAMS = ((1 << MAX_PARAMS) - 1) << 16
FLOWING = TAINT | PARAMS

MAX_ALTS = 16


class Val:
    """What is statically known about one expression (see module docstring)."""

    __slots__ = ("alts", "base", "elem", "flags", "func", "items", "keys", "num", "qual", "text")

    def __init__(
        self,
        text: str | None = None,
        qual: str | None = None,
        flags: int = 0,
        num: int | None = None,
        items: list[Val] | None = None,
        alts: tuple[str, ...] | None = None,
        base: Val | None = None,
        elem: Val | None = None,
        func: object = None,
        keys: dict[str, Val] | None = None,
    ) -> None:
        self.text = text
        self.qual = qual
        self.flags = flags
        self.num = num
        self.items = items
        self.alts = alts
        self.base = base  # for a method: the object it is bound to
        self.elem = elem  # for an iterable: what iterating over it yields
        self.func = func  # for a function defined in the analysed code: its summary
        self.keys = keys  # for a dict with constant keys: the value under each key

    def __repr__(self) -> str:  # debugging aid only
        return f"Val(text={self.text!r}, qual={self.qual!r}, flags={self.flags:#x}, num={self.num!r})"

    def strings(self) -> list[str]:
        """Every string this value may be (one, or its alternatives); empty when unknown."""
        if self.alts:
            return list(self.alts)
        return [self.text] if self.text is not None else []


UNKNOWN = Val()


def flowing(vals: Iterable[Val]) -> int:
    flags = 0
    for val in vals:
        flags |= val.flags
    return flags & FLOWING


def combine(
    parts: Sequence[Val], join: Callable[[str, str], str], hole: str
) -> tuple[str | None, tuple[str, ...] | None]:
    """Join the string values of ``parts`` with ``join``; unknown parts become ``hole``.

    Returns (text, alternatives). Alternatives multiply when several parts have them,
    capped at :data:`MAX_ALTS` (beyond that only the first alternative is kept).
    """
    options: list[list[str]] = []
    for part in parts:
        strings = part.strings()
        if not strings:
            strings = [str(part.num)] if part.num is not None else [hole]
        options.append(strings)
    results = [""]
    first = True
    for choice in options:
        nxt: list[str] = []
        for prefix in results:
            for value in choice:
                nxt.append(value if first else join(prefix, value))
        results = nxt[:MAX_ALTS]
        first = False
    if len(results) == 1:
        return results[0], None
    return results[0], tuple(results)


def constant(val: Val) -> bool:
    """``val`` is fully known and carries nothing read at run time (a literal message, a dict of literals)."""
    if val.flags & FLOWING or val.qual is not None:
        return False  # an object (an open file, a response) is read when sent
    if val.keys is not None:
        return all(constant(item) for item in val.keys.values())
    if val.items is not None:
        return all(constant(item) for item in val.items)
    if val.text is not None:
        return HOLE not in val.text
    return val.num is not None
