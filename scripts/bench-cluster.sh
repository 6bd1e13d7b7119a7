#!/usr/bin/env bash
# `npm run bench:cluster`: faults under load on the topology of `npm run cluster` (started here,
# or the one running), then stops it when this run started it. See bench/cluster.ts.
set -uo pipefail
cd "$(dirname "$0")/.."
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
npx tsx bench/cluster.ts
