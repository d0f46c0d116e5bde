#!/usr/bin/env bash
# npm start: build the app quietly (its full output only when it fails), then start the test station,
# whose stdout is one line, the URL to open (its logs go to stderr).
set -uo pipefail
log="$(mktemp)"
started=$SECONDS
if ! npm run --silent build >"$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log"
  echo "npm start: the build failed (its output is above)." >&2
  exit 1
fi
rm -f "$log"
echo "Built the app in $((SECONDS - started)) s. Starting the test station…"
exec npx tsx server/main.ts
