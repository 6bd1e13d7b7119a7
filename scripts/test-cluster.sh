#!/usr/bin/env bash
# `npm run test:cluster`: runs tests/cluster/ through HAProxy and against each app server of the
# topology of `npm run cluster` (the one running, or one started and stopped here, which installs
# the Debian packages it needs as root).
set -uo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
bash scripts/with-cluster.sh npx vitest run --config vitest.cluster.config.ts
status=$?
echo "npm run test:cluster took $(($(date +%s) - started)) s"
exit $status
