#!/usr/bin/env bash
# `npm run bench:cluster`: faults under load on the topology of `npm run cluster` (the one
# running, or one started and stopped here). See bench/cluster.ts.
set -uo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/with-cluster.sh npx tsx bench/cluster.ts
