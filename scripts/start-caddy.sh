#!/usr/bin/env bash
# Runs Caddy (Debian's caddy package) in the foreground in front of the API, with the project's
# Caddyfile: anonymous reads come from the pre-rendered artifacts in CACHE_DIR, the rest is
# proxied to the API. Start the API first (`TRUST_PROXY=1 npm start`, so it reads the client
# address from the X-Forwarded-For that Caddy sets), with the same CACHE_DIR.
#
#   FOLIO_CADDY_HOST (127.0.0.1)  FOLIO_CADDY_PORT (8080)  FOLIO_API (127.0.0.1:3000)
#   CACHE_DIR (./content-cache; made absolute here, as Caddy resolves it against its own cwd)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v caddy >/dev/null 2>&1; then
	if [ -x scripts/caddy.sh ]; then
		scripts/caddy.sh install
	else
		echo "start-caddy.sh: caddy is not installed; as root: apt-get update && apt-get install -y caddy" >&2
		exit 1
	fi
fi
CACHE_DIR="$(realpath -m "${CACHE_DIR:-./content-cache}")"
export CACHE_DIR
# CSP_REPORT_URL (the API reads it too): the pages' Content-Security-Policy asks browsers to report there.
export FOLIO_CSP_REPORT="${CSP_REPORT_URL:+; report-uri $CSP_REPORT_URL}"
mkdir -p "$CACHE_DIR"
exec caddy run --config Caddyfile --adapter caddyfile
