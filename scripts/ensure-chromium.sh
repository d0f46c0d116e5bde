#!/usr/bin/env bash
# Finds Chromium for the end-to-end tests and prints its path on stdout.
# Order: $CHROME_PATH, then /usr/bin/chromium. On Debian as root, a missing Chromium is installed with apt-get
# (never a test tool's own browser download). Elsewhere it says what to install and fails.
set -euo pipefail

if [ -n "${CHROME_PATH:-}" ]; then
  if [ -x "$CHROME_PATH" ]; then echo "$CHROME_PATH"; exit 0; fi
  echo "CHROME_PATH=$CHROME_PATH is not an executable file." >&2
  exit 1
fi

for candidate in /usr/bin/chromium /usr/bin/chromium-browser; do
  if [ -x "$candidate" ]; then echo "$candidate"; exit 0; fi
done

if [ -f /etc/debian_version ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Chromium is missing: installing Debian's chromium package with apt-get…" >&2
  export DEBIAN_FRONTEND=noninteractive
  # Another install may hold the dpkg lock (two test runs at once): wait for it rather than fail.
  apt-get -o DPkg::Lock::Timeout=600 install -y chromium >&2 || { apt-get -o DPkg::Lock::Timeout=600 update >&2 && apt-get -o DPkg::Lock::Timeout=600 install -y chromium >&2; }
  if [ -x /usr/bin/chromium ]; then echo /usr/bin/chromium; exit 0; fi
fi

cat >&2 <<'MSG'
Chromium was not found. The end-to-end tests drive a real Chromium.
  Debian/Ubuntu:  sudo apt-get install -y chromium
  elsewhere:      install Chromium or Chrome and set CHROME_PATH=/path/to/chrome
MSG
exit 1
