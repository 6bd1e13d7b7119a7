#!/usr/bin/env bash
# Debian's Chromium for Playwright and PDF rendering (browser downloads are not possible here).
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$CHROMIUM" ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "Chromium is missing at $CHROMIUM: run 'sudo apt-get install -y chromium' or set CHROMIUM_PATH" >&2
  exit 1
fi
echo "Installing Chromium (Debian package)..."
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-core fonts-dejavu-core >/dev/null
