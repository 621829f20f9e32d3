#!/usr/bin/env bash
# Caddy for tests and production-like runs.
#
#   scripts/caddy.sh install   install Debian's caddy package unless `caddy` is on PATH
#
# We always run caddy ourselves (foreground, our own Caddyfile, loopback ports), so the
# package's own service must neither start nor hold :80/:443/:2019 behind our back.
set -euo pipefail

log() { printf 'caddy.sh: %s\n' "$*" >&2; }

install_caddy() {
	if command -v caddy >/dev/null 2>&1; then
		log "already installed: $(caddy version 2>/dev/null | head -n1)"
		return 0
	fi
	if [ "$(id -u)" -ne 0 ]; then
		log "caddy is not on PATH and installing it needs root."
		log "run as root:  apt-get update && apt-get install -y caddy   (then re-run)"
		return 1
	fi

	# Test files may ask at once, and test/support/chromium.ts installs with apt too: one apt run at
	# a time under this lock (the second finds caddy installed), and each waits for dpkg's own lock.
	local lock="${FOLIO_CACHE_DIR:-$HOME/.cache/folio}/apt.lock"
	mkdir -p "$(dirname "$lock")"
	exec 9>"$lock"
	flock 9
	if command -v caddy >/dev/null 2>&1; then
		log "installed meanwhile: $(caddy version 2>/dev/null | head -n1)"
		return 0
	fi

	# Keep the package from starting its service while it installs: invoke-rc.d obeys
	# policy-rc.d (exit 101 = "action forbidden"). Only create one if none exists, and
	# remove only the one we created.
	local policy=/usr/sbin/policy-rc.d created_policy=0
	if [ ! -e "$policy" ]; then
		printf '#!/bin/sh\nexit 101\n' >"$policy"
		chmod 755 "$policy"
		created_policy=1
	fi
	# shellcheck disable=SC2064
	trap "[ $created_policy = 1 ] && rm -f '$policy'" EXIT

	export DEBIAN_FRONTEND=noninteractive
	apt-get -o DPkg::Lock::Timeout=600 update -qq
	apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends caddy >/dev/null

	# On a machine booted with systemd the unit is enabled and may already be running
	# (policy-rc.d does not stop deb-systemd-invoke on every release): turn it off.
	if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
		systemctl disable --now caddy.service >/dev/null 2>&1 || true
	fi

	command -v caddy >/dev/null 2>&1 || { log "caddy did not install"; return 1; }
	log "installed: $(caddy version | head -n1)"
}

case "${1:-}" in
	install) install_caddy ;;
	*)
		echo "usage: $0 install" >&2
		exit 2
		;;
esac
