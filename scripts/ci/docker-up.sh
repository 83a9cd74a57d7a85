#!/usr/bin/env bash
# Bring up a Docker engine and the sandlot test image. Idempotent: every step is skipped
# when its result is already there, so a second run costs about a second.
#
# Environment:
#   SANDLOT_DOCKER_IMAGE   image to build if missing        (default sandlot-test:bookworm)
#   SANDLOT_DOCKER_CACHE   directory caching the rootfs tar (default ${XDG_CACHE_HOME:-~/.cache}/sandlot-docker)
#   SANDLOT_DOCKERD_LOG    dockerd log file                 (default /tmp/sandlot-dockerd.log)
#   SANDLOT_DEBIAN_MIRROR  Debian mirror for debootstrap    (default http://deb.debian.org/debian)
set -euo pipefail

IMAGE=${SANDLOT_DOCKER_IMAGE:-sandlot-test:bookworm}
CACHE=${SANDLOT_DOCKER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sandlot-docker}
LOG=${SANDLOT_DOCKERD_LOG:-/tmp/sandlot-dockerd.log}
MIRROR=${SANDLOT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SOCK=/var/run/docker.sock
# The Debian engine package's client speaks the engine's API version; prefer it when both exist.
DOCKER=/usr/bin/docker
[ -x "$DOCKER" ] || DOCKER=docker

step() { printf '[docker-up %5ss] %s\n' "$SECONDS" "$*"; }

if ! command -v dockerd >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
    step "installing docker.io and debootstrap"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq docker.io debootstrap >/dev/null
    [ -x /usr/bin/docker ] && DOCKER=/usr/bin/docker
fi

# A pid file left by a dockerd (or its containerd) that was killed rather than stopped makes a new
# dockerd refuse to start; a pid that is gone, a zombie or another program is stale.
stale_pidfile() {
    local file=$1 name=$2 pid state
    [ -f "$file" ] || return 1
    pid=$(cat "$file" 2>/dev/null) || return 0
    [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || return 0
    state=$(sed 's/.*) //' "/proc/$pid/stat" | cut -d' ' -f1)
    [ "$state" = Z ] && return 0
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$name" ] || return 0
    return 1
}

if ! "$DOCKER" version >/dev/null 2>&1; then
    for entry in /var/run/docker.pid:dockerd /var/run/docker/containerd/containerd.pid:containerd; do
        if stale_pidfile "${entry%%:*}" "${entry##*:}"; then
            step "removing stale ${entry%%:*}"
            rm -f "${entry%%:*}"
        fi
    done
    step "starting dockerd (log: $LOG)"
    # --iptables=false: this VM has no usable iptables; sandboxes default to network none anyway.
    nohup dockerd --iptables=false >"$LOG" 2>&1 </dev/null &
    for _ in $(seq 1 600); do
        if [ -S "$SOCK" ] && "$DOCKER" version >/dev/null 2>&1; then break; fi
        sleep 0.1
    done
    if ! "$DOCKER" version >/dev/null 2>&1; then
        echo "docker-up: dockerd did not come up within 60s; last log lines:" >&2
        tail -20 "$LOG" >&2 || true
        exit 1
    fi
fi
step "engine ready: $("$DOCKER" version --format '{{.Server.Version}}')"

if "$DOCKER" image inspect "$IMAGE" >/dev/null 2>&1; then
    step "image $IMAGE present"
else
    mkdir -p "$CACHE"
    tarball="$CACHE/$(printf '%s' "$IMAGE" | tr '/:' '__').rootfs.tar"
    if [ ! -s "$tarball" ]; then
        # Built by the plugin's own builder, so CI exercises the user-facing command.
        step "building rootfs with debootstrap into $tarball"
        python3 -m sandlot_docker --mirror "$MIRROR" --output "$tarball"
    fi
    step "importing $tarball as $IMAGE"
    python3 -m sandlot_docker --import-tar "$tarball" --tag "$IMAGE"
fi
step "done"
