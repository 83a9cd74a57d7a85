"""sandlot-bwrap: the Linux sandbox provider (bubblewrap)."""

from sandlot_bwrap.options import BwrapOptions, DenyCreated
from sandlot_bwrap.provider import BwrapProvider, BwrapSandbox
from sandlot_bwrap.translate import BwrapPolicy

__all__ = ["BwrapOptions", "BwrapPolicy", "BwrapProvider", "BwrapSandbox", "DenyCreated"]
