"""Every exception sandlot raises on purpose.

All derive from :class:`SandlotError`, so a caller can catch one type. Each carries a
message written for the person who has to fix the problem: what is wrong, where, and
what to do about it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sandlot.files.model import FileErrorCode
    from sandlot.results import Violation


class SandlotError(Exception):
    """Base class of every error sandlot raises on purpose."""

    #: Process exit status the CLI uses for this error.
    exit_status: int = 1


class ConfigError(SandlotError):
    """The configuration is malformed or invalid (file, key path and expectation in the message)."""

    exit_status = 2


class PluginError(SandlotError):
    """A plugin could not be loaded or declares something invalid."""

    exit_status = 2


class ProviderNotFound(SandlotError):
    """No installed plugin provides the configured provider name."""

    exit_status = 2


class ProviderUnavailable(SandlotError):
    """The provider is installed but cannot run on this machine (reason and fix in the message)."""

    exit_status = 3


class PolicyNotEnforceable(SandlotError):
    """The policy asks for something the provider cannot enforce (fail closed)."""

    exit_status = 3


class SandboxNotFound(SandlotError):
    """No sandbox with the given id exists (attach, delete of unknown ids is not an error)."""


class SandboxError(SandlotError):
    """The sandbox failed to start, died, or its transport broke."""


class SandboxClosed(SandboxError):
    """An operation was attempted on a sandbox that has been closed."""


class FileOperationError(SandlotError):
    """A file operation failed; ``code`` says why (a :class:`~sandlot.files.FileErrorCode`).

    ``violation`` is set when the sandbox's policy blocked the path.
    """

    def __init__(self, code: FileErrorCode, path: str, message: str, violation: Violation | None = None) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.code = code
        self.path = path
        self.reason = message
        self.violation = violation


class RiskBlocked(SandlotError):
    """Code was refused by the risk gate; ``assessment`` holds the findings."""

    exit_status = 4

    def __init__(self, message: str, assessment: object) -> None:
        super().__init__(message)
        self.assessment = assessment
