#!/usr/bin/env bash
# Installs the npm packages (when package-lock.json changed since the last install) and
# generates the Prisma client. Safe to run again: it does nothing when everything is current.
set -euo pipefail
cd "$(dirname "$0")/.."
export PUPPETEER_SKIP_DOWNLOAD=1 PRISMA_HIDE_UPDATE_MESSAGE=1
stamp=node_modules/.diacare-lock-hash
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "Installing npm packages..."
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
schema_hash=$(sha256sum prisma/schema.prisma | cut -d' ' -f1)
if [ ! -f node_modules/.prisma/client/index.js ] || [ "$(cat node_modules/.diacare-schema-hash 2>/dev/null)" != "$schema_hash" ]; then
  npx prisma generate >/dev/null
  echo "$schema_hash" > node_modules/.diacare-schema-hash
fi
