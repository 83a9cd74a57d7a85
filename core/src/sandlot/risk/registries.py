"""Package registries and their mirrors: npm, PyPI, crates.io, Maven repositories, Nexus, Artifactory,
Verdaccio, devpi, Go proxies (shared by both analyzers).

A registry is what every build of an organisation installs from, so what needs a careful reviewer is what
changes what others install or take away from them:

* every version of a published package unpublished or yanked (every build depending on it breaks);
* a package published in an endless loop, or the organisation's internal code published to a public registry;
* a published artifact replaced in the registry's storage and its recorded checksum rewritten to match;
* a registry's repositories or blob store deleted, anonymous users allowed to publish or made administrators;
* Go modules fetched with checksum verification off;
* an install script that reports the installing machine to an outside host (a dependency-confusion beacon);
* every project of a public index mirrored without a limit.

Publishing one's own release, yanking one version, a registry's own clean-up task and a private test registry
on localhost are routine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: Command-line tools whose registry commands :func:`registry_command` reads.
REGISTRY_TOOLS = frozenset({"npm", "pnpm", "cargo", "twine", "poetry", "flit"})

#: The public registries' upload addresses (what `twine upload`, `npm publish` use unless told otherwise).
_PUBLIC_REGISTRY = re.compile(r"upload\.pypi\.org|registry\.npmjs\.org|crates\.io|repo1\.maven\.org", re.IGNORECASE)
#: A package or a path named as the organisation's own, not for the public.
_INTERNAL_NAME = re.compile(r"(?:^|[/@_.-])(?:internal|private|proprietary|confidential)(?:$|[/_.-])", re.IGNORECASE)


def registry_command(name: str, args: Sequence[str], *, repeated: bool, endless: bool) -> OperationRisk | None:
    """The risk of one registry command line (``repeated``: run for each item of a loop or listing;
    ``endless``: inside a loop that never ends)."""
    verb = args[0] if args else ""
    operands = [a for a in args[1:] if not a.startswith("-")]
    if name in ("npm", "pnpm") and verb == "unpublish":
        whole = any(not re.search(r".@[^/@]+$", o) for o in operands) and "--force" in args
        if whole or repeated:
            what = f"{name} unpublishes every version of a published package (every build depending on it breaks)"
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)
        return OperationRisk(RiskLevel.MEDIUM, Category.FILESYSTEM, f"{name} unpublishes a version of a package")
    if name == "cargo" and verb == "yank" and "--undo" not in args:
        if repeated:
            what = "cargo yanks every version of a published crate (new builds can no longer resolve it)"
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)
        return OperationRisk(RiskLevel.MEDIUM, Category.FILESYSTEM, "cargo yanks a version of a crate")
    publishes = (name in ("npm", "pnpm", "cargo", "poetry", "flit") and verb == "publish") or (
        name == "twine" and verb == "upload"
    )
    if publishes and endless:
        what = f"{name} publishes a new version in an endless loop (floods the registry and everyone's updates)"
        return OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what)
    if publishes and any(_INTERNAL_NAME.search(o) for o in operands):
        public = any(_PUBLIC_REGISTRY.search(a) for a in args) or not any(
            a.startswith(("--registry", "--repository", "-r")) for a in args
        )
        if public:
            what = f"{name} publishes the organisation's internal code to a public registry"
            return OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)
    return None


#: Verdaccio's package rules letting anyone (``$anonymous``, ``$all``) publish or unpublish.
_ANYONE_PUBLISHES = re.compile(
    r"[\"']?(?:un)?publish[\"']?\s*[:=]\s*[\"']?[^\"'\n]*\$(?:anonymous|all)\b"
    # devpi's index opened to anonymous uploads
    r"|\bacl_upload=[^\s\"']*:ANONYMOUS:"
)
#: Every publication, snapshot or local repository of an aptly mirror dropped over a listing.
_APTLY_DROPS = re.compile(r"\baptly\s+(?:publish|snapshot|repo|mirror)\s+drop\b")
#: A package of the private index pushed to the public one (`devpi push pkg==1.0 pypi:pypi`).
_PUSHED_PUBLIC = re.compile(r"\bdevpi\s+push\b[^\n]*\bpypi:pypi\b")
#: Artifactory users made administrators; Nexus' anonymous user given the administrator role.
_REGISTRY_ADMIN = re.compile(
    r"/api/security/users/[\s\S]{0,400}[\"']admin[\"']\s*:\s*(?:true|True)"
    r"|[\"']admin[\"']\s*:\s*(?:true|True)[\s\S]{0,400}/api/security/users/"
    r"|security/(?:users/)?anonymous[\s\S]{0,600}nx-admin|nx-admin[\s\S]{0,600}security/(?:users/)?anonymous"
)
#: A registry's repositories deleted through its API (Artifactory, Nexus).
_REPOSITORY_DELETE = re.compile(
    r"(?:-X\s*DELETE|\.delete\()[^\n]*/(?:api/repositories|service/rest/v1/repositories)/"
    r"|/(?:api/repositories|service/rest/v1/repositories)/[^\n]*(?:-X\s*DELETE|method=[\"']DELETE)"
)
#: Go's module checksums switched off, or modules fetched from any host without TLS.
_GO_UNVERIFIED = re.compile(
    r"\bGOSUMDB=[\"']?off\b|\bGONOSUMDB=[\"']?\*|\bGOINSECURE=[\"']?\*|\bGOFLAGS=[\"']?[^\n\"']*-insecure\b"
    r"|\bGOPROXY=[\"']?http://(?!localhost|127\.)"
)
_GO_FETCH = re.compile(r"\bgo\s+(?:get|install|mod\s+(?:download|tidy)|build)\b")
#: A registry's storage on disk (its artifacts and their metadata).
_REGISTRY_STORE = re.compile(
    r"verdaccio/storage|devpi/\+files|devpi/[\w-]+/[\w-]+/\+f|nexus[\w-]*/blobs|nexus-blobs|sonatype-work"
    r"|artifactory/data/filestore|/\+files/",
    re.IGNORECASE,
)
_STORE_WORDS = GateWords("verdaccio", "devpi", "nexus", "sonatype", "artifactory", "+files")
_CHECKSUM_REWRITE = re.compile(r"\b(?:shasum|integrity|sha256|sha1|sha512|md5)\b[\"'\]]*\s*[=:]")
_DELETES = re.compile(r"os\.remove\(|os\.unlink\(|\.unlink\(|rmtree\(|\brm\s+-|-delete\b")
#: A released artifact uploaded by hand together with its checksum file (the released one overwritten).
_UPLOADS = re.compile(r"(?:--upload-file|-T)\s")
_RELEASES_REPOSITORY = re.compile(r"/repository/[\w-]*releases?[\w-]*/|/[\w-]+-release-local/")
_CHECKSUM_FILE = re.compile(r"\.(?:sha1|sha256|sha512|md5)\b")
#: npm lifecycle scripts that run on every install of the package.
_INSTALL_HOOK = re.compile(r"[\"'](?:pre|post)?install[\"']\s*:\s*[\"'](?P<script>(?:\\.|[^\"\\])*)")
#: What :data:`_INSTALL_HOOK` cannot match without (a quoted `install` key: `"postinstall":`).
_INSTALL_HOOK_WORDS = GateWords('install"', "install'")
_MACHINE_DETAILS = re.compile(r"hostname|userInfo|whoami|homedir|process\.env|\$USER|\$HOME|cwd\(\)")
_SENDS_OUT = re.compile(r"https?://|\bcurl\b|\bwget\b|\bnslookup\b|\bdig\b|\.get\(|\.request\(")
#: Every project of a public package index walked and downloaded.
_EVERY_PROJECT = re.compile(r"pypi\.org/simple/?[\"'][\s\S]*\[[\"']projects[\"']\][\s\S]*releases", re.IGNORECASE)


#: A build fetched from a bare address (not the organisation's CI or registry)...
_BARE_FETCH = re.compile(r"(?:\.get\(|urlretrieve\(|urlopen\(|\bcurl\b[^\n]*|\bwget\b[^\n]*)\s*\(?[\"']?\w+://"
                         r"(\d{1,3}(?:\.\d{1,3}){3})[:/]")  # fmt: skip
#: ...and published: to an app store's track, a package index, a release.
_PUBLISHES = re.compile(r"\.bundles\(\)\.upload\(|\.apks\(\)\.upload\(|\btwine[\"',\s]+upload\b|\bnpm[\"',\s]+publish\b"
                        r"|\bgh\s+release\s+(?:create|upload)\b|\bxcrun\s+altool\b[^\n]*--upload|upload_to_(?:app_store|play_store)"
                        r"|\bfastlane\s+(?:supply|deliver|pilot)\b")  # fmt: skip
#: A word each alternative of :data:`_PUBLISHES` spells.
_PUBLISH_WORDS = GateWords("upload", "publish", "release", "altool", "fastlane")


#: The classifier PyPI refuses uploads with, taken out (`re.sub`, `sed`, `.replace`) before an upload.
_UPLOAD_GUARD_REMOVED = re.compile(r"(?:re\.sub\(|\.replace\(|\bsed\b)[^\n]*Private\s*::\s*Do\s+Not\s+Upload")
_PUBLIC_UPLOAD = re.compile(
    r"\btwine\b[\s\S]{0,80}?\bupload\b|upload\.pypi\.org|\b(?:poetry|uv|flit|hatch)\b[^\n]*\bpublish\b"
)


#: Container registries (Harbor): a system administrator made, every repository replicated to a bare outside
#: address, retention that keeps nothing, every project made public.
_SYSADMIN_FLAG = re.compile(r"[\"']?sysadmin_flag[\"']?\s*:\s*(?:True|true)\b")
_REMOTE_REGISTRY = re.compile(r"/registries\b[\s\S]{0,300}?[\"']url[\"']\s*:\s*[\"']https?://(\d{1,3}(?:\.\d{1,3}){3})")
_KEEPS_NOTHING = re.compile(r"[\"']?latest(?:Pushed|Pulled|Active)[KN][\"']?\s*:\s*0\b")
_PROJECT_PUBLIC = re.compile(r"/projects/[\s\S]{0,200}?[\"']public[\"']\s*:\s*[\"']?true")

#: Words of Harbor's API without one of which container_registry_risks finds nothing.
_HARBOR_WORDS = GateWords("sysadmin_flag", "/registries", "latestP", "latestA", "public")


def container_registry_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a container registry through Harbor's API."""
    if not _HARBOR_WORDS.any_in(text):
        return []
    found = []
    if _SYSADMIN_FLAG.search(text):
        what = "makes a user a system administrator of the container registry (every project and image)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    remote = [ip for ip in _REMOTE_REGISTRY.findall(text) if outside_address(ip)]
    if remote and "replication" in text:
        what = f"replicates the registry's repositories to a registry at a bare outside address ({remote[0]})"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _KEEPS_NOTHING.search(text):
        what = "sets a retention policy that keeps no image (every tag of the repositories it covers is deleted)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _PROJECT_PUBLIC.search(text) and each_item(text):
        what = "makes every project of the container registry public (anyone pulls the images)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    return found


def registry_text_risks(text: str) -> list[OperationRisk]:
    """Registries opened to anyone, their repositories or stores deleted, published artifacts swapped, Go's
    checksums off, install scripts that beacon, public indexes mirrored whole (judged on the whole text)."""
    found = []
    if ("publish" in text or "acl_upload" in text) and _ANYONE_PUBLISHES.search(text):
        what = "lets anyone publish or unpublish packages on the organisation's registry"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if ("admin" in text) and _REGISTRY_ADMIN.search(text):
        what = "makes a user (or anyone) an administrator of a package registry"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "aptly" in text and _APTLY_DROPS.search(text) and each_item(text):
        what = "drops every publication, snapshot or repository of an apt mirror (the machines that install from it)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if "devpi" in text and _PUSHED_PUBLIC.search(text):
        what = "pushes a package of the private index to public PyPI (its code goes public)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if "repositories/" in text and _REPOSITORY_DELETE.search(text):
        what = "deletes repositories of a package registry (every artifact in them)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if "GO" in text and _GO_UNVERIFIED.search(text) and _GO_FETCH.search(text):
        what = "fetches Go modules with checksum verification off (or from a plain-HTTP proxy)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    store = _STORE_WORDS.any_in(text) and _REGISTRY_STORE.search(text)
    if store and _CHECKSUM_REWRITE.search(text):
        what = "replaces a published package in the registry's storage and rewrites its recorded checksum"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    elif store and _DELETES.search(text):
        what = "deletes files of a package registry's store behind its back (its index points at missing artifacts)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if (
        ("upload-file" in text or "-T " in text)
        and _UPLOADS.search(text)
        and _RELEASES_REPOSITORY.search(text)
        and len(_UPLOADS.findall(text)) >= 2
        and _CHECKSUM_FILE.search(text)
    ):
        what = "overwrites a released artifact and its checksum in a repository by hand"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    if _INSTALL_HOOK_WORDS.any_in(text) and any(
        _MACHINE_DETAILS.search(m["script"]) and _SENDS_OUT.search(m["script"]) for m in _INSTALL_HOOK.finditer(text)
    ):
        what = "writes an install script that reports the installing machine to an outside host (a beacon)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if "Do Not Upload" in text and _UPLOAD_GUARD_REMOVED.search(text) and _PUBLIC_UPLOAD.search(text):
        what = "removes the classifier that keeps a private package off PyPI, then uploads it (the code goes public)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    # (publishing tested first: _BARE_FETCH retries its address at every character after each curl or wget)
    publishes = "://" in text and _PUBLISH_WORDS.any_in(text) and _PUBLISHES.search(text) is not None
    fetched = [a for a in _BARE_FETCH.findall(text) if outside_address(a)] if publishes else []
    if fetched:
        what = f"publishes a build downloaded from a bare outside address ({fetched[0]}) to users or a package index"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    if "projects" in text and _EVERY_PROJECT.search(text):
        what = "downloads every release of every project of a public package index (no limit: terabytes)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    return found + container_registry_risks(text)
