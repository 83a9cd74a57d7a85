""".NET's package feeds and ASP.NET's serialized state (shared by both analyzers, judged on the whole text).

NuGet packages carry build targets that run in every build of the projects using them, so where a machine takes
packages from, and whether it checks their signatures, decides whose code its builds run. What needs a careful
reviewer:

* a NuGet configuration that accepts unsigned packages or takes them from a plain-HTTP or bare-address feed;
* a deserialization gadget built with ysoserial(.net) and posted (a forged ``__VIEWSTATE`` runs code on the site).

Adding the organisation's own HTTPS feed and restoring packages are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.model import Category, RiskLevel

#: Signature checks relaxed, or plain HTTP allowed, in a NuGet configuration.
_UNCHECKED_FEED = re.compile(
    r"signatureValidationMode[\"']?\s*,?\s*(?:value\s*=\s*)?[\"']accept[\"']|allowInsecureConnections\s*=\s*[\"']true"
    r"|(?:<add\b[^>]*|[\"']add[\"'][^\n]*)\bvalue\s*=\s*[\"']http://(?!localhost|127\.)[^\"']+[\"']",
    re.IGNORECASE,
)
_NUGET_CONFIG = re.compile(r"nuget\.config|NuGet\.Config|packageSources", re.IGNORECASE)
#: A gadget chain built with ysoserial (Java's or .NET's) and sent to a site.
_GADGET_SENT = re.compile(
    r"\bysoserial(?:\.exe|\.jar)?\b[\s\S]{0,800}?(?:__VIEWSTATE|\bcurl\b|requests\.post|\.post\()"
)


def dotnet_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to where .NET builds take their packages from, and to ASP.NET sites."""
    found = []
    if ("accept" in text or "http://" in text or "nsecure" in text) and _NUGET_CONFIG.search(text) and (
        _UNCHECKED_FEED.search(text)
    ):
        what = ("makes NuGet accept unsigned packages or take them over plain HTTP (their build targets run in "
                "every build)")
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    if "ysoserial" in text and _GADGET_SENT.search(text):
        what = "builds a deserialization gadget with ysoserial and sends it to a site (it runs the command there)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DESERIALIZATION, what))
    return found
