"""Building a base image without a registry: debootstrap a Debian rootfs, ``docker import`` it.

Used by ``sandlot docker build-image`` and by ``scripts/ci/docker-up.sh`` (through
``python3 -m sandlot_docker``), so CI exercises the same code users run.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sandlot.errors import SandboxError

log = logging.getLogger(__name__)

#: The image sandboxes use unless ``providers.docker.image`` says otherwise.
DEFAULT_IMAGE = "sandlot-base:bookworm"
DEFAULT_SUITE = "bookworm"
DEFAULT_MIRROR = "http://deb.debian.org/debian"
#: python3 is not needed by sandlot itself (file operations use sh and coreutils); agents want it.
DEFAULT_PACKAGES: tuple[str, ...] = ("python3-minimal",)
#: The unprivileged account added to the image; sandboxes run as this uid unless configured.
SANDBOX_USER = "sandlot"
SANDBOX_UID = 1000
#: Label every image we build carries (``docker images --filter label=sandlot.image``).
IMAGE_LABEL = "sandlot.image"


def build_hint(image: str) -> str:
    """The command that builds ``image`` locally (quoted into error messages)."""
    return f"sandlot docker build-image --tag {image}"


def _require_tools() -> str:
    debootstrap = shutil.which("debootstrap")
    if debootstrap is None:
        raise SandboxError("debootstrap is not installed: apt-get install -y debootstrap")
    if os.geteuid() != 0:
        raise SandboxError("building a rootfs with debootstrap needs root: run the command with sudo")
    return debootstrap


def _add_user(root: Path, uid: int = SANDBOX_UID, name: str = SANDBOX_USER) -> None:
    """Add an unprivileged account by editing the rootfs files (no chroot, nothing executed)."""
    home = root / "home" / name
    home.mkdir(parents=True, exist_ok=True)
    os.chown(home, uid, uid)
    home.chmod(0o755)
    with (root / "etc" / "passwd").open("a") as fh:
        fh.write(f"{name}:x:{uid}:{uid}:sandlot sandbox:/home/{name}:/bin/sh\n")
    with (root / "etc" / "group").open("a") as fh:
        fh.write(f"{name}:x:{uid}:\n")


def _slim(root: Path) -> None:
    """Drop package caches: they are useless in a read-only sandbox and cost import time."""
    for pattern in ("var/cache/apt/archives/*.deb", "var/lib/apt/lists/*_*"):
        for path in root.glob(pattern):
            path.unlink(missing_ok=True)


def build_rootfs_tar(
    output: Path,
    *,
    suite: str = DEFAULT_SUITE,
    mirror: str = DEFAULT_MIRROR,
    packages: Sequence[str] = DEFAULT_PACKAGES,
) -> Path:
    """debootstrap a minimal rootfs and write it as a tar to ``output`` (atomically)."""
    debootstrap = _require_tools()
    output.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="sandlot-rootfs-") as tmp:
        root = Path(tmp) / "rootfs"
        argv = [debootstrap, "--variant=minbase"]
        if packages:
            argv.append("--include=" + ",".join(packages))
        argv += [suite, str(root), mirror]
        log.info("running %s", " ".join(argv))
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
            raise SandboxError(f"debootstrap failed (exit {done.returncode}):\n{tail}")
        _add_user(root)
        _slim(root)
        partial = output.with_name(output.name + ".partial")
        tar = subprocess.run(
            ["tar", "--numeric-owner", "-C", str(root), "-cf", str(partial), "."],
            capture_output=True,
            text=True,
            check=False,
        )
        if tar.returncode != 0:
            partial.unlink(missing_ok=True)
            raise SandboxError(f"tar of the rootfs failed: {tar.stderr.strip()}")
        partial.replace(output)
    return output


def import_tar(api: Any, tarball: Path, tag: str, *, suite: str = DEFAULT_SUITE) -> str:
    """``docker import`` the rootfs tar as ``tag``; returns the image id."""
    repository, _, version = tag.rpartition(":") if ":" in tag.split("/")[-1] else (tag, "", "latest")
    changes = [
        'CMD ["/bin/sh"]',
        f"LABEL {IMAGE_LABEL}=1 {IMAGE_LABEL}.suite={suite}",
        "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8",
    ]
    api.import_image_from_file(str(tarball), repository=repository, tag=version, changes=changes)
    image_id: str = api.inspect_image(tag)["Id"]
    return image_id


def cached_tar_path(cache_dir: Path, tag: str) -> Path:
    return cache_dir / (tag.replace("/", "_").replace(":", "_") + ".rootfs.tar")


def build_image(
    api: Any,
    tag: str = DEFAULT_IMAGE,
    *,
    cache_dir: Path | None = None,
    suite: str = DEFAULT_SUITE,
    mirror: str = DEFAULT_MIRROR,
    packages: Sequence[str] = DEFAULT_PACKAGES,
    rebuild: bool = False,
) -> str:
    """Build ``tag`` from a debootstrapped rootfs, reusing a cached tar when there is one."""
    if cache_dir is None:
        with tempfile.TemporaryDirectory(prefix="sandlot-image-") as tmp:
            tarball = build_rootfs_tar(Path(tmp) / "rootfs.tar", suite=suite, mirror=mirror, packages=packages)
            return import_tar(api, tarball, tag, suite=suite)
    tarball = cached_tar_path(cache_dir, tag)
    if rebuild or not tarball.is_file() or tarball.stat().st_size == 0:
        build_rootfs_tar(tarball, suite=suite, mirror=mirror, packages=packages)
    return import_tar(api, tarball, tag, suite=suite)


def main(argv: Sequence[str] | None = None) -> int:
    """Script entry for CI: ``--output TAR`` builds a rootfs tar; ``--import-tar TAR --tag T`` imports it."""
    parser = argparse.ArgumentParser(prog="python3 -m sandlot_docker")
    parser.add_argument("--output", type=Path, help="write a debootstrapped rootfs tar here")
    parser.add_argument("--import-tar", type=Path, help="import this rootfs tar as --tag")
    parser.add_argument("--tag", default=DEFAULT_IMAGE)
    parser.add_argument("--suite", default=DEFAULT_SUITE)
    parser.add_argument("--mirror", default=DEFAULT_MIRROR)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        if args.output is not None:
            build_rootfs_tar(args.output, suite=args.suite, mirror=args.mirror)
        if args.import_tar is not None:
            from sandlot_docker.engine import connect

            print(import_tar(connect(""), args.import_tar, args.tag, suite=args.suite))
    except SandboxError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
