#!/usr/bin/env bash
# Litestream (continuous replication of SQLite to S3), built from source with Go, like MinIO.
#
#   scripts/litestream.sh install           build (once) into $FOLIO_CACHE_DIR/litestream/bin; prints the binary path
#   scripts/litestream.sh path              print the binary path (exit 1 if not installed at the pinned version)
#   scripts/litestream.sh config            print the litestream.yml the other commands use
#   scripts/litestream.sh replicate [CMD…]  replicate DATA_DIR/folio.db to the bucket, in the foreground, until
#                                           SIGTERM/SIGINT; with CMD (e.g. `npm start`), Litestream runs CMD with
#                                           DB_REPLICATION=litestream and stops (after a last sync) when CMD exits
#   scripts/litestream.sh restore [FILE [FLAGS…]]
#                                           restore the replica's latest state into FILE (default DATA_DIR/folio.db,
#                                           which must not exist); extra Litestream flags after FILE, e.g.
#                                           -timestamp 2026-11-24T09:00:00Z for a point in time
#
# Settings (environment; docs/beyond-one-box.md):
#   DATA_DIR (./data)                 Folio's data folder; the database is DATA_DIR/folio.db
#   REPLICA_S3_ENDPOINT (required)    http(s) URL of the S3 API, e.g. http://127.0.0.1:9000 for MinIO
#   REPLICA_S3_ACCESS_KEY, REPLICA_S3_SECRET_KEY (required)
#   REPLICA_S3_BUCKET (folio-db)      must exist; Litestream does not create it
#   REPLICA_S3_PATH (folio.db)        key prefix of this database's replica inside the bucket
#   REPLICA_S3_REGION (us-east-1)     REPLICA_S3_FORCE_PATH_STYLE (true: bucket in the path, as MinIO wants)
#   REPLICA_SYNC_INTERVAL (1s)        least time between two uploads; with Litestream's look at the WAL every
#                                     second, it bounds the replication lag (about 2 s with the defaults)
#
# The generated config names the keys as ${REPLICA_S3_ACCESS_KEY}/${REPLICA_S3_SECRET_KEY}: Litestream
# expands them from the environment when it reads the file, so no secret is written to disk.
#
# Why this version: v0.5.18 is the newest tag the module proxy serves (`go list -m -versions
# github.com/benbjohnson/litestream`). Litestream's tags are semver, so unlike MinIO no
# pseudo-version is needed. The v0.5 line replicates LTX files (not v0.3's WAL segments),
# reads its SQLite through modernc.org/sqlite (pure Go), so it builds with CGO_ENABLED=0.
set -euo pipefail

GO_TOOL_NAME=litestream
GO_TOOL_MODULE=github.com/benbjohnson/litestream
GO_TOOL_PACKAGE=$GO_TOOL_MODULE/cmd/litestream
GO_TOOL_VERSION=v0.5.18

log() { printf 'litestream.sh: %s\n' "$*" >&2; }

# install and path: built from the module proxy into ${FOLIO_CACHE_DIR:-~/.cache/folio}/litestream/bin.
# shellcheck source=scripts/go-tool.sh
. "$(dirname "$0")/go-tool.sh"

die() {
	log "$*"
	exit 2
}

# Every value the config file holds literally is checked against a plain pattern, so the YAML
# needs no quoting rules and a typo fails here with the variable's name, not inside Litestream.
check() {
	local name="$1" value="$2" pattern="$3" hint="$4"
	[[ "$value" =~ $pattern ]] || die "$name: expected $hint, got \"${value//$'\n'/\\n}\""
}

settings() {
	DATA_DIR="$(realpath -m "${DATA_DIR:-./data}")"
	DB_FILE="$DATA_DIR/folio.db"
	[ -n "${REPLICA_S3_ENDPOINT:-}" ] || die "REPLICA_S3_ENDPOINT: required (the S3 API's URL)"
	check REPLICA_S3_ENDPOINT "$REPLICA_S3_ENDPOINT" '^https?://[]A-Za-z0-9.:[-]+/?$' 'an http(s) URL without a path'
	[ -n "${REPLICA_S3_ACCESS_KEY:-}" ] || die "REPLICA_S3_ACCESS_KEY: required"
	[ -n "${REPLICA_S3_SECRET_KEY:-}" ] || die "REPLICA_S3_SECRET_KEY: required"
	REPLICA_S3_BUCKET="${REPLICA_S3_BUCKET:-folio-db}"
	REPLICA_S3_PATH="${REPLICA_S3_PATH:-folio.db}"
	REPLICA_S3_REGION="${REPLICA_S3_REGION:-us-east-1}"
	REPLICA_S3_FORCE_PATH_STYLE="${REPLICA_S3_FORCE_PATH_STYLE:-true}"
	REPLICA_SYNC_INTERVAL="${REPLICA_SYNC_INTERVAL:-1s}"
	check REPLICA_S3_BUCKET "$REPLICA_S3_BUCKET" '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$' 'an S3 bucket name'
	check REPLICA_S3_PATH "$REPLICA_S3_PATH" '^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$' 'a key prefix like folio.db or blog/folio.db'
	check REPLICA_S3_REGION "$REPLICA_S3_REGION" '^[a-z0-9-]+$' 'a region name'
	check REPLICA_S3_FORCE_PATH_STYLE "$REPLICA_S3_FORCE_PATH_STYLE" '^(true|false)$' 'true or false'
	check REPLICA_SYNC_INTERVAL "$REPLICA_SYNC_INTERVAL" '^[0-9]+(ms|s|m)$' 'a duration like 1s or 500ms'
	check DATA_DIR "$DATA_DIR" '^[^:#"$\\]+$' 'a path without : # " $ or backslash'
	export REPLICA_S3_ACCESS_KEY REPLICA_S3_SECRET_KEY
	# Litestream hands the AWS SDK a plain http.Client, and the SDK then refuses to start when
	# AWS_CA_BUNDLE is set ("unable to add custom RootCAs HTTPClient"). Go reads the same bundle
	# from SSL_CERT_FILE, so a bundle meant for S3 still applies.
	if [ -n "${AWS_CA_BUNDLE:-}" ]; then
		export SSL_CERT_FILE="${SSL_CERT_FILE:-$AWS_CA_BUNDLE}"
		unset AWS_CA_BUNDLE
	fi
}

cmd_config() {
	settings
	cat <<YAML
# Generated by scripts/litestream.sh from the REPLICA_* settings; keys are expanded by Litestream.
dbs:
  - path: $DB_FILE
    replica:
      type: s3
      endpoint: $REPLICA_S3_ENDPOINT
      bucket: $REPLICA_S3_BUCKET
      path: $REPLICA_S3_PATH
      region: $REPLICA_S3_REGION
      force-path-style: $REPLICA_S3_FORCE_PATH_STYLE
      access-key-id: \${REPLICA_S3_ACCESS_KEY}
      secret-access-key: \${REPLICA_S3_SECRET_KEY}
      sync-interval: $REPLICA_SYNC_INTERVAL
YAML
}

# Finds the binary and opens the generated config on descriptor 3: Litestream reads it from there,
# so nothing is left on disk, and the commands exec Litestream so that signals (SIGTERM from a
# supervisor or a test) reach it directly.
prepare() {
	BIN="$(cmd_path)" || die "not installed; run: $0 install"
	settings
	local config
	config="$(cmd_config)"
	exec 3<<<"$config"
}

cmd_replicate() {
	prepare
	if [ "$#" -gt 0 ]; then
		# The service Litestream runs leaves checkpoints to it (src/db/client.ts).
		export DB_REPLICATION=litestream
		exec "$BIN" replicate -config /dev/fd/3 -exec "$(printf '%q ' "$@")"
	fi
	exec "$BIN" replicate -config /dev/fd/3
}

cmd_restore() {
	prepare
	local output="${1:-$DB_FILE}"
	[ "$#" -gt 0 ] && shift
	[ -e "$output" ] && die "$output exists; restore into a fresh DATA_DIR (or move the old file away first)"
	mkdir -p "$(dirname "$output")"
	exec "$BIN" restore -config /dev/fd/3 -o "$output" "$@" "$DB_FILE"
}

case "${1:-}" in
	install) cmd_install ;;
	path) cmd_path ;;
	config) cmd_config ;;
	replicate) shift; cmd_replicate "$@" ;;
	restore) shift; cmd_restore "$@" ;;
	*)
		echo "usage: $0 install | path | config | replicate [CMD...] | restore [FILE [FLAGS...]]" >&2
		exit 2
		;;
esac
