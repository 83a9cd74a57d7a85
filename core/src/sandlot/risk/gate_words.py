"""Words a check needs in a text before it looks further, found for every check in one scan.

Dozens of whole-text checks (a module for MongoDB, one for SAP, one for IPMI…) begin by asking whether
any of their words occurs in the snippet; asked one word at a time, that is about a thousand substring
searches per snippet, most of them failing. Every :class:`GateWords` adds its words to one shared
Aho-Corasick automaton instead: the snippet is scanned once (the result kept for the last few texts,
since every check is handed the same string), and each gate only intersects its own words with what
the scan found.
"""

from __future__ import annotations

import threading
from operator import itemgetter

import ahocorasick

#: The word's id in an automaton's match, ``(end index, word id)`` (no Python frame per match, unlike a genexpr).
_WORD_ID = itemgetter(1)


class _WordIndex:
    """The automaton over every gate's words, and what it found in the texts scanned last."""

    _REMEMBERED = 4

    def __init__(self, *, folded: bool) -> None:
        self._folded = folded
        self._ids: dict[str, int] = {}
        self._longest = 0  # the length of the longest word
        self._automaton: ahocorasick.Automaton | None = None
        self._recent: list[tuple[str, frozenset[int]]] = []
        #: The text asked about last and what was found in it, as one tuple (read atomically): every gate of a
        #: pass asks about the same text, so :meth:`GateWords.any_in` answers from it without calling :meth:`found`.
        self.last: tuple[str | None, frozenset[int]] = (None, frozenset())
        self._lock = threading.Lock()

    def register(self, words: tuple[str, ...]) -> frozenset[int]:
        with self._lock:
            for word in words:
                self._ids.setdefault(word, len(self._ids))
                self._longest = max(self._longest, len(word))
            self._automaton = None  # rebuilt, with these words too, at the next scan
            self._recent = []
            self.last = (None, frozenset())
            return frozenset(self._ids[word] for word in words)

    def found(self, text: str) -> frozenset[int]:
        recent = self._recent
        for seen, ids in recent:
            if seen is text:
                self.last = (seen, ids)
                return ids
        automaton = self._automaton or self._build()
        scanned = text.lower() if self._folded else text
        scanned = _one_period(scanned, self._longest)
        ids = frozenset(map(_WORD_ID, automaton.iter(scanned))) if scanned else frozenset()
        self._recent = [(text, ids), *recent[: self._REMEMBERED - 1]]
        self.last = (text, ids)
        return ids

    def _build(self) -> ahocorasick.Automaton:
        with self._lock:
            automaton = ahocorasick.Automaton()
            for word, word_id in self._ids.items():
                automaton.add_word(word, word_id)
            automaton.make_automaton()
            self._automaton = automaton
            return automaton


#: Texts at least this long are tested for repeating themselves before they are scanned.
_LONG_TEXT = 1 << 16
#: How much of a long text's beginning is looked for again further on (where it may repeat).
_PROBE = 64


def _one_period(text: str, longest: int) -> str:
    """``text``, or when it repeats one piece over and over, just enough of it to hold every word it holds.

    The analyzers hand over what code writes, and code that fills a disk or a file writes megabytes of one
    piece (`b"\\x00" * 1024 * 1024 * 32`): scanned whole, that took the automaton more than a second. A word
    found anywhere in a text of period ``p`` is found again starting within the first ``p`` characters, so the
    first ``p + longest`` characters hold every word the whole text holds.
    """
    if len(text) < _LONG_TEXT:
        return text
    period = text.find(text[:_PROBE], 1)
    if period > 0 and text[period:] == text[:-period]:
        return text[: period + longest]
    return text


_EXACT = _WordIndex(folded=False)
_FOLDED = _WordIndex(folded=True)


class GateWords:
    """Literal words, any one of which must occur in a text before a check reads it further.

    ``ignore_case`` matches the words against the text lower-cased (the words are lower-cased too).

    >>> gate = GateWords("etcdctl", "consul")
    >>> gate.any_in("etcdctl get --prefix /"), gate.any_in("ls -la")
    (True, False)
    >>> GateWords("Redfish", ignore_case=True).any_in("curl https://bmc/redfish/v1")
    True
    """

    __slots__ = ("_ids", "_index", "words")

    def __init__(self, *words: str, ignore_case: bool = False) -> None:
        if not words or not all(words):
            raise ValueError("GateWords needs at least one word, and no empty word (it would match every text)")
        self.words = tuple(word.lower() for word in words) if ignore_case else words
        self._index = _FOLDED if ignore_case else _EXACT
        self._ids = self._index.register(self.words)

    def any_in(self, text: str) -> bool:
        """Whether any of the words occurs in ``text``."""
        last_text, last_found = self._index.last  # (the common case, ~100 gates in a row on one text: no call)
        return not self._ids.isdisjoint(last_found if last_text is text else self._index.found(text))

    def __repr__(self) -> str:
        return f"GateWords{self.words!r}"
