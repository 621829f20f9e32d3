#!/usr/bin/env bash
# The long Schemathesis run: every phase (examples, coverage, fuzzing, stateful) and 200 examples
# per operation against a fresh live server, with the checks of `npm test` (no 5xx; status, content
# type, headers and body as the OpenAPI document says). `npm test` runs the same test with a
# small budget. Takes several minutes to an hour, depending on the machine.
#
#   scripts/schemathesis.sh                                  seed 20261124, 200 examples
#   FOLIO_SCHEMATHESIS_SEED=7 FOLIO_SCHEMATHESIS_EXAMPLES=500 scripts/schemathesis.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/pytools.sh install >/dev/null
FOLIO_SCHEMATHESIS=long exec ./node_modules/.bin/bun test --timeout 3660000 test/publishing/schemathesis.test.ts
