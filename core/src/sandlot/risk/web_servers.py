"""What a web server's or reverse proxy's configuration, or its admin API, gives away (shared by both analyzers).

nginx, Apache httpd, Caddy, HAProxy, Traefik and Envoy read plain text: writing ``ProxyRequests On``
or an ``alias`` to ``/etc`` looks like any other configuration write, yet it turns the machine into an
open relay or serves its secrets to whoever asks. Their admin APIs (Caddy's ``:2019``, HAProxy's runtime
socket, Envoy's ``:9901``) change where live traffic goes without any file being written.
"""

from __future__ import annotations

import re

from sandlot.risk import paths
from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.model import Category, RiskLevel

_SERVERS = frozenset({"nginx", "apache2", "httpd", "caddy", "haproxy", "traefik", "envoy"})
_CONFIG_NAMES = frozenset({"nginx.conf", "httpd.conf", "apache2.conf", "caddyfile", "haproxy.cfg", ".htaccess",
                           "traefik.yml", "traefik.yaml", "traefik.toml", "envoy.yaml"})  # fmt: skip


def web_config(path: str) -> bool:
    """``path`` is a configuration file of a web server or a reverse proxy."""
    parts = [p.lower() for p in path.replace("\\", "/").split("/") if p]
    return bool(parts) and (parts[-1] in _CONFIG_NAMES or (parts[0] == "etc" and any(p in _SERVERS for p in parts)))


#: A proxy whose upstream is whatever host the client names (nginx), or Apache's forward-proxy switch.
_OPEN_PROXY = re.compile(r"proxy_pass\s+(?:\$scheme|https?)://\$(?:http_host|host)\b|^\s*ProxyRequests\s+On\b",
                         re.MULTILINE | re.IGNORECASE)  # fmt: skip
#: Log formats recording what authenticates a request: Authorization headers, cookies, request bodies.
_CREDENTIAL_LOG = re.compile(
    r"\$(?:http_authorization|http_cookie|request_body|cookie_\w+|http_x_api_key)\b|%\{(?:Authorization|Cookie)\}i"
    r"|capture\s+(?:request\s+header|cookie)\s+(?:Authorization|Cookie|\w*session)",
    re.IGNORECASE,
)
#: What a location or an alias serves: nginx ``root``/``alias``, Apache ``Alias``/``DocumentRoot``.
_SERVED = re.compile(r"(?:^|[{;])\s*(?:root|alias|Alias\s+\S+|DocumentRoot)\s+[\"']?([^\s;\"']+)", re.MULTILINE)
#: Apache granting the file system's root (every file it can read) to everyone.
_ROOT_GRANTED = re.compile(r"<Directory\s+\"?/\"?\s*>[^<]*?(?:Require\s+all\s+granted|Allow\s+from\s+all)",
                           re.IGNORECASE | re.DOTALL)  # fmt: skip
#: Client-certificate checks switched off.
_CLIENT_AUTH_OFF = re.compile(r"\bSSLVerifyClient\s+none\b|\bssl_verify_client\s+off\b", re.IGNORECASE)
#: An admin endpoint on every address: Caddy's admin API, Envoy's admin, HAProxy's stats in admin mode,
#: Traefik's dashboard without authentication.
_ADMIN_EXPOSED = re.compile(
    r"[\"']?listen[\"']?\s*[:=]\s*[\"'](?:0\.0\.0\.0)?:2019[\"']|^\s*admin\s+(?:0\.0\.0\.0)?:2019\b"
    r"|address:\s*0\.0\.0\.0,?\s*port_value:\s*9901\b|stats\s+socket\s+ipv4@(?:0\.0\.0\.0|\*)?:\d+[^\n]*level\s+admin"
    r"|\bstats\s+admin\s+if\s+TRUE\b|--api\.insecure(?:=true)?\b|\[api\][^\[]*insecure\s*=\s*true",
    re.MULTILINE | re.IGNORECASE,
)
#: Top folders whose whole content must never be served.
_NEVER_SERVED = frozenset({"/", "/etc", "/root", "/home", "/var", "/proc"})


def web_server_weakness(path: str, content: str) -> tuple[str, Category] | None:
    """What ``content`` written to a web server's configuration file ``path`` gives away (None: nothing)."""
    if not web_config(path):
        return None
    if _OPEN_PROXY.search(content):
        return "makes the web server an open forward proxy (anyone can relay traffic through this machine)", (
            Category.NETWORK
        )
    if _CREDENTIAL_LOG.search(content):
        return "logs every request's credentials (Authorization headers, cookies or bodies)", Category.EXFILTRATION
    if _ROOT_GRANTED.search(content):
        return "serves the whole file system over HTTP", Category.FILESYSTEM
    for served in _SERVED.findall(content):
        if served.rstrip("/") in _NEVER_SERVED or served == "/" or paths.classify(served).secret:
            return f"serves {served} over HTTP (secrets, or the whole machine)", Category.FILESYSTEM
    if _CLIENT_AUTH_OFF.search(content):
        return "switches off client-certificate authentication", Category.PRIVILEGE
    return None  # (an admin endpoint opened to every address is judged on the whole text, wherever it is written)


#: Protections a sed script deletes from a web configuration: logins, client certificates, IP allow-lists.
_PROTECTION_LINE = re.compile(
    r"^(?:\d+,)?/[^/]*(?:auth_basic|AuthType|AuthUserFile|Require\s+valid-user|SSLRequireSSL|SSLVerifyClient"
    r"|ssl_verify_client|auth_request|Require\s+ip|allow\s)[^/]*/d$",
    re.IGNORECASE,
)


def protection_deleted(script: str) -> bool:
    """A sed script (``/auth_basic/d``) that deletes a login or an access check from a web configuration."""
    return bool(_PROTECTION_LINE.match(script.strip()))


#: HAProxy's runtime API moving a backend server (``set server be/app1 addr 203.0.113.9``).
_SERVER_MOVED = re.compile(r"set\s+server\s+\S+\s+addr\s+([\d.]+)")
#: Caddy's admin API given a new upstream (``…/upstreams`` with ``{"dial": "host:port"}``).
_CADDY_UPSTREAM = re.compile(r"/upstreams\b|/load\b")
_DIAL = re.compile(r"[\"']dial[\"']\s*:\s*(?:[\"']([^\"']+)[\"']|(\w+))")
#: Envoy's admin endpoint that stops the proxy, called on hosts a loop gives.
_ENVOY_QUIT = re.compile(r"(?:\$\{?\w+\}?|\{\w+\}):\d+/quitquitquit")
_LOOPS = re.compile(r"\bfor\s+\w+\s+in\b")
#: Traefik middlewares (its authentication) removed from a router.
_MIDDLEWARE_REMOVED = re.compile(r"--label-rm\s+traefik\.http\.routers\.[\w.-]+\.middlewares\b")


#: A web server that names the user itself (`SetEnv REMOTE_USER admin`, `RequestHeader set X-Remote-User admin`,
#: `proxy_set_header Remote-User admin`): the application behind it trusts that every visitor is that account.
_FORCED_LOGIN = re.compile(r"\bSetEnv\s+REMOTE_USER\s+\w|RequestHeader\s+set\s+(?:X-)?Remote-User\s+\w"
                           r"|proxy_set_header\s+(?:X-)?Remote-User\s+(?!\$)\w", re.IGNORECASE)  # fmt: skip


def admin_api_risks(code: str) -> list[OperationRisk]:
    """Harm done through a proxy's admin API, judged on the whole text (the request is often built in pieces)."""
    found: list[OperationRisk] = []
    moved = [a for a in _SERVER_MOVED.findall(code) if outside_address(a)] if "set server" in code else []
    if "dial" in code and _CADDY_UPSTREAM.search(code):
        for literal, name in _DIAL.findall(code):
            value = literal or _assigned(code, name)
            if outside_address(value.rsplit(":", 1)[0]):
                moved.append(value)
    if moved:
        what = f"points a proxy's live backends at an outside address ({moved[0]}): its users' traffic goes there"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if "quitquitquit" in code and _ENVOY_QUIT.search(code) and _LOOPS.search(code):
        what = "shuts down every Envoy proxy a list of hosts gives (their traffic stops)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    if "label-rm" in code and _MIDDLEWARE_REMOVED.search(code):
        what = "removes a Traefik router's middlewares (its authentication)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if ("REMOTE_USER" in code or "emote-User" in code) and _FORCED_LOGIN.search(code):
        what = "sets the logged-in user for every request in the web server (anyone who visits is that user)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if ("2019" in code or "9901" in code or "stats " in code or "insecure" in code) and _ADMIN_EXPOSED.search(code):
        what = "exposes a proxy's admin endpoint on every address (anyone can reconfigure it)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if "ngx." in code and _REQUEST_RUN.search(code):
        what = "has the web server run what a request sends as a shell command (a web shell in its Lua)"
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.DYNAMIC_CODE, what))
    return found


#: OpenResty's Lua handing a request's argument, header or body to a shell (`local cmd = ngx.var.arg_c` …
#: `io.popen(cmd)`).
_REQUEST_RUN = re.compile(
    r"\bngx\.(?:var\.arg_\w+|req\.get_(?:uri_args|headers|body_data|post_args)\b)[\s\S]{0,200}?"
    r"\b(?:io\.popen|os\.execute)\s*\("
)


def _assigned(code: str, name: str) -> str:
    """The string constant ``name`` is assigned in ``code`` (``NEW_UPSTREAM = "198.51.100.7:8080"``)."""
    match = re.search(rf"^\s*{re.escape(name)}\s*=\s*[\"']([^\"']+)[\"']", code, re.MULTILINE)
    return match.group(1) if match else ""
