"""``sandlot docker ...``: build a base image without a registry, collect leftover sandboxes."""

from __future__ import annotations

import re
from pathlib import Path

import click

from sandlot.hookspecs import hookimpl
from sandlot_docker.image import DEFAULT_MIRROR, DEFAULT_SUITE, build_image

_DURATION = re.compile(r"^(\d+(?:\.\d+)?)([smhd]?)$")
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str) -> float:
    """Seconds from "90", "90s", "15m", "2h", "1d"."""
    match = _DURATION.match(text.strip())
    if match is None:
        raise click.BadParameter(f"expected a duration like 30m, 2h or 1d, got {text!r}")
    return float(match.group(1)) * _UNITS[match.group(2)]


def _provider(config_file: str | None):  # type: ignore[no-untyped-def]
    from sandlot.cli.common import load
    from sandlot.plugins import get_plugin_manager
    from sandlot.provider import ProviderContext
    from sandlot_docker.provider import DockerProvider, options_from

    config = load(config_file).config
    options = options_from(config.providers.get("docker", {}))
    return DockerProvider(ProviderContext("docker", options, get_plugin_manager()))


@click.group("docker")
def docker_group() -> None:
    """Docker provider tools: base image, leftover containers."""


@docker_group.command("build-image")
@click.option("--tag", default=None, help="Image name (default: providers.docker.image).")
@click.option("--suite", default=DEFAULT_SUITE, show_default=True, help="Debian suite to debootstrap.")
@click.option("--mirror", default=DEFAULT_MIRROR, show_default=True, help="Debian mirror.")
@click.option("--cache-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep the rootfs tar here and reuse it next time.")
@click.option("--rebuild", is_flag=True, help="Ignore a cached rootfs tar.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), help="Configuration file.")
def build_image_cmd(
    tag: str | None, suite: str, mirror: str, cache_dir: Path | None, rebuild: bool, config_file: str | None
) -> None:
    """Build a minimal Debian image locally (debootstrap + docker import; needs root, no registry)."""
    from sandlot.cli.common import handle_errors

    with handle_errors():
        provider = _provider(config_file)
        tag = tag or provider.options.image
        click.echo(f"building {tag} from Debian {suite} (about 30 s)...", err=True)
        image_id = build_image(provider.api, tag, cache_dir=cache_dir, suite=suite, mirror=mirror, rebuild=rebuild)
    click.echo(f"{tag} {image_id}")


@docker_group.command("gc")
@click.option("--older-than", "older_than", default="1h", show_default=True,
              help="Remove sandbox containers created longer ago than this (e.g. 30m, 2h, 1d, 0).")
@click.option("--label", "labels", multiple=True, metavar="KEY=VALUE",
              help="Only sandboxes created with this label (repeatable).")
@click.option("--dry-run", is_flag=True, help="Only list what would be removed.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), help="Configuration file.")
def gc_cmd(older_than: str, labels: tuple[str, ...], dry_run: bool, config_file: str | None) -> None:
    """Remove sandlot containers (and their volumes) left behind by crashed processes.

    Only containers labelled sandlot.owner=sandlot-docker are ever touched.
    """
    from sandlot.cli.common import handle_errors

    age = parse_duration(older_than)
    wanted = {}
    for item in labels:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"expected KEY=VALUE, got {item!r}", param_hint="--label")
        wanted[key] = value
    with handle_errors():
        removed = _provider(config_file).gc(age, labels=wanted, dry_run=dry_run)
    verb = "would remove" if dry_run else "removed"
    for sandbox_id in removed:
        click.echo(f"{verb} {sandbox_id}")
    click.echo(f"{verb} {len(removed)} sandbox(es)", err=True)


@hookimpl
def sandlot_register_commands(cli: click.Group) -> None:
    cli.add_command(docker_group)
