#!/usr/bin/env bash
# `npm run test:cluster`: starts the topology of `npm run cluster` (or uses the one running), runs
# tests/cluster/ through HAProxy and against each app server, and stops the topology when this
# run started it. Installs what it needs (Debian packages as root, npm packages, the build).
set -uo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
if bash scripts/cluster.sh status >/dev/null 2>&1; then
  echo "== using the running cluster"
else
  trap 'bash scripts/cluster.sh stop' EXIT
  bash scripts/cluster.sh start || exit 1
fi
set -a
# shellcheck disable=SC1090
. "$(bash scripts/cluster.sh state-file)"
set +a
npx vitest run --config vitest.cluster.config.ts
status=$?
echo "npm run test:cluster took $(($(date +%s) - started)) s"
exit $status
