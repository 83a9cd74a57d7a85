#!/usr/bin/env bash
# Stop the Docker engine that docker-up.sh started (by the pid dockerd recorded), after
# removing any sandlot sandbox containers and volumes still around. Idempotent.
set -euo pipefail

PIDFILE=/var/run/docker.pid
DOCKER=/usr/bin/docker
[ -x "$DOCKER" ] || DOCKER=docker

step() { printf '[docker-down %5ss] %s\n' "$SECONDS" "$*"; }

if "$DOCKER" version >/dev/null 2>&1; then
    left=$("$DOCKER" ps -aq --filter label=sandlot.owner=sandlot-docker)
    if [ -n "$left" ]; then
        step "removing leftover sandbox containers: $(echo "$left" | wc -l)"
        # shellcheck disable=SC2086 # ids are hex words
        "$DOCKER" rm -f -v $left >/dev/null
    fi
    vols=$("$DOCKER" volume ls -q --filter label=sandlot.owner=sandlot-docker)
    # shellcheck disable=SC2086
    [ -z "$vols" ] || "$DOCKER" volume rm -f $vols >/dev/null
fi

if [ -s "$PIDFILE" ]; then
    pid=$(cat "$PIDFILE")
    if [ -r "/proc/$pid/comm" ] && [ "$(cat "/proc/$pid/comm")" = dockerd ]; then
        step "stopping dockerd (pid $pid)"
        kill -TERM "$pid"
        for _ in $(seq 1 300); do
            [ -d "/proc/$pid" ] || break
            sleep 0.1
        done
        if [ -d "/proc/$pid" ]; then
            echo "docker-down: dockerd (pid $pid) did not stop within 30s" >&2
            exit 1
        fi
    fi
fi
step "done"
