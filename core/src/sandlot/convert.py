"""The cattrs converter for configuration, with strict scalar types and readable errors."""

from __future__ import annotations

import enum
from typing import Any, TypeVar

import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError

from sandlot.errors import ConfigError

T = TypeVar("T")


_ACCEPTED: dict[type, tuple[type, ...]] = {bool: (bool,), int: (int,), float: (int, float), str: (str,)}


def _scalar(value: Any, target: type) -> Any:
    """Strict scalars: "5" is not an int, 1 is not a bool, 1.5 is not an int."""
    if isinstance(target, type) and issubclass(target, enum.Enum):
        return _enum(value, target)
    base = next(kind for kind in _ACCEPTED if issubclass(target, kind))
    if not isinstance(value, _ACCEPTED[base]) or (base is not bool and isinstance(value, bool)):
        raise TypeError(f"expected {base.__name__}, got {type(value).__name__} {value!r}")
    return base(value)


def _string_list(value: Any, _: type) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        raise TypeError(f"expected a list of strings, got {type(value).__name__} {value!r}")
    bad = [item for item in value if not isinstance(item, str)]
    if bad:
        raise TypeError(f"expected a list of strings, found {bad[0]!r}")
    return tuple(value)


def _enum(value: Any, cls: type[enum.Enum]) -> Any:
    try:
        return cls(value)
    except ValueError:
        choices = ", ".join(repr(m.value) for m in cls)
        raise ValueError(f"expected one of {choices}, got {value!r}") from None


def make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True)
    # Class hooks win over predicate hooks in cattrs and match subclasses, so str-based
    # enums arrive at the str hook: _scalar routes them.
    for kind in _ACCEPTED:
        conv.register_structure_hook(kind, _scalar)
    conv.register_structure_hook(enum.Enum, _scalar)
    conv.register_structure_hook_func(lambda t: t == tuple[str, ...], _string_list)
    conv.register_unstructure_hook_func(lambda t: isinstance(t, type) and issubclass(t, enum.Enum), lambda v: v.value)
    return conv


converter = make_converter()


def _messages(exc: BaseException, path: str) -> list[str]:
    """Flatten cattrs' exception groups into "key.path: what was expected" lines."""
    if isinstance(exc, ForbiddenExtraKeysError):
        keys = ", ".join(sorted(exc.extra_fields))
        allowed = ", ".join(a.name for a in getattr(exc.cl, "__attrs_attrs__", ()))
        where = f"{path}: " if path else ""
        return [f"{where}unknown key(s) {keys} (allowed: {allowed})"]
    if isinstance(exc, ClassValidationError | IterableValidationError):
        with_notes, others = exc.group_exceptions()
        lines = []
        for inner, note in with_notes:
            name = getattr(note, "name", None)
            index = getattr(note, "index", None)
            sub = (f"{path}.{name}" if path else str(name)) if name is not None else f"{path}[{index}]"
            lines.extend(_messages(inner, sub))
        for inner in others:
            lines.extend(_messages(inner, path))
        return lines
    if isinstance(exc, KeyError):
        return [f"{path}: missing required key {exc}"]
    message = str(exc)
    if isinstance(exc, TypeError) and not message.startswith("expected"):
        message = f"wrong type ({message})"
    return [f"{path}: {message}" if path else message]


def structure(data: Any, cls: type[T], *, source: str, prefix: str = "") -> T:
    """Structure ``data`` into ``cls``; any problem becomes one ConfigError naming ``source`` and keys."""
    if not isinstance(data, dict):
        where = f" at {prefix}" if prefix else ""
        raise ConfigError(f"{source}: expected a table{where}, got {type(data).__name__}")
    try:
        return converter.structure(data, cls)
    except Exception as exc:
        lines = _messages(exc, prefix)
        detail = "\n  ".join(lines)
        raise ConfigError(f"{source}: invalid configuration:\n  {detail}") from None
