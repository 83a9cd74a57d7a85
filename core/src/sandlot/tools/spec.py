"""What a model is told about a tool: name, description and the JSON Schema of its arguments.

Schemas are JSON Schema (draft 2020-12) objects using only keywords every tool-calling API
accepts (``type``, ``properties``, ``required``, ``description``, ``default``, ``minimum``,
``exclusiveMinimum``, ``minLength``, ``additionalProperties``), so one dict serves as
Anthropic's ``input_schema``, OpenAI's ``parameters`` and MCP's ``inputSchema``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any, Literal

import attrs

#: The declaration shapes :meth:`ToolSpec.schema` produces.
SchemaStyle = Literal["anthropic", "openai", "mcp"]


@attrs.frozen
class ToolSpec:
    """One tool: its declaration and the function that runs it, called as
    ``function(sandbox, **arguments, limits=limits)``."""

    name: str
    description: str
    #: The JSON Schema of the arguments (an object schema); read it, copy it with :meth:`schema`.
    parameters: Mapping[str, Any] = attrs.field(hash=False, repr=False)
    function: Callable[..., str] = attrs.field(hash=False, repr=False)

    def schema(self, style: SchemaStyle = "anthropic") -> dict[str, Any]:
        """This tool's declaration for one API, as a fresh copy the caller may modify.

        ``anthropic``: ``{name, description, input_schema}`` (Messages API ``tools``);
        ``mcp``: ``{name, description, inputSchema}`` (an MCP ``Tool``);
        ``openai``: ``{type: "function", function: {name, description, parameters}}`` (Chat Completions).
        """
        parameters = copy.deepcopy(dict(self.parameters))
        if style == "anthropic":
            return {"name": self.name, "description": self.description, "input_schema": parameters}
        if style == "mcp":
            return {"name": self.name, "description": self.description, "inputSchema": parameters}
        if style == "openai":
            return {
                "type": "function",
                "function": {"name": self.name, "description": self.description, "parameters": parameters},
            }
        raise ValueError(f"unknown schema style {style!r}; use 'anthropic', 'openai' or 'mcp'")


def obj(required: list[str], **properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def string(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **extra}


def integer(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "integer", "description": description, **extra}


def number(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "number", "description": description, **extra}


def boolean(description: str) -> dict[str, Any]:
    return {"type": "boolean", "description": description, "default": False}
