"""sandlot: run untrusted commands and code for AI agents in a sandbox chosen by configuration.

Quick start::

    from sandlot import Sandlot

    with Sandlot().create() as sandbox:
        result = sandbox.exec("python3 -c 'print(6*7)'")
        print(result.exit_code, result.stdout)
"""

from sandlot.api import Sandlot, create_sandbox
from sandlot.config import Config, Enforcement, LoadedConfig, load_config
from sandlot.errors import (
    ConfigError,
    FileOperationError,
    PluginError,
    PolicyNotEnforceable,
    ProviderNotFound,
    ProviderUnavailable,
    RiskBlocked,
    SandboxClosed,
    SandboxError,
    SandboxNotFound,
    SandlotError,
)
from sandlot.files import FileErrorCode, FileInfo, GrepMatch, Mount, TransferResult
from sandlot.policy import (
    Capability,
    EnvironmentPolicy,
    FilesystemPolicy,
    Limits,
    NetworkMode,
    NetworkPolicy,
    Policy,
)
from sandlot.provider import Feature, Provider, ProviderType, SandboxSpec
from sandlot.results import ExecResult, OutputChunk, Truncation, Violation, ViolationKind
from sandlot.sandbox import POLICY_TIMEOUT, Sandbox, Timeout

__all__ = [
    "POLICY_TIMEOUT",
    "Capability",
    "Config",
    "ConfigError",
    "Enforcement",
    "EnvironmentPolicy",
    "ExecResult",
    "Feature",
    "FileErrorCode",
    "FileInfo",
    "FileOperationError",
    "FilesystemPolicy",
    "GrepMatch",
    "Limits",
    "LoadedConfig",
    "Mount",
    "NetworkMode",
    "NetworkPolicy",
    "OutputChunk",
    "PluginError",
    "Policy",
    "PolicyNotEnforceable",
    "Provider",
    "ProviderNotFound",
    "ProviderType",
    "ProviderUnavailable",
    "RiskBlocked",
    "Sandbox",
    "SandboxClosed",
    "SandboxError",
    "SandboxNotFound",
    "SandboxSpec",
    "Sandlot",
    "SandlotError",
    "Timeout",
    "TransferResult",
    "Truncation",
    "Violation",
    "ViolationKind",
    "create_sandbox",
    "load_config",
]
