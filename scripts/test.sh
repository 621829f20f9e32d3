#!/usr/bin/env bash
# The whole suite: type check, then every bun:test file (unit and end-to-end). Test files that
# need Caddy or MinIO install and start them themselves through scripts/caddy.sh and scripts/minio.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=./node_modules/.bin/bun
echo "== type check (tsc --noEmit)"
./node_modules/.bin/tsc --noEmit -p tsconfig.json
bash scripts/house.sh
echo "== tests (bun test)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
"$BUN" test --timeout 30000 "$@" 2>&1 | tee "$log" || status=$?
# One plain closing line for CI: bun prints its counts as " N pass" / " N fail".
passed=$(grep -Eo '^ *[0-9]+ pass$' "$log" | tail -1 | tr -dc '0-9')
failed=$(grep -Eo '^ *[0-9]+ fail$' "$log" | tail -1 | tr -dc '0-9')
echo "tests: ${passed:-0} passed, ${failed:-0} failed"
exit "$status"
