"""Calling a tool by name with the arguments a model produced, checked against its schema first.

Arguments come from a model, so anything wrong with them is reported to the model as text it
can act on, never raised.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Collection, Mapping
from typing import Any

from sandlot.sandbox import Sandbox
from sandlot.tools.limits import DEFAULT_LIMITS, ToolLimits
from sandlot.tools.output import error
from sandlot.tools.registry import BY_NAME, TOOLS
from sandlot.tools.spec import SchemaStyle, ToolSpec

_TYPES = {"string": "a string", "integer": "an integer", "number": "a number", "boolean": "true or false"}


def _chosen(tools: Collection[str] | None) -> tuple[ToolSpec, ...]:
    if tools is None:
        return TOOLS
    if isinstance(tools, str):
        raise TypeError("tools must be a collection of tool names, not one string")
    unknown = sorted(set(tools) - BY_NAME.keys())
    if unknown:
        raise ValueError(f"unknown tools {unknown}; the tools are {sorted(BY_NAME)}")
    return tuple(spec for spec in TOOLS if spec.name in tools)


def schemas(style: SchemaStyle = "anthropic", *, tools: Collection[str] | None = None) -> list[dict[str, Any]]:
    """The declarations of the tools (all, or those named in ``tools``), ready to send to a model API.

    ``anthropic`` (default): ``{name, description, input_schema}``; ``mcp``: ``{name, description,
    inputSchema}``; ``openai``: ``{type: "function", function: {name, description, parameters}}``.
    """
    return [spec.schema(style) for spec in _chosen(tools)]


def _coerce(name: str, value: Any, schema: Mapping[str, Any]) -> tuple[Any, str | None]:
    """``value`` as the schema's type wants it, or why it is not."""
    kind = schema["type"]
    ok = False
    if kind == "string":
        ok = isinstance(value, str)
    elif kind == "boolean":
        ok = isinstance(value, bool)
    elif kind in ("integer", "number") and isinstance(value, int | float) and not isinstance(value, bool):
        # JSON has one number type: 5.0 is an integer to JSON Schema, and some models send it so.
        if kind == "integer" and isinstance(value, float) and value.is_integer():
            value = int(value)
        ok = kind == "number" or isinstance(value, int)
    if not ok:
        return value, f"{name} must be {_TYPES[kind]}, got {json.dumps(value, default=repr)}"
    if "minLength" in schema and len(value) < schema["minLength"]:
        return value, f"{name} must not be empty"
    if "minimum" in schema and value < schema["minimum"]:
        return value, f"{name} must be >= {schema['minimum']}, got {value}"
    if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
        return value, f"{name} must be > {schema['exclusiveMinimum']}, got {value}"
    return value, None


def check_arguments(spec: ToolSpec, arguments: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The arguments to pass to the tool's function, and the problems found (empty when none).

    A ``null`` for an optional argument counts as leaving it out: several models send one.
    """
    properties: Mapping[str, Any] = spec.parameters["properties"]
    required = spec.parameters["required"]
    problems = [f"missing required argument {key!r}" for key in required if arguments.get(key) is None]
    unknown = sorted(str(key) for key in arguments if key not in properties)
    if unknown:
        problems.append(f"unknown argument(s) {', '.join(map(repr, unknown))}; it takes {', '.join(properties)}")
    checked = {}
    for key, value in arguments.items():
        if key not in properties or value is None:
            continue
        value, problem = _coerce(key, value, properties[key])
        if problem is not None:
            problems.append(problem)
        checked[key] = value
    return checked, problems


def call(
    sb: Sandbox,
    name: str,
    arguments: Mapping[str, Any] | str,
    *,
    limits: ToolLimits = DEFAULT_LIMITS,
    tools: Collection[str] | None = None,
) -> str:
    """Run the tool ``name`` with the model's ``arguments`` (a mapping, or the JSON text of one,
    as OpenAI sends it) and return the text to give back to the model.

    An unknown tool (or one not in ``tools``, the set offered to the model) and arguments that
    do not fit the schema give an :class:`ErrorText` naming the problem; the tool runs only with
    valid arguments.
    """
    offered = _chosen(tools)
    spec = next((s for s in offered if s.name == name), None)
    if spec is None:
        return error("unknown_tool", f"there is no tool {name!r}; the tools are {', '.join(s.name for s in offered)}")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments or "{}")
        except json.JSONDecodeError as exc:
            return error("invalid_arguments", f"{name}: the arguments are not valid JSON ({exc})")
    if not isinstance(arguments, Mapping):
        kind = type(arguments).__name__
        return error("invalid_arguments", f"{name}: the arguments must be a JSON object, got {kind}")
    checked, problems = check_arguments(spec, arguments)
    if problems:
        return error("invalid_arguments", f"{name}: " + "; ".join(problems))
    return spec.function(sb, **checked, limits=limits)


async def acall(
    sb: Sandbox,
    name: str,
    arguments: Mapping[str, Any] | str,
    *,
    limits: ToolLimits = DEFAULT_LIMITS,
    tools: Collection[str] | None = None,
) -> str:
    """:func:`call` for asyncio programs (runs it in a worker thread, as the sandbox's own async methods do)."""
    return await asyncio.to_thread(call, sb, name, arguments, limits=limits, tools=tools)
