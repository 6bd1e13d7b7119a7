#!/usr/bin/env bash
# Runs a command against the topology of `npm run cluster`: the one running, or one started here
# and stopped again when the command ends. The command gets the cluster's addresses and PIDs in
# its environment (the state file of scripts/cluster.sh); its exit status is this script's.
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
"$@"
