#!/usr/bin/env bash
# The Python tools the contract tests use, pinned, in one cached virtualenv (like scripts/minio.sh
# caches MinIO): openapi-spec-validator (is the OpenAPI document valid?), Schemathesis (does
# the live server keep it?) and feedparser (do readers understand every RSS and Atom feed?). A
# fresh clone installs them on first use; later runs reuse the venv.
#
#   scripts/pytools.sh install        create/update the venv (once per pinned set); prints its bin folder
#   scripts/pytools.sh bin            print the bin folder (exit 1 if not installed at the pinned set)
set -euo pipefail
# shellcheck source=scripts/install-once.sh
. "$(dirname "$0")/install-once.sh"

# Bump a pin here; the stamp below makes the next run reinstall.
# Hypothesis is pinned too: Schemathesis accepts a range, and a new release changes what is generated.
PACKAGES=(openapi-spec-validator==0.9.0 schemathesis==4.32.5 hypothesis==6.170.15 feedparser==6.0.12)

CACHE_DIR="${FOLIO_CACHE_DIR:-$HOME/.cache/folio}"
VENV="$CACHE_DIR/venv"
STAMP="$VENV/.folio-packages"
WANTED="${PACKAGES[*]}"

log() { printf 'pytools.sh: %s\n' "$*" >&2; }

cmd_bin() {
	[ -x "$VENV/bin/python" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$WANTED" ] || return 1
	echo "$VENV/bin"
}

# Several test files may ask at once: install once, under a lock.
cmd_install() { install_once "$CACHE_DIR/venv.lock" cmd_bin build; }

build() {
	command -v python3 >/dev/null 2>&1 || { log "python3 is not on PATH; it is needed for openapi-spec-validator and schemathesis"; return 1; }
	log "installing ${WANTED} into $VENV"
	local started=$SECONDS
	rm -f "$STAMP"
	[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
	"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "${PACKAGES[@]}" >&2
	echo "$WANTED" >"$STAMP"
	log "installed in $((SECONDS - started))s"
}

case "${1:-}" in
	install) cmd_install ;;
	bin) cmd_bin ;;
	*)
		echo "usage: $0 install | bin" >&2
		exit 2
		;;
esac
