"""Archives whose members land outside the folder they are unpacked into.

Two shapes, both judged on the Python syntax tree:

- *zip slip*: a loop over an archive's members (``zf.infolist()``, ``tf.getmembers()``) that writes each one to
  a path joined from its stored name, with no check anywhere that the result stays inside the destination
  (``realpath``/``commonpath``/``is_relative_to``, ``basename``, a ``..`` test, tarfile's ``filter=``). A member
  named ``../../home/u/.ssh/authorized_keys`` is written there.
- *crafted archives*: members built to escape when someone else unpacks them: a tar link whose ``linkname``
  points at a secret, privileged or start-up file, or a member named ``../../etc/cron.d/x``, in an archive that
  is given content to write there.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from sandlot.risk import paths

#: Methods listing an archive's members (zipfile, tarfile).
MEMBER_LISTINGS = ("infolist", "namelist", "getmembers", "getnames")

#: Any sign that the code keeps members inside the destination (or strips their directories).
_CONTAINMENT = re.compile(
    r"realpath|abspath|commonpath|commonprefix|is_relative_to|relative_to|\.resolve\(|normpath|basename"
    r"|Path\(\w+\)\.name\b|['\"]\.\.['\"]|['\"]\.\./['\"]|filter\s*="
)

#: Calls that name a member being put into an archive.
_MEMBER_NAMERS = frozenset({"TarInfo", "ZipInfo", "writestr"})


def member_name_writes(tree: ast.AST, code: str) -> list[ast.Call]:
    """Writes, inside a loop over an archive's members, to a path built from the member's own name, in code
    that never checks where such a path leads."""
    if not any(word in code for word in MEMBER_LISTINGS) or _CONTAINMENT.search(code):
        return []
    found: list[ast.Call] = []
    for loop in ast.walk(tree):
        if not isinstance(loop, (ast.For, ast.AsyncFor)) or not isinstance(loop.target, ast.Name):
            continue
        listing = loop.iter
        if not (
            isinstance(listing, ast.Call)
            and isinstance(listing.func, ast.Attribute)
            and listing.func.attr in MEMBER_LISTINGS
        ):
            continue
        derived = {loop.target.id}
        for stmt in ast.walk(loop):
            # `target = os.path.join(dest, info.filename)`: a name holding the joined path
            if isinstance(stmt, ast.Assign) and _mentions(stmt.value, derived) and _joins(stmt.value):
                derived.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        found.extend(call for call in _calls(loop) if _writes_to(call, derived))
    return found


def crafted_members(tree: ast.AST) -> Iterator[tuple[ast.AST, str]]:
    """Members built to escape when the archive is unpacked elsewhere: each node with what it reaches. Only in
    an archive that carries content (a member added with data): a lone ``TarInfo("../../etc/passwd")`` with
    nothing written is a test's fixture."""
    if not any(_adds_content(call) for call in _calls(tree)):
        return
    constants = _module_constants(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Attribute) and t.attr == "linkname" for t in node.targets
        ):
            target = _text(node.value, constants)
            if target is not None and _reaches_harm(target):
                yield node, f"a link member pointing at {target} (unpacking writes through it)"
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            named = [*node.args[:1]] if name in _MEMBER_NAMERS else []
            named += [kw.value for kw in node.keywords if kw.arg == "arcname"]
            for value in named:
                member = _text(value, constants)
                if member is not None and "../" in member and _reaches_harm(_escaped(member)):
                    yield node, f"a member named {member} (unpacking writes it to {_escaped(member)})"


def _adds_content(call: ast.Call) -> bool:
    """``tf.addfile(info, io.BytesIO(data))``, ``z.writestr(name, data)`` with data that is not empty."""
    if not isinstance(call.func, ast.Attribute) or call.func.attr not in ("addfile", "writestr"):
        return False
    data = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "fileobj"), None)
    if data is None:
        return False
    return not (isinstance(data, ast.Constant) and not data.value)


def _escaped(member: str) -> str:
    """Where ``../../etc/cron.d/x`` lands when unpacked a few folders below the root: ``/etc/cron.d/x``."""
    return "/" + re.sub(r"^(?:\.\./|\./|/)+", "", member.split("/../")[-1] if "/../" in member else member)


def _reaches_harm(target: str) -> bool:
    info = paths.classify(target)
    return bool(info.secret or info.privilege or info.persistence) or (
        target.startswith(("/etc/", "/usr/", "/bin/", "/sbin/", "/lib", "/root/", "/home/", "~/"))
        and info.kind in (paths.PathKind.SYSTEM, paths.PathKind.SYSTEM_TOP, paths.PathKind.HOME_TOP)
    )


def _module_constants(tree: ast.AST) -> dict[str, str]:
    body = tree.body if isinstance(tree, ast.Module) else []
    return {
        t.id: stmt.value.value
        for stmt in body
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)
        for t in stmt.targets
        if isinstance(t, ast.Name)
    }


def _text(node: ast.AST, constants: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    return None


def _mentions(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _joins(node: ast.AST) -> bool:
    """``os.path.join(...)``, ``dest / name``, an f-string or ``+``: a path built from parts."""
    return any(
        (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "join")
        or isinstance(n, (ast.BinOp, ast.JoinedStr))
        for n in ast.walk(node)
    )


def _calls(node: ast.AST) -> Iterator[ast.Call]:
    return (n for n in ast.walk(node) if isinstance(n, ast.Call))


def _writes_to(call: ast.Call, names: set[str]) -> bool:
    func = call.func
    if isinstance(func, ast.Name) and func.id == "open" and call.args:
        mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
        writing = isinstance(mode, ast.Constant) and isinstance(mode.value, str) and any(c in mode.value for c in "wax")
        return writing and _mentions(call.args[0], names) and _joins_or_name(call.args[0], names)
    if isinstance(func, ast.Attribute) and func.attr in ("write_bytes", "write_text"):
        return _mentions(func.value, names) and _joins_or_name(func.value, names)
    return False


def _joins_or_name(node: ast.AST, names: set[str]) -> bool:
    return (isinstance(node, ast.Name) and node.id in names) or _joins(node)
