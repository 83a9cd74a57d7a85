"""Agent tools over a sandbox, for any framework: bash, ls, glob, grep, read_file, write_file, str_replace.

Each tool is a plain function taking the sandbox first and returning text for the model, with
output limits (:class:`ToolLimits`) and explicit notices when something was cut. :data:`TOOLS`
pairs each with a JSON Schema; :func:`schemas` produces the declarations for Anthropic, OpenAI
or MCP and :func:`call` runs a tool call a model made::

    from sandlot import create_sandbox
    from sandlot.tools import call, schemas

    with create_sandbox() as sandbox:
        declarations = schemas()          # send with the request
        text = call(sandbox, "bash", {"command": "ls -la"})   # for each tool call in the reply
"""

from sandlot.tools.dispatch import acall, call, check_arguments, schemas
from sandlot.tools.functions import bash, glob, grep, ls, read_file, str_replace, write_file
from sandlot.tools.limits import DEFAULT_LIMITS, ToolLimits
from sandlot.tools.output import ErrorText
from sandlot.tools.registry import BY_NAME, READ_ONLY, TOOLS
from sandlot.tools.spec import SchemaStyle, ToolSpec

__all__ = [
    "BY_NAME",
    "DEFAULT_LIMITS",
    "READ_ONLY",
    "TOOLS",
    "ErrorText",
    "SchemaStyle",
    "ToolLimits",
    "ToolSpec",
    "acall",
    "bash",
    "call",
    "check_arguments",
    "glob",
    "grep",
    "ls",
    "read_file",
    "schemas",
    "str_replace",
    "write_file",
]
