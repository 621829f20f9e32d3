#!/usr/bin/env bash
# The whole suite: type check, then every bun:test file (unit and end-to-end). Test files that
# need Caddy or MinIO install and start them themselves through scripts/caddy.sh and scripts/minio.sh.
#
# Files run in TEST_PARALLEL worker processes (default 2, the CI box's cores; 1 runs them one after
# another), each file isolated in its own process state. Every file is safe beside another: servers,
# Caddy and MinIO take free loopback ports, data lives in fresh temp folders, tool installs take a
# lock (docs/testing.md). test/timings.json (per-file durations, ms) starts the slowest files first
# so both workers finish together; TEST_UPDATE_TIMINGS=1 rewrites it from this run.
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
args=(--timeout 60000 --parallel="${TEST_PARALLEL:-2}" --timings=test/timings.json)
[[ "${TEST_UPDATE_TIMINGS:-}" == 1 ]] && args+=(--update-timings)
"$BUN" test "${args[@]}" "$@" 2>&1 | tee "$log" || status=$?
# One plain closing line for CI: bun prints its counts as " N pass" / " N fail".
passed=$(grep -Eo '^ *[0-9]+ pass$' "$log" | tail -1 | tr -dc '0-9')
failed=$(grep -Eo '^ *[0-9]+ fail$' "$log" | tail -1 | tr -dc '0-9')
# CI keeps only the tail of this output: repeat each failure there with its file and the lines bun
# printed before it (the error and its stack), since bun's own summary can say just "(unnamed)".
if [[ "${failed:-0}" != 0 ]]; then
  echo "== failures, with the output before each"
  awk '/^[0-9]+ tests? failed:$/ { exit }
    /^test\/.*\.test\.ts:$|^src\/.*\.test\.ts:$/ { file = $0; start = NR }
    { ring[NR % 25] = $0 }
    /^\(fail\)/ && !seen[file $0]++ { print "-- in " file; for (i = (NR - 24 > start ? NR - 24 : start + 1); i <= NR; i++) print ring[i % 25] }' "$log" | tail -c 20000
fi
echo "tests: ${passed:-0} passed, ${failed:-0} failed"
exit "$status"
