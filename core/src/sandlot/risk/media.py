"""Media tools given untrusted files or told to do too much (shared by both analyzers through the shell one:
exiftool, ImageMagick).

Image and document tools run code more often than their names suggest: an exiftool configuration file is Perl,
ImageMagick's ``delegates.xml`` is a table of shell commands. What needs a careful reviewer:

* exiftool run with a configuration file that came with the uploads it reads, or was downloaded;
* every photo of a library or an archive rewritten in place (metadata stripped, ``-overwrite_original``);
* the location of every photo of a library printed (its owner's whereabouts over years), for sending on;
* a canvas of billions of pixels (memory and disk gone), ImageMagick's limits lifted.

Metadata read from the project's own files, thumbnails of a few images and stripped copies are routine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk import paths
from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.shell_words import option_values, options

#: Pixels of a canvas that no machine here holds (10⁹: 4 GB at one byte a channel and four channels).
_HUGE_CANVAS = 1_000_000_000
_GPS_TAGS = re.compile(r"^-?gps", re.IGNORECASE)
#: Tags that say where a photo was taken or whose camera took it (`-gps:all=`, `-xmp:geotag=`, `-SerialNumber=`).
_PRIVACY_TAG = re.compile(r"^-(?:(?:\w+:)?gps[\w:]*|(?:\w+:)?geotag|serialnumber|ownername|make|model|location\w*)=$",
                          re.IGNORECASE)


def exiftool_risks(args: Sequence[str], downloaded: set[str]) -> tuple[list[OperationRisk], bool]:
    """What exiftool ``args`` do; and whether what it prints is private (the places a photo library was taken)."""
    found: list[OperationRisk] = []
    for config in option_values(args, "-config"):
        if paths.untrusted_inbox(config) or config in downloaded:
            found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                       f"exiftool loads a configuration file (Perl code) from {config}"))
    _, operands = options(args)
    trees = [o for o in operands if not o.startswith("-")]
    recursive = "-r" in args or "-recurse" in args  # (exiftool's options are words: -overwrite_original)
    kinds = [paths.classify(t).kind for t in trees]
    foreign = [t for t, k in zip(trees, kinds, strict=True)
               if k not in (paths.PathKind.RELATIVE, paths.PathKind.WORKDIR, paths.PathKind.TEMP)]  # fmt: skip
    in_place = "-overwrite_original" in args or "-overwrite_original_in_place" in args
    cleared = [a for a in args if a.startswith("-") and a.endswith("=")]
    # (only where a photo was taken and whose camera took it cleared: a redaction before publishing, not a rewrite)
    redacted = bool(cleared) and all(_PRIVACY_TAG.match(a) for a in cleared)
    if in_place and recursive and foreign and cleared and not redacted:
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   f"exiftool rewrites every file under {foreign[0]} in place (no originals kept)"))
    located = any(_GPS_TAGS.match(a) for a in args) and recursive and any(paths.personal_media(t) for t in foreign)
    return found, located


def huge_canvas(args: Sequence[str]) -> bool:
    """ImageMagick ``args`` make a canvas of a billion pixels or more (``-size 200000x200000 xc:white``)."""
    for size in option_values(args, "-size"):
        match = re.fullmatch(r"(\d+)x(\d+)", size)
        if match and int(match[1]) * int(match[2]) >= _HUGE_CANVAS:
            return True
    return False
