"""Tool runners and one-shot package execution (shared by both analyzers).

``npx``, ``pnpm dlx``, ``yarn dlx``, ``bunx``, ``npm exec``, ``uvx``, ``pipx run``, ``uv run``,
``go run`` and ``deno run`` fetch a tool (or take one already installed) and run it with the rest
of the command line. What counts is twofold: where the code comes from (a registry package by
name, or a repository's moving head, a gist, a URL) and what the tool then does, which is the
command it stands for (``npx rimraf DIR`` is ``rm -rf DIR``, ``uv run python -c CODE`` is
``python -c CODE``). :func:`unwrap_runner` returns both.
"""

from __future__ import annotations

import re

import attrs

from sandlot.risk import shell_words as W


@attrs.frozen
class RunnerCall:
    """A tool runner's command line taken apart."""

    runner: str  #: how it was started (``npx``, ``uvx``, ``go run``)
    source: str  #: the package, repository, module or URL the code comes from
    command: list[str]  #: the command the tool stands for, to be judged by the shell rules
    remote: bool  #: the code comes from a repository, a gist or a URL, not a registry package by name
    pinned: bool  #: that source is fixed to a release or a commit (a tag, a version, a hash)


#: Options of each runner that take a value (so the tool's name is found after them).
_NODE_VALUED = frozenset({"-p", "--package", "--registry", "--cache", "--userconfig", "-c", "--call"})
_UV_VALUED = frozenset({"--from", "--with", "--python", "-p", "--index", "--index-url", "--extra-index-url",
                        "--spec", "--project", "--directory", "--env-file", "--extra", "--group", "--with-requirements",
                        "--pip-args", "--python-preference"})  # fmt: skip
_DENO_VALUED = frozenset({"--config", "-c", "--import-map", "--lock", "--cert", "--location", "--env-file"})

#: Packages that stand for a shell command (what they do is what that command does).
_PACKAGE_COMMANDS: dict[str, list[str]] = {
    "rimraf": ["rm", "-rf"], "del-cli": ["rm", "-rf"], "trash-cli": ["trash"],
    "fkill-cli": ["killall", "-9"], "fkill": ["killall", "-9"],
    "http-server": ["python3", "-m", "http.server", "--directory"], "serve": ["python3", "-m", "http.server",
                                                                                 "--directory"],
    "localtunnel": ["lt"], "cross-env": [],
}  # fmt: skip
#: Options of those packages that only change how they work, not what they act on.
_PACKAGE_FLAGS = frozenset({"--glob", "-g", "--force", "-f", "--silent", "-s", "--cors", "-y", "--yes"})
#: Options of the static file servers (http-server, serve) that take a value: the folder served is the first
#: word that is neither an option nor such a value (`http-server -a 0.0.0.0 -d true /`).
_SERVER_VALUED = frozenset({"-p", "--port", "-a", "--address", "-d", "-c", "-l", "--listen", "-e", "--ext", "-t",
                            "--timeout", "-C", "--cert", "-K", "--key", "-P", "--proxy", "-u", "--username",
                            "--password", "--config"})  # fmt: skip

#: Repository, gist and URL sources (npm's `github:`, pip's `git+`, a raw file).
_REMOTE_SOURCE = re.compile(r"^(?:git\+|github:|gitlab:|bitbucket:|gist:|https?://|git://|ssh://|[\w.-]+/[\w.-]+#)")
#: A source fixed to a release or a commit: `@v1.2.3`, `#<sha>`, `@1.4.0`, `==2.0`, and in a URL's path
#: `std@0.224.0/`, `/v1.2.3/`, `/<sha>/`.
_PINNED = re.compile(
    r"(?:@v?\d+(?:\.\d+)+|#[0-9a-f]{7,40}|@[0-9a-f]{12,40}|==\d[\w.]*|#v?\d+(?:\.\d+)+)$"
    r"|^https?://[^?#]*(?:@v?\d+(?:\.\d+)+/|/v?\d+\.\d+(?:\.\d+)*/|/[0-9a-f]{40}/)"
)
#: `go run`'s own modules and the Go project's tools (`golang.org/x/...`).
_GO_PROJECT = re.compile(r"^(?:golang\.org/x/|go\.dev/|std$|\.|/)")


def unwrap_runner(argv: list[str]) -> RunnerCall | None:
    """The runner call ``argv`` makes, or None when ``argv`` does not start a tool runner."""
    name = W.base(argv[0]) if argv else ""
    sub = argv[1] if len(argv) > 1 else ""
    if (
        name in ("npx", "pnpx", "bunx")
        or (name in ("pnpm", "yarn") and sub == "dlx")
        or (name == "npm" and sub == "exec")
    ):
        rest = argv[1:] if name in ("npx", "pnpx", "bunx") else argv[2:]
        packages = W.option_values(rest, "-p", "--package")
        tail = W.skip_options(rest, _NODE_VALUED)
        if not tail:
            return None
        source = packages[0] if packages else tail[0]
        return _call(name if name in ("npx", "pnpx", "bunx") else f"{name} {sub}", source, tail)
    if name == "uvx" or (name == "pipx" and sub == "run") or (name == "uv" and argv[1:3] == ["tool", "run"]):
        rest = argv[1:] if name == "uvx" else argv[2:] if name == "pipx" else argv[3:]
        spec = [*W.option_values(rest, "--from", "--spec")]
        tail = W.skip_options(rest, _UV_VALUED)
        if not tail:
            return None
        return _call("uvx" if name == "uvx" else f"{name} run", spec[0] if spec else tail[0], tail)
    if name == "uv" and sub == "run":
        tail = W.skip_options(argv[2:], _UV_VALUED)
        sources = W.option_values(argv[2:], "--with")
        if not tail:
            return None
        fetched = [s for s in sources if _REMOTE_SOURCE.match(s)]
        source = fetched[0] if fetched else (sources[0] if sources else tail[0])
        return RunnerCall("uv run", source, tail, bool(fetched), bool(fetched) and bool(_PINNED.search(fetched[0])))
    if name == "go" and sub == "run":
        tail = W.skip_options(argv[2:], frozenset({"-tags", "-exec", "-ldflags", "-gcflags", "-mod", "-C"}))
        if not tail:
            return None
        module = tail[0]
        remote = "." in module.split("/", 1)[0] and not _GO_PROJECT.match(module)
        pinned = "@" in module and module.rsplit("@", 1)[1] not in ("latest", "master", "main", "HEAD")
        tool = module.split("@", 1)[0].rstrip("/").rsplit("/", 1)[-1]
        return RunnerCall("go run", module, [tool, *tail[1:]], remote, pinned)
    if name == "deno" and sub == "run":
        tail = W.skip_options(argv[2:], _DENO_VALUED)
        if not tail:
            return None
        script = tail[0]
        return RunnerCall("deno run", script, [script, *tail[1:]], bool(_REMOTE_SOURCE.match(script)),
                          bool(_PINNED.search(script.split("?", 1)[0])))  # fmt: skip
    return None


def all_permissions(argv: list[str]) -> bool:
    """``deno run -A``: the script may read, write, run and connect anywhere (Deno's sandbox is off)."""
    return any(a in ("-A", "--allow-all") or a.startswith("--allow-run") for a in argv)


def _call(runner: str, source: str, tail: list[str]) -> RunnerCall:
    remote = bool(_REMOTE_SOURCE.match(source))
    pinned = bool(_PINNED.search(source))
    package = _package_name(tail[0])
    mapped = _PACKAGE_COMMANDS.get(package)
    if mapped is None:
        return RunnerCall(runner, source, [package, *tail[1:]], remote, pinned)
    operands = [a for a in tail[1:] if a not in _PACKAGE_FLAGS]
    if mapped[-1:] == ["--directory"]:
        operands = W.skip_options(tail[1:], _SERVER_VALUED)[:1]
    return RunnerCall(runner, source, [*mapped, *operands] if mapped else operands, remote, pinned)


def _package_name(spec: str) -> str:
    """``rimraf@5.0.7`` -> ``rimraf``, ``@scope/tool@1`` -> ``tool``, ``github:o/r#main`` -> ``r``."""
    spec = re.sub(r"^(?:git\+|github:|gitlab:|bitbucket:)", "", spec).split("#", 1)[0]
    if spec.startswith("@"):
        spec = spec.split("/", 1)[-1]
    return spec.split("@", 1)[0].rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
