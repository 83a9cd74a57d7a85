"""Artifact repositories driven through their REST APIs and CLIs: JFrog Artifactory (``jf``), Sonatype Nexus
(shared by both analyzers, judged on the whole text).

Every build pulls what they serve. What needs a careful reviewer:

* an administrator account created (Nexus's ``nx-admin`` role), or anonymous users given delete or manage rights;
* a remote repository's upstream pointed at a plain-HTTP address (anyone on the path serves every build);
* a published release artifact replaced, with its checksum files rewritten to match;
* a server plugin written that runs commands or sends logins out (Artifactory's Groovy plugins run inside it).

Uploading new versions, retention of snapshots and reading repository settings are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

_REPOSITORY_WORDS = GateWords("nx-admin", "anonymous", "rclass", "/api/repositories/", "release", "plugins")
_ADMIN_ACCOUNT = re.compile(r"/security/users\b[\s\S]{0,400}?nx-admin|nx-admin[\s\S]{0,400}?/security/users\b")
_ANONYMOUS_WRITE = re.compile(r"[\"']anonymous[\"']\s*:\s*\[[^\]]*[\"'](?:delete|manage|write)[\"']")
_PLAIN_HTTP_UPSTREAM = re.compile(
    r"(?:/api/repositories/|[\"']rclass[\"']\s*:\s*[\"']remote)[\s\S]{0,400}?[\"']url[\"']\s*[\]:=]*\s*[\"']http://"
    r"|[\"']url[\"']\]?\s*[=:]\s*[\"']http://[\s\S]{0,400}?/api/repositories/"
)
#: A release repository's path (`maven-releases/`, `libs-release-local/`) and a published package's file.
_RELEASE_REPOSITORY = re.compile(r"-releases?(?:-local)?/|/releases?/")
_PACKAGE_FILE = re.compile(r"\.(?:jar|whl|nupkg|war)\b")
#: Checksum files of their own (`x.jar.sha1`, `for ext in ("sha1", "md5")`), as opposed to checksum headers sent
#: with an upload.
_CHECKSUM_REWRITTEN = re.compile(r"\.(?:sha1|md5)\b(?!\()|[\"']sha1[\"']\s*,\s*[\"']md5[\"']")
_UPLOAD = re.compile(r"\.put\(|--upload-file|-T\s|-X\s*PUT\b")
_PLUGIN_WRITTEN = re.compile(r"/plugins\b[\s\S]{0,200}?[\w-]\.groovy\b")
_PLUGIN_HARM = re.compile(r"\.execute\(\)|Runtime\.getRuntime\(\)|ProcessBuilder|new URL\(|HttpURLConnection")


def repository_text_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to an artifact repository's accounts, upstreams, releases and plugins."""
    if not _REPOSITORY_WORDS.any_in(text):
        return []
    found = []
    if _ADMIN_ACCOUNT.search(text) or _ANONYMOUS_WRITE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "creates an artifact repository administrator, or lets anonymous users delete "
                                   "or overwrite artifacts"))  # fmt: skip
    if _PLAIN_HTTP_UPSTREAM.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "points a remote repository's upstream at a plain-HTTP address (anyone on the "
                                   "path serves every build)"))  # fmt: skip
    released = _RELEASE_REPOSITORY.search(text) is not None and _PACKAGE_FILE.search(text) is not None
    if released and _CHECKSUM_REWRITTEN.search(text) and _UPLOAD.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "replaces a published release artifact and rewrites its checksums (every build "
                                   "that trusts the version gets the new code)"))  # fmt: skip
    if _PLUGIN_WRITTEN.search(text) and _PLUGIN_HARM.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                                   "writes a repository server plugin that runs commands or calls out (it runs inside "
                                   "the server, with every login)"))  # fmt: skip
    return found
