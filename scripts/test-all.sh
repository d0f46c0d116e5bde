#!/usr/bin/env bash
# `npm test`: every check, in the order that fails fastest — typecheck, lint, unit, server (SQLite and
# PostgreSQL), build, end-to-end in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says when it started (seconds since the start), so a slow step shows in CI's log.
step() { printf '\n\033[1m== [%ds] %s\033[0m\n' "$SECONDS" "$*"; }

step "typecheck and lint (side by side: each is one process, the machine has two cores)"
npm run --silent i18n
npx tsc -b &
typecheck=$!
npm run --silent lint &
lint=$!
wait "$typecheck" || { echo "typecheck failed" >&2; wait "$lint" || true; exit 1; }
wait "$lint" || { echo "lint failed" >&2; exit 1; }

step "unit tests"
npx vitest run --project unit

step "server tests"
export PAPERDESK_TEST_PG_URL="${PAPERDESK_TEST_PG_URL:-postgres://postgres@127.0.0.1:5432/test}"
if node scripts/check-postgres.mjs; then
  echo "PostgreSQL answers at $PAPERDESK_TEST_PG_URL: the server suite runs on SQLite and on PostgreSQL."
else
  if [ "${CI:-}" = "true" ]; then
    echo "CI=true and PostgreSQL is not reachable: failing instead of skipping the PostgreSQL suite." >&2
    exit 1
  fi
  echo "NOTE: the PostgreSQL server suite is SKIPPED because PostgreSQL does not answer at $PAPERDESK_TEST_PG_URL."
  echo "      Only the SQLite suite runs. Start PostgreSQL (or set PAPERDESK_TEST_PG_URL) to run both."
  unset PAPERDESK_TEST_PG_URL
fi
npx vitest run --project server

step "build"
npm run --silent build

step "end-to-end tests (Chromium, 390×844)"
CHROME_PATH="$(bash scripts/ensure-chromium.sh)"
export CHROME_PATH
echo "Chromium: $CHROME_PATH"
npx vitest run --project e2e

printf '\n\033[1;32mAll checks passed in %ds.\033[0m\n' "$SECONDS"
