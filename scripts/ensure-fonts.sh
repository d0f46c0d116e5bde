#!/usr/bin/env bash
# The benches measure the app as a phone shows it, and phones have Chinese fonts. Without one, Chromium
# lays out every Chinese name through font fallback lookups, and those dominate the main-thread work the
# benches measure (Lighthouse, long tasks). On Debian as root a missing CJK font is installed with apt-get
# (fonts-noto-cjk); elsewhere this warns and the benches run anyway.
set -euo pipefail

if command -v fc-list >/dev/null && [ -n "$(fc-list :lang=zh family 2>/dev/null | head -1)" ]; then
  exit 0
fi
if [ -f /etc/debian_version ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "No Chinese font: installing Debian's fonts-noto-cjk for the benches…" >&2
  export DEBIAN_FRONTEND=noninteractive
  # Another install may hold the dpkg lock (two test runs at once): wait for it rather than fail.
  apt-get -o DPkg::Lock::Timeout=600 install -y fonts-noto-cjk >&2 || { apt-get -o DPkg::Lock::Timeout=600 update >&2 && apt-get -o DPkg::Lock::Timeout=600 install -y fonts-noto-cjk >&2; }
  exit 0
fi
echo "Warning: no Chinese font found (install fonts-noto-cjk); browser benches will count font fallback work." >&2
