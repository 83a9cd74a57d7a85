"""``sandlot providers``: installed provider plugins and whether they can run here."""

from __future__ import annotations

import json
from typing import Any

import click

from sandlot.cli.common import handle_errors
from sandlot.plugins import get_plugin_manager
from sandlot.registry import ProviderRegistry


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def providers(as_json: bool) -> None:
    """List installed providers: distribution, version, availability, capabilities."""
    with handle_errors():
        registry = ProviderRegistry(get_plugin_manager())
        rows: list[dict[str, Any]] = []
        for entry in registry.all():
            availability = registry.availability(entry.name)
            rows.append(
                {
                    "name": entry.name,
                    "description": entry.type.description,
                    "distribution": entry.plugin.distribution,
                    "version": entry.plugin.version,
                    "isolating": entry.type.isolating,
                    "available": availability.ok,
                    "reason": availability.reason,
                    "fix": availability.fix,
                    "capabilities": sorted(c.value for c in entry.type.capabilities),
                    "features": sorted(f.value for f in entry.type.features),
                }
            )
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        click.echo("no providers installed; pip install sandlot-bwrap (Linux) or sandlot-docker")
        return
    for row in rows:
        status = "available" if row["available"] else f"unavailable: {row['reason']}"
        if row["fix"]:
            status += f" (fix: {row['fix']})"
        isolation = "" if row["isolating"] else " [NO ISOLATION]"
        click.echo(f"{row['name']}{isolation}  {row['distribution']} {row['version']}  {status}")
        if row["description"]:
            click.echo(f"    {row['description']}")
        click.echo(f"    enforces: {', '.join(row['capabilities']) or 'nothing'}")
        click.echo(f"    features: {', '.join(row['features']) or 'none'}")
