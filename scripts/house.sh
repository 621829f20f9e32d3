#!/usr/bin/env bash
# The house kept clean by machine, before the tests (issue 24): no import cycle, no dead file,
# export, type or dependency, every file formatted. Each check takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=./node_modules/.bin

echo "== import cycles (dpdm)"
# Cycles allowed: none. A cycle that must stay a while is written here as dpdm prints it, with why;
# the check fails on a listed cycle that no longer exists, too.
KNOWN_CYCLES=()
cycles=$("$BIN/dpdm" --no-tree --no-warning --no-progress 'src/**/*.ts' 'src/**/*.tsx' | sed -n 's/^ *[0-9]*) //p' | sed 's/\x1b\[[0-9;]*m//g')
unexpected=$(comm -23 <(printf '%s\n' "$cycles" | sed '/^$/d' | sort) <(printf '%s\n' "${KNOWN_CYCLES[@]}" | sort))
gone=$(comm -13 <(printf '%s\n' "$cycles" | sed '/^$/d' | sort) <(printf '%s\n' "${KNOWN_CYCLES[@]}" | sed '/^$/d' | sort))
if [[ -n "$unexpected" ]]; then
  printf 'import cycle(s):\n%s\n' "$unexpected" >&2
  exit 1
fi
if [[ -n "$gone" ]]; then
  printf 'a known cycle is gone: remove it from KNOWN_CYCLES in scripts/house.sh:\n%s\n' "$gone" >&2
  exit 1
fi

echo "== unused files, exports, types and dependencies (knip)"
"$BIN/knip" --no-progress

echo "== formatting (prettier --check)"
"$BIN/prettier" --check --cache --log-level warn .
