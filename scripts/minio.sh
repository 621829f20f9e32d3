#!/usr/bin/env bash
# A real MinIO server for tests and production-like runs, built from source with Go.
#
#   scripts/minio.sh install              build (once) into $FOLIO_CACHE_DIR/minio/bin; prints the binary path
#   scripts/minio.sh path                 print the binary path (exit 1 if not installed at the pinned version)
#   scripts/minio.sh start DIR PORT       start on 127.0.0.1:PORT with data in DIR; waits until live;
#                                         writes DIR/minio.pid and DIR/minio.log
#   scripts/minio.sh stop DIR             stop the server started with DIR (bounded wait, then SIGKILL)
#
# With FOLIO_OWNER_PID set, start also stops the server once that process is gone.
# Credentials come from MINIO_ROOT_USER / MINIO_ROOT_PASSWORD (test defaults below).
#
# Why a pseudo-version and not a RELEASE tag: MinIO's release tags are not semver, so the
# module proxy only knows commits as pseudo-versions, and the proxy reachable from our
# machines refuses the pseudo-versions of the 2025 RELEASE.* commits ("403 This module
# version is not available"), including RELEASE.2025-10-15T17-29-55Z's
# v0.0.0-20251015172955-9e49d5e7a648. It serves only the module's @latest, the commit of
# 2026-02-12 pinned here (newer than the last RELEASE tag we know of, October 2025). If the proxy
# ever serves the 2025 release, switching MINIO_VERSION to it is a one-line change.
set -euo pipefail
# shellcheck source=scripts/install-once.sh
. "$(dirname "$0")/install-once.sh"

MINIO_MODULE=github.com/minio/minio
MINIO_VERSION=v0.0.0-20260212201848-7aac2a2c5b7c

CACHE_DIR="${FOLIO_CACHE_DIR:-$HOME/.cache/folio}/minio"
BIN_DIR="$CACHE_DIR/bin"
BIN="$BIN_DIR/minio"
READY_TIMEOUT_SECONDS="${MINIO_READY_TIMEOUT:-60}"

log() { printf 'minio.sh: %s\n' "$*" >&2; }

# The module version recorded in the binary itself, so a stale build is never reused.
installed_version() {
	[ -x "$BIN" ] || return 1
	go version -m "$BIN" 2>/dev/null | awk '$1 == "mod" && $2 == "'"$MINIO_MODULE"'" { print $3 }'
}

cmd_path() {
	if [ "$(installed_version || true)" = "$MINIO_VERSION" ]; then
		echo "$BIN"
	else
		return 1
	fi
}

# Two processes of one test run may both ask: build once, under a lock.
cmd_install() { install_once "$CACHE_DIR/install.lock" cmd_path build; }

build() {
	command -v go >/dev/null 2>&1 || { log "go is not on PATH; it is needed to build MinIO"; return 1; }
	mkdir -p "$BIN_DIR"
	log "building $MINIO_MODULE@$MINIO_VERSION with $(go version | awk '{print $3}') (a cold build takes several minutes)"
	local started=$SECONDS tmp_bin
	# Stale build folders of interrupted installs go first; ours goes however we exit.
	rm -rf "$CACHE_DIR"/build.*
	tmp_bin="$(mktemp -d "$CACHE_DIR/build.XXXXXX")"
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp_bin'" EXIT
	# GOTOOLCHAIN=local: build with the Go that is here, never download another toolchain.
	# CGO_ENABLED=0: a static binary, no C compiler needed.
	if ! GOBIN="$tmp_bin" GOTOOLCHAIN=local CGO_ENABLED=0 \
		go install "$MINIO_MODULE@$MINIO_VERSION"; then
		rm -rf "$tmp_bin"
		log "go install failed"
		return 1
	fi
	mv -f "$tmp_bin/minio" "$BIN"
	rm -rf "$tmp_bin"
	log "built in $((SECONDS - started))s: $BIN"
}

cmd_start() {
	local dir="${1:?usage: start DIR PORT}" port="${2:?usage: start DIR PORT}"
	local bin
	bin="$(cmd_path)" || { log "not installed; run: $0 install"; return 1; }
	mkdir -p "$dir/data"
	local pidfile="$dir/minio.pid" logfile="$dir/minio.log"
	if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
		log "already running (pid $(cat "$pidfile"))"
		return 1
	fi
	# Loopback only; console on its own loopback port next to the API; no update checks,
	# no telemetry, no browser console needed for tests.
	MINIO_ROOT_USER="${MINIO_ROOT_USER:-folio-test}" \
		MINIO_ROOT_PASSWORD="${MINIO_ROOT_PASSWORD:-folio-test-secret}" \
		MINIO_BROWSER=off \
		MINIO_UPDATE=off \
		MINIO_CALLHOME_ENABLE=off \
		nohup "$bin" server --quiet \
		--address "127.0.0.1:$port" \
		--console-address "127.0.0.1:0" \
		"$dir/data" >"$logfile" 2>&1 </dev/null &
	local pid=$!
	echo "$pid" >"$pidfile"

	# If the test process that asked for this server dies without calling stop, take the
	# server down with it instead of leaving it running. The loop ends with either process.
	if [ -n "${FOLIO_OWNER_PID:-}" ]; then
		(
			while kill -0 "$FOLIO_OWNER_PID" 2>/dev/null && kill -0 "$pid" 2>/dev/null; do sleep 1; done
			kill -TERM "$pid" 2>/dev/null || true
		) >/dev/null 2>&1 </dev/null &
		disown
	fi

	local deadline=$((SECONDS + READY_TIMEOUT_SECONDS))
	until curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$port/minio/health/live" 2>/dev/null; do
		if ! kill -0 "$pid" 2>/dev/null; then
			log "exited before it was ready; log follows"
			cat "$logfile" >&2
			rm -f "$pidfile"
			return 1
		fi
		if [ "$SECONDS" -ge "$deadline" ]; then
			log "not ready after ${READY_TIMEOUT_SECONDS}s; stopping it; log follows"
			cat "$logfile" >&2
			cmd_stop "$dir" || true
			return 1
		fi
		sleep 0.2
	done
	log "ready on http://127.0.0.1:$port (pid $pid)"
}

cmd_stop() {
	local dir="${1:?usage: stop DIR}"
	local pidfile="$dir/minio.pid"
	[ -f "$pidfile" ] || return 0
	local pid
	pid="$(cat "$pidfile")"
	if kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		local i
		for i in $(seq 1 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
	fi
	rm -f "$pidfile"
}

case "${1:-}" in
	install) cmd_install ;;
	path) cmd_path ;;
	start) shift; cmd_start "$@" ;;
	stop) shift; cmd_stop "$@" ;;
	*)
		echo "usage: $0 install | path | start DIR PORT | stop DIR" >&2
		exit 2
		;;
esac
