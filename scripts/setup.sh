#!/usr/bin/env bash
# Set up a fresh Debian machine for sandlot: system packages, a .venv with every package
# of this repository installed editable, and (with --with-docker) a Docker engine and the
# locally built test image. Idempotent: a second run only checks.
set -euo pipefail
cd "$(dirname "$0")/.."

with_docker=0
for arg in "$@"; do
    case "$arg" in
        --with-docker) with_docker=1 ;;
        *) echo "usage: scripts/setup.sh [--with-docker]" >&2; exit 2 ;;
    esac
done

step() { printf '[setup %5ss] %s\n' "$SECONDS" "$*"; }

missing=()
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
command -v runuser >/dev/null 2>&1 || missing+=(util-linux)
# the test suite runs the generic file backend on busybox's sh and tools too
[ "$with_docker" = 1 ] && ! command -v busybox >/dev/null 2>&1 && missing+=(busybox)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup: please install: ${missing[*]} (as root: apt-get install ${missing[*]})" >&2
        exit 1
    fi
    step "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
    step "creating .venv"
    python3 -m venv .venv
fi

packages=(-e ./core)
for project in plugins/*/pyproject.toml contrib/*/pyproject.toml; do
    [ -f "$project" ] && packages+=(-e "./$(dirname "$project")")
done
step "installing ${packages[*]} and the dev tools"
.venv/bin/python -m pip install -q --disable-pip-version-check "${packages[@]}" -e '.[dev]'

if [ "$with_docker" -eq 1 ]; then
    step "Docker engine and test image"
    PATH="$PWD/.venv/bin:$PATH" bash scripts/ci/docker-up.sh
fi
step "ready"
