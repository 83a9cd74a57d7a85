"""Where data sent over the network ends up, judged by the host alone.

Two kinds of host say who will read what is sent to them, whatever the request looks like:

* a *personal* host (a dynamic-DNS name, a tunnel) is someone's own machine, not the organisation's;
* a *public drop* (a request catcher, an anonymous file host, a paste site, an out-of-band interaction
  server) keeps what it receives for whoever holds the link: nothing an organisation runs its own data
  through. Data read at run time and sent there has left.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Dynamic-DNS and tunnel hosts: a machine of the person running the command, not the organisation's.
_PERSONAL_HOST = re.compile(
    r"\.(?:duckdns\.org|no-ip\.(?:org|com|biz|info)|ddns\.net|dynu\.(?:com|net)|hopto\.org|zapto\.org"
    r"|sytes\.net|servebeer\.com|myftp\.(?:org|biz)|freedns\.afraid\.org|ngrok(?:-free)?\.(?:io|app|dev)"
    r"|trycloudflare\.com|serveo\.net|dyndns(?:-[\w]+)?\.(?:org|net|com|info)|dynalias\.\w+|homeip\.net"
    r"|mooo\.com|changeip\.com)\b"
    # a host named as someone's home machine (`home.kmarsh-dev.xyz`, `jake-home.duckdns…`)
    r"|@home\.[\w-]+\.\w+|@[\w-]+-home\.[\w.-]+",
    re.IGNORECASE,
)

#: Request catchers and out-of-band (OAST) interaction servers: they exist to record who called and with what.
_BEACONS = frozenset(
    {"webhook.site", "pipedream.net", "requestbin.com", "requestbin.net", "requestbin.io", "requestcatcher.com",
     "beeceptor.com", "hookbin.com", "postb.in", "ptsv2.com", "ptsv3.com", "requestinspector.com", "mockbin.org",
     "requestrepo.com", "webhook.cool", "typedwebhook.tools", "httpdump.app", "interact.sh", "oast.pro",
     "oast.live", "oast.site", "oast.online", "oast.fun", "oast.me", "oastify.com", "burpcollaborator.net",
     "dnslog.cn", "ceye.io"}
)  # fmt: skip
#: Anonymous file hosts and paste sites.
_FILE_DROPS = frozenset(
    {"transfer.sh", "file.io", "0x0.st", "tmpfiles.org", "bashupload.com", "oshi.at", "gofile.io", "catbox.moe",
     "temp.sh", "keep.sh", "anonfiles.com", "uguu.se", "pixeldrain.com", "filebin.net", "send.cm", "tempfile.org",
     "tempfile.io", "pastebin.com", "paste.ee", "hastebin.com", "termbin.com", "ix.io", "sprunge.us", "paste.rs",
     "dpaste.com", "dpaste.org", "rentry.co", "rentry.org", "ghostbin.com", "ghostbin.co", "clbin.com",
     "paste.c-net.org", "jsonbin.io"}
)  # fmt: skip
_PUBLIC_DROPS = _BEACONS | _FILE_DROPS
#: A host name (two labels or more) and what may stand right before one: a user, a space, a quote, ``=``.
_HOST = re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+")  # `_` too: labels a script spells (`HF_TOKEN.x.oast…`)
_HOST_EDGE = frozenset("@ \t\n\"'=")
_HOST_END = frozenset("/:?#\"' \t\n")


#: API paths that subscribe a URL to a platform's events (webhooks, subscriptions, notification targets).
SUBSCRIPTION_URL = re.compile(r"webhook|subscription|/hooks\b|notification|event_?destination", re.IGNORECASE)


def personal_host(text: str) -> bool:
    """``text`` names a host on a dynamic-DNS or tunnel service (someone's home machine)."""
    return bool(_PERSONAL_HOST.search(text))


#: A cloud account or bucket that by its name is someone's own (``--profile personal``,
#: ``s3://jake-personal-archive``), not the organisation's.
_PERSONAL_ACCOUNT = re.compile(
    r"profile(?:_name)?[\"']?\s*[=:\s]\s*[\"']?(?:personal|home|me)\b|(?:s3|gs)://[\w.-]*personal"
    r"|Bucket[\"']?\s*[=:]\s*[\"'][\w.-]*personal"
    # a file host's folder named as someone's own (`dbx.files_upload(data, "/personal/x.zip")`)
    r"|[\"']/personal/"
    # a storage client kept in a variable named as someone's own (`personal = dropbox.Dropbox(…)`)
    r"|\bpersonal\w*\s*=\s*[\w.]+\.(?:Dropbox|Client|client|BlobServiceClient)\("
    # a client logged in with someone's own keys (`aws_access_key_id=os.environ["PERSONAL_AK"]`)
    r"|(?:environ\[|environ\.get\(|getenv\()[\"'](?:PERSONAL|MY)_\w*",
    re.IGNORECASE,
)


def personal_account(text: str) -> bool:
    """``text`` sends to a cloud account or bucket named as someone's personal one."""
    return ("profile" in text or "ersonal" in text or "ERSONAL" in text or "MY_" in text) and bool(
        _PERSONAL_ACCOUNT.search(text)
    )


def loopback_url(url: str) -> bool:
    """``url`` addresses this machine (``http://localhost:8000/…``, ``127.0.0.1``): a local dev server's."""
    return _LOOPBACK_URL.match(url) is not None


def delete_endpoint(url: str) -> bool:
    """``url`` is a web API's delete endpoint, called with a POST (`/deletePad`, `/invoices/delete`, Jenkins's
    `/doDelete`)."""
    return _DELETE_ENDPOINT.search(url.split("?", 1)[0]) is not None


_DELETE_ENDPOINT = re.compile(r"/(?:do)?(?:[Dd]elete|[Rr]emove|[Dd]estroy|[Pp]urge)(?:[A-Z_-]\w*)?/?$"
                              r"|/(?:bulk|batch|mass)[-_]?(?:delete|remove|destroy)/?$")
_LOOPBACK_URL = re.compile(r"^(?:https?://)?(?:localhost|127\.[\d.]+|\[::1\])(?:[:/]|$)")


#: A write to /etc/hosts (a redirect, tee, open(…) or a name bound to the path and written).
_HOSTS_WRITE = re.compile(r">>?\s*/etc/hosts\b|\btee\s+(?:-a\s+)?/etc/hosts\b|[\"']/etc/hosts[\"'][\s\S]*\.write\(")
_IPV4 = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})(?![\d.])")


def hosts_file_hijack(code: str) -> str | None:
    """The outside address ``code`` pins names to in /etc/hosts (every connection to them goes there)."""
    if "/etc/hosts" not in code or not _HOSTS_WRITE.search(code):
        return None
    return next((ip for ip in _IPV4.findall(code) if outside_address(ip)), None)


def creates_public_hub_repo(code: str) -> bool:
    """``code`` creates a Hugging Face Hub repository that everyone can read (``create_repo(…)`` and ``repo
    create`` make public ones unless told ``private=True`` or ``--private``)."""
    return "create" in code and _PUBLIC_HUB_REPO.search(code) is not None


_PUBLIC_HUB_REPO = re.compile(
    r"\bcreate_repo\((?![^)]*\bprivate\s*=\s*True)|\b(?:huggingface-cli|hf)\s+repo\s+create\b(?![^\n]*--private)"
)


def private_address(host: str) -> bool:
    """One address of a private or loopback network (not a range, not a name that resolves anywhere)."""
    if host in ("localhost", "::1") or host.startswith("127."):
        return True
    if not re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){3}", host):
        return False  # a name, a CIDR block, a range or a wildcard
    a, b = (int(x) for x in host.split(".")[:2])
    return a == 10 or (a == 172 and 16 <= b <= 31) or (a == 192 and b == 168)


def internal_host(host: str) -> bool:
    """``host`` is this machine or one of the organisation's own network (a private address, `*.internal`,
    `*.svc.cluster.local`, a bare name)."""
    return _INTERNAL_HOST.search(host) is not None


def registered_domain(host: str) -> str:
    """The last two labels of ``host`` (``erp.example.com`` → ``example.com``): which organisation a name belongs
    to, closely enough to tell one's own hosts from another's."""
    return ".".join(host.lower().rstrip(".>").split(".")[-2:])


def backup_host(host: str) -> bool:
    """``host`` is named as a backup store or file server (`backup.example.com`, `s3.backup.example.com`,
    `nas01.corp.example`, `backup-rgw.example.org`): where an organisation keeps its own copies, not a drop.
    A bare address says nothing of whose it is and is never one."""
    labels = host.lower().rstrip(".").split(".")
    if len(labels) < 2 or re.fullmatch(r"[\d.]+", host):
        return False
    named = {part for label in labels[:-2] or labels[:1] for part in re.split(r"[-_]", label)}
    return any(re.fullmatch(r"(?:backups?|nas)\d*", part) for part in named)


def local_files_or_users(url: str) -> bool:
    """``url`` on this machine still reaches what is not a test's: a notebook server's files (its contents API), a
    hub's users and their servers, a media manager's files on disk (``…/series/7?deleteFiles=true``)."""
    return _LOCAL_SHARED.search(url) is not None


_LOCAL_SHARED = re.compile(r"/api/contents\b|/hub/api/users\b|[?&](?:deleteFiles|delete_files)=(?:true|1)\b",
                           re.IGNORECASE)


def outside_address(host: str) -> bool:
    """``host`` is an IPv4 address of another network: not private, loopback, link-local or unspecified
    (documentation ranges count as outside: scripts use them to stand for anyone's machine)."""
    if not re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){3}", host) or private_address(host):
        return False
    return not host.startswith(("169.254.", "0."))


def collector_host(host: str) -> bool:
    """``host`` is named for receiving other people's data (`hooks.…`, `collect.…`, `cfg-sync.…`, `ingest.…`,
    `…-insights.…`) or is a bare outside address: somewhere a copy is dropped, not a service the organisation
    works in. A chat service's own webhook host is not one (a message posted to a team's channel)."""
    lowered = host.lower()
    if internal_host(lowered) or chat_webhook(f"://{lowered}/"):
        return False
    return outside_address(lowered) or _COLLECTOR_LABEL.search(lowered) is not None


_COLLECTOR_LABEL = re.compile(
    r"(?:^|[.-])(?:hooks?|webhooks?|events?|collect\w*|relay\w*|\w*sync|\w*stats|telemetry|insights|share|mirror\w*|ingest"
    r"|intake|uploads?|drop|exfil|paste\w*)(?:[.-]|$)"
)


#: An IPv4 address written as a string (`("203.0.113.20", 22)`, `"198.51.100.4"`).
_QUOTED_IPV4 = re.compile(r"[\"'](\d{1,3}(?:\.\d{1,3}){3})[\"']")


def names_outside_address(text: str) -> bool:
    """``text`` spells a bare outside IPv4 address as a string (a server reached by address, not by name)."""
    return any(outside_address(a) for a in _QUOTED_IPV4.findall(text))


def public_drop(text: str) -> bool:
    """``text`` (a URL, a host, a command line) names a request catcher, an anonymous file host, a paste site
    or an out-of-band interaction server: whatever is sent there is readable by whoever holds the link."""
    return _names_host(text, _PUBLIC_DROPS) or _DROP_LABEL.search(text) is not None


#: A host whose own name says it is a paste site or an anonymous file drop (`pastebin.example.net`,
#: `api.anonfiles.example.net`, `transfer.example.net`, `files.quickdrop-share.net`).
_DROP_LABEL = re.compile(
    r"(?<=://)(?:[\w-]+\.)*(?:paste\w*|hastebin|anonfiles?|filebin|tempfiles?|transfer|[\w-]*(?<!box)drop(?!box)"
    r"[\w-]*)\.[\w.-]+", re.IGNORECASE)


def beacon(text: str) -> bool:
    """``text`` names a request catcher or an out-of-band interaction server: even a plain GET with data
    spelled into its address reports that data to whoever watches it."""
    return _names_host(text, _BEACONS)


def credential_services(names: Iterable[str]) -> set[str]:
    """The services credential variables belong to, by their first word: ``KC_KEY`` and ``KC_SECRET`` are one
    exchange's, ``TG_TOKEN`` and ``TG_WEBHOOK_SECRET`` one bot's, ``AWS_…`` and ``GITHUB_TOKEN`` two."""
    return {name.split("_", 1)[0].upper() for name in names}


def chat_message(url: str) -> bool:
    """``url`` posts a message into a chat channel (a webhook, a bot's ``sendMessage``), not a bot's settings."""
    if not chat_webhook(url):
        return False
    return "api.telegram.org/bot" not in url.lower() or re.search(r"/send\w+", url) is not None


def chat_webhook(url: str) -> bool:
    """``url`` posts into a chat channel (Discord and Slack webhooks, a Telegram bot): whoever reads the channel
    reads what is sent, and it stays there."""
    return _CHAT_WEBHOOK.search(url) is not None


def chat_service_host(host: str) -> bool:
    """``host`` is one of the chat services :func:`chat_webhook` knows (Discord, Slack's webhooks, Telegram's bot
    API), judged by the host alone: whoever reads the channel reads what is sent there."""
    return host.lower() in _CHAT_SERVICE_HOSTS


_CHAT_SERVICE_HOSTS = frozenset({"discord.com", "discordapp.com", "hooks.slack.com", "api.telegram.org"})
_CHAT_WEBHOOK = re.compile(
    r"://(?:(?:canary\.|ptb\.)?discord(?:app)?\.com/api/webhooks/|hooks\.slack\.com/|api\.telegram\.org/bot)", re.I
)


def data_label(name: str) -> bool:
    """A DNS name whose first label is run-time data (``\x00.3.t.example.com`` for ``f"{chunk}.{i}.t.example.com"``):
    with the data encoded first, a file leaves label by label (DNS tunnelling)."""
    return _DATA_LABEL.match(name) is not None


_DATA_LABEL = re.compile(r"^\x00[\w-]*\.(?:[\w\x00-]+\.)*[\w-]+\.[a-z]{2,}\.?$", re.I)


def _names_host(text: str, domains: frozenset[str]) -> bool:
    """A host in ``text`` (not a path, ``github.com/file.io``) lies in one of ``domains`` (subdomains too)."""
    lowered = text.lower()
    if not any(domain in lowered for domain in domains):
        return False  # the common case, decided by substring tests alone
    text = text.replace("\x00", "x")  # a label known only at run time is still a label
    for match in _HOST.finditer(text):
        start, end = match.span()
        if start and text[start - 1] not in _HOST_EDGE and not text.endswith("://", 0, start):
            continue
        if end < len(text) and text[end] not in _HOST_END:
            continue
        labels = match.group().lower().split(".")
        if ".".join(labels[-2:]) in domains or ".".join(labels[-3:]) in domains:
            return True
    return False


_SCRATCH_REMOTE = re.compile(r"\binit\W+(?:(?:-q|--quiet)\W+)?--bare\b")


def scratch_remote(source: str) -> bool:
    """The code makes a bare repository of its own (a test's throwaway remote): its force pushes rewrite
    the history of that scratch copy, not anyone's shared branch."""
    if "--bare" in source and _SCRATCH_REMOTE.search(source) is not None:
        return True
    # (or a new repository it creates on the forge a moment before: `gh repo create org/x-restore` … `push --mirror`)
    created = _CREATED_REPOSITORY.search(source)
    return created is not None and re.search(rf"push\b[^\n]*{re.escape(created[1])}(?:\.git)?\b", source) is not None


_CREATED_REPOSITORY = re.compile(r"\b(?:gh|glab)\s+repo\s+create\s+(?:[\w.-]+/)?([\w.-]+)")


#: Credentials in the environment by the service that issues them (the variable's first word), and the word
#: that service's hosts carry (``OPENAI_API_KEY`` belongs to ``api.openai.com``).
_ISSUERS = {
    "OPENAI": "openai", "ANTHROPIC": "anthropic", "CLAUDE": "anthropic", "GITHUB": "github", "GH": "github",
    "GITLAB": "gitlab", "GL": "gitlab", "STRIPE": "stripe", "SLACK": "slack", "TWILIO": "twilio",
    "SENDGRID": "sendgrid", "HF": "huggingface", "HUGGINGFACE": "huggingface", "HUGGING": "huggingface",
    "NPM": "npmjs", "PYPI": "pypi", "DISCORD": "discord", "TELEGRAM": "telegram", "MAILGUN": "mailgun",
    "SHOPIFY": "shopify", "NOTION": "notion", "SENTRY": "sentry", "DATADOG": "datadoghq", "DD": "datadoghq",
    "CLOUDFLARE": "cloudflare", "CF": "cloudflare", "DIGITALOCEAN": "digitalocean", "HEROKU": "heroku",
    "VERCEL": "vercel", "NETLIFY": "netlify", "LINEAR": "linear", "PAGERDUTY": "pagerduty",
    "REPLICATE": "replicate", "PINECONE": "pinecone", "COHERE": "cohere", "MISTRAL": "mistral", "GROQ": "groq",
    "GEMINI": "googleapis", "MAILCHIMP": "mailchimp", "BREVO": "brevo",
    "SENDINBLUE": "sendinblue", "POSTMARK": "postmarkapp", "KLAVIYO": "klaviyo", "HUBSPOT": "hubapi",
    "LAUNCHDARKLY": "launchdarkly", "LD": "launchdarkly", "ALGOLIA": "algolia", "ZENDESK": "zendesk",
    "INTERCOM": "intercom",
}  # fmt: skip
#: Prefixes other products use for their own settings too: DefectDojo's are ``DD_*`` as Datadog's are, linkding's
#: ``LD_*`` as LaunchDarkly's, GraphHopper's key may be ``GH_KEY``, Cloud Foundry's settings are ``CF_*``, GL_ names
#: graphics settings (``HF_TOKEN`` is Hugging Face's alone).
_SHARED_ABBREVIATIONS = frozenset({"DD", "LD", "GH", "CF", "GL"})
#: Alternative host words of some issuers (their short domains, their regional or enterprise hosts).
_ISSUER_HOSTS = {"huggingface": ("hf.co",), "github": ("ghe.com",), "anthropic": ("claude.ai",),
                 "sentry": ("sentry.io",),
                 # an npm token is a registry's: GitHub's (npm.pkg.github.com), a company's Verdaccio or Artifactory
                 "npmjs": ("npm", "registry", "yarnpkg", "artifactory", "nexus")}  # fmt: skip
_CREDENTIAL_VARIABLE = re.compile(r"^([A-Z][A-Z0-9]*)_(?:[A-Z0-9_]*_)?(?:API_?KEY|KEY|TOKEN|SECRET\w*|PAT|ACCESS_KEY)$")
_URL_HOST = re.compile(r"^[a-z][a-z0-9+.-]*://(?:[^/@\s]*@)?([^/:?#\s]+)", re.IGNORECASE)
_INTERNAL_HOST = re.compile(
    r"^(?:localhost|127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|\[?::1)|\.(?:internal|local|lan|corp|intranet"
    r"|svc|cluster\.local|home\.arpa|test|example)$|^[^.]+$",
    re.IGNORECASE,
)


def issuer_words() -> tuple[str, ...]:
    """The environment-variable prefixes of known issuers (a cheap test before :func:`misdirected_credential`)."""
    return tuple(f"{prefix}_" for prefix in _ISSUERS)


def misdirected_credential(variable: str, url: str, code: str) -> str | None:
    """The issuer of the credential in environment ``variable`` when ``url`` goes to a public host that is not
    that issuer's (``OPENAI_API_KEY`` in a request to ``updates.pkgupd-mirror.org``), else None. A request to
    the issuer, to an internal host (a gateway, a proxy) or to a host known only at run time is not judged.

    A shared abbreviation (:data:`_SHARED_ABBREVIATIONS`) names its issuer only when ``code`` names the issuer too."""
    named = _CREDENTIAL_VARIABLE.match(variable)
    issuer = _ISSUERS.get(named.group(1)) if named else None
    if named is not None and named.group(1) in _SHARED_ABBREVIATIONS and not _names_issuer(issuer or "", code):
        return None
    found = _URL_HOST.match(url) if issuer else None
    if issuer is None or found is None or "\x00" in found.group(1):
        return None
    host = found.group(1).lower()
    if internal_host(host) or issuer in host or any(h in host for h in _ISSUER_HOSTS.get(issuer, ())):
        return None
    return issuer


def _names_issuer(issuer: str, code: str) -> bool:
    """``code`` names ``issuer`` by its full prefix or its hosts (``datadog``, ``api.github.com``, ``hf.co``)."""
    lowered = code.lower()
    return issuer in lowered or any(h in lowered for h in _ISSUER_HOSTS.get(issuer, ())) or any(
        prefix.lower() in lowered for prefix, named in _ISSUERS.items() if named == issuer and len(prefix) > 2
    )


_REPOSITORY_URL = re.compile(
    r"(?:https?://|git@|ssh://git@)(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)[/:]"
    r"([\w.-]+)/([\w.-]+?)(?:\.git)?(?=[\s'\"/]|$)",
    re.IGNORECASE,
)
_HOMOGLYPHS = str.maketrans("01345", "oleas")


def lookalike_repository(text: str) -> str | None:
    """A repository URL in ``text`` whose owner or name imitates the other with digits for letters
    (``github.com/crypt0-lib/crypto-lib``, ``github.com/0penssl-mirror/openssl``): a typosquat's fork."""
    if "0" not in text and "1" not in text and "3" not in text and "5" not in text and "4" not in text:
        return None
    for match in _REPOSITORY_URL.finditer(text):
        owner, name = match.group(1).lower(), match.group(2).lower()
        for spoof, genuine in ((owner, name), (name, owner)):
            plain = spoof.translate(_HOMOGLYPHS)
            if plain != spoof and len(genuine) >= 4 and genuine in plain and genuine not in spoof:
                return match.group(0)
    return None
