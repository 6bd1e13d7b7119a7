#!/usr/bin/env bash
# `npm run demo`: install, build and start DiaCare on the embedded database with demo data.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/ensure-chromium.sh || echo "Chromium is not installed: PDF downloads will not work." >&2
npx remix build >/dev/null
exec npm start --silent
