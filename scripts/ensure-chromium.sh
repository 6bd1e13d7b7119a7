#!/usr/bin/env bash
# Debian's Chromium for Playwright and PDF rendering (browser downloads are not possible here),
# and poppler-utils (pdftotext, pdfinfo) with which the tests read the PDFs.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
packages=()
[ -x "$CHROMIUM" ] || packages+=(chromium fonts-noto-core fonts-dejavu-core)
command -v pdftotext >/dev/null && command -v pdfinfo >/dev/null || packages+=(poppler-utils)
[ ${#packages[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "Missing: ${packages[*]} (Chromium expected at $CHROMIUM): run 'sudo apt-get install -y ${packages[*]}' or set CHROMIUM_PATH" >&2
  exit 1
fi
echo "Installing ${packages[*]} (Debian packages)..."
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
