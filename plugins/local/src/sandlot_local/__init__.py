"""sandlot-local: run commands on the host, with no isolation (explicit opt-in only)."""

from sandlot_local.provider import LocalOptions, LocalProvider

__all__ = ["LocalOptions", "LocalProvider"]
