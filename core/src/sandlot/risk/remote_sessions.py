"""Terminal sessions and remote development: tmux and screen, X11, VS Code tunnels, dev containers, Gitpod
(shared by both analyzers).

A terminal session's scrollback holds whatever scrolled past (passwords typed, tokens printed), another user's
session runs what is typed into it with their rights, and a tunnel hands the machine to whoever logs in at the other
end. What needs a careful reviewer:

* every pane's scrollback read (``tmux capture-pane -S -`` over ``list-panes -a``): secret data from then on;
* commands typed into another user's session (``screen -x root/ops -X stuff``, ``tmux -S /tmp/tmux-0/… send-keys``);
* ``code tunnel`` started (a GitHub or Microsoft account drives the machine from anywhere);
* X's access control switched off (``xhost +``: any client reads the screen and types);
* a Gitpod workspace's variables printed (``gp env``): its secrets;
* a dev container's lifecycle command set to a downloaded script (it runs at every creation).

Detached sessions of one's own, reading one's own pane, ``code tunnel status`` and ``xhost +si:localuser:…`` are
routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.model import Category, RiskLevel

_TUNNEL_QUERIES = frozenset({"status", "user", "kill", "unregister", "prune", "rename", "help", "--help", "-h"})


def session_command(name: str, args: list[str]) -> tuple[list[OperationRisk], bool]:
    """(risks, whether the output is secret) of a tmux, screen, code, xhost, gp, jupyter, ttyd or gotty command line."""
    found = []
    secret = False
    if name == "tmux":
        verb = next((a for a in args if not a.startswith("-") and a not in _socket_values(args)), "")
        if verb in ("capture-pane", "capturep") and "-p" in args:
            secret = True  # what the pane showed: passwords typed, tokens printed
        others = any(v.startswith(("/tmp/tmux-0/", "/tmp/tmux-")) for v in _socket_values(args)) and not any(
            v.startswith("/tmp/tmux-$") for v in _socket_values(args)
        )
        if verb in ("send-keys", "send") and others:
            found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                       "tmux types commands into another user's session (they run with that user's "
                                       "rights)"))  # fmt: skip
    if name == "screen" and "-X" in args:
        session = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-x", "-r", "-S")), "")
        command = args[args.index("-X") + 1] if args.index("-X") + 1 < len(args) else ""
        if command == "stuff" and "/" in session:
            found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                       f"screen types commands into {session.split('/', 1)[0]}'s session {session} "
                                       "(they run with that user's rights)"))  # fmt: skip
        if command == "hardcopy" and "/" in session:
            secret = True
    tunnel = args[:1] == ["tunnel"] and not set(args[1:2]) & _TUNNEL_QUERIES
    if name in ("code", "code-insiders", "codium") and tunnel:
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   f"{name} tunnel lets an outside account drive this machine (a remote editor with a "
                                   "terminal)"))  # fmt: skip
    if name == "xhost" and "+" in args:
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "xhost + turns off X's access control (any client reads the screen and types)"))
    if name in _WEB_TERMINALS:
        found.extend(_web_terminal(name, args))
    if name == "jupyter" and args[:2] in (["server", "list"], ["notebook", "list"], ["lab", "list"]):
        secret = True  # every running server's URL with its login token
    if name == "gp" and args[:1] == ["env"] and not [a for a in args[1:] if "=" in a or a == "-u"]:
        secret = True  # every variable of the workspace: its secrets
    return found, secret


#: Programs that put a terminal program in a web page: (writable flags, credential flags, address flags).
_WEB_TERMINALS = {
    "ttyd": ({"-W", "--writable"}, {"-c", "--credential", "-H", "--auth-header"}, {"-i", "--interface"}),
    "gotty": ({"-w", "--permit-write"}, {"-c", "--credential", "-r", "--random-url"}, {"-a", "--address"}),
}
_LOOPBACK = ("127.", "localhost", "::1", "lo")


def _web_terminal(name: str, args: list[str]) -> list[OperationRisk]:
    """``ttyd -W bash``, ``gotty -w nvim``: a terminal anyone who reaches the port types into, with no login."""
    writable, credentials, addresses = _WEB_TERMINALS[name]
    if not set(args) & writable or set(args) & credentials or any(a.startswith("--credential=") for a in args):
        return []
    bound = [args[i + 1] for i, a in enumerate(args[:-1]) if a in addresses]
    if bound and all(b.startswith(_LOOPBACK) or b.endswith(".sock") for b in bound):
        return []
    return [OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                          f"{name} serves a writable terminal without a login on every interface (anyone reaching "
                          "the port runs commands as this user)")]  # fmt: skip


def _socket_values(args: list[str]) -> list[str]:
    return [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-S"]


#: A dev container's lifecycle command set to a downloaded script piped into a shell.
_LIFECYCLE_DOWNLOAD = re.compile(
    r"(?:postCreateCommand|postStartCommand|onCreateCommand|initializeCommand|postAttachCommand"
    r"|updateContentCommand)[\"']?\s*[=:]\s*[\"'][^\"'\n]*\b(?:curl|wget)\b[^\"'\n]*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b"
)


def devcontainer_download(text: str) -> bool:
    """``text`` makes a dev container run a downloaded script at creation or start."""
    return "Command" in text and _LIFECYCLE_DOWNLOAD.search(text) is not None
