"""How much each tool may return: the model's context is the scarce resource, not the sandbox."""

from __future__ import annotations

from typing import Any

import attrs


def _positive(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"ToolLimits.{attribute.name} must be an integer >= 1, got {value!r}")


def _positive_seconds(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float) or value <= 0):
        raise ValueError(f"ToolLimits.{attribute.name} must be None or a number of seconds > 0, got {value!r}")


@attrs.frozen
class ToolLimits:
    """Output limits of the tools; whatever goes past one is dropped with a notice saying so.

    Character limits count characters of the returned text (not bytes); the notices come on top.
    """

    #: ``bash``: the output is cut to this many characters, keeping the head and the tail.
    bash_chars: int = attrs.field(default=20_000, validator=_positive)
    #: ``bash``: a ``timeout`` the model asks for is capped at this many seconds (None: no cap).
    #: Without one, a command gets the sandbox policy's ``limits.timeout``.
    bash_max_timeout: float | None = attrs.field(default=600.0, validator=_positive_seconds)
    #: ``read_file``: characters of numbered lines per call.
    read_file_chars: int = attrs.field(default=50_000, validator=_positive)
    #: ``read_file``: lines per call when the model gives no ``limit``.
    read_file_lines: int = attrs.field(default=2_000, validator=_positive)
    #: ``read_file`` and ``grep``: longer lines are cut here, with a marker.
    line_chars: int = attrs.field(default=2_000, validator=_positive)
    #: ``ls``: characters of the listing.
    ls_chars: int = attrs.field(default=20_000, validator=_positive)
    #: ``glob``: paths listed.
    glob_results: int = attrs.field(default=200, validator=_positive)
    #: ``grep``: matching lines listed.
    grep_results: int = attrs.field(default=100, validator=_positive)


DEFAULT_LIMITS = ToolLimits()
