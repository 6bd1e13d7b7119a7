#!/usr/bin/env bash
# Starts (installing and initialising if needed) a project-local PostgreSQL 15 cluster on a
# loopback port, and prints its base URL. Used by `npm test` when DATABASE_URL is not set.
#   scripts/pg-local.sh start   -> prints postgresql://postgres@127.0.0.1:PORT
#   scripts/pg-local.sh status  -> exit 0 when the cluster is running
#   scripts/pg-local.sh stop
#   scripts/pg-local.sh dir     -> prints the cluster's folder
# The cluster lives in .pg/ of the project. PostgreSQL refuses to run as root, so as root it runs
# as the `postgres` user, which must be able to reach its folder: when the project lies where that
# user cannot enter (a 0700 home directory, a private temporary folder), the cluster lives in
# /var/tmp/diacare-pg-<hash of the project path> instead. PG_LOCAL_DIR chooses another folder.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PG_LOCAL_PORT:-54329}"
[[ "$PORT" =~ ^[0-9]{1,5}$ ]] || { echo "PG_LOCAL_PORT must be a port number, not '$PORT'" >&2; exit 2; }
PG_BIN=/usr/lib/postgresql/15/bin

as_root() { [ "$(id -u)" = 0 ]; }

as_pg() {
  if as_root; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

cluster_root() {
  if [ -n "${PG_LOCAL_DIR:-}" ]; then echo "$PG_LOCAL_DIR"; return; fi
  local project="$PWD"
  if as_root && ! (cd / && runuser -u postgres -- test -x "$project"); then
    echo "/var/tmp/diacare-pg-$(printf '%s' "$project" | sha256sum | cut -c1-16)"
  else
    echo "$project/.pg"
  fi
}
ROOT="$(cluster_root)"
DATA="$ROOT/data"

ensure_installed() {
  [ -x "$PG_BIN/initdb" ] && return
  as_root || { echo "PostgreSQL 15 is missing: run 'sudo apt-get install -y postgresql-15'" >&2; exit 1; }
  echo "Installing PostgreSQL 15 (Debian package)..." >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15) >&2
}

running() {
  [ -f "$DATA/PG_VERSION" ] && as_pg "$PG_BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1
}

# The end-to-end tests record the statements the app sends (pg_stat_statements, loaded at start):
# scripts/check-patient-scope.ts reads them after Playwright. A cluster made before this setting
# gets it at its next start.
record_statements() {
  grep -q "^shared_preload_libraries = 'pg_stat_statements'" "$DATA/postgresql.conf" && return
  as_pg tee -a "$DATA/postgresql.conf" >/dev/null <<CONF
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.max = 20000
pg_stat_statements.track_utility = off
CONF
}

start() {
  ensure_installed
  mkdir -p "$ROOT/run"
  if as_root; then chmod 700 "$ROOT" && chown postgres: "$ROOT" "$ROOT/run"; fi
  if [ ! -f "$DATA/PG_VERSION" ]; then
    as_pg "$PG_BIN/initdb" -D "$DATA" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
    cat >>"$DATA/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$ROOT/run'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
CONF
  fi
  record_statements
  if ! running; then
    use_port
    as_pg "$PG_BIN/pg_ctl" -D "$DATA" -l "$ROOT/server.log" -w -t 60 start >/dev/null
  fi
  echo "postgresql://postgres@127.0.0.1:$(configured_port)"
}

# A stopped cluster made earlier with another PG_LOCAL_PORT starts on this one; a running cluster
# keeps its port, and start prints the address it answers on.
use_port() {
  grep -q "^port = $PORT\$" "$DATA/postgresql.conf" && return
  as_pg sed -i "s/^port = .*/port = $PORT/" "$DATA/postgresql.conf"
}

configured_port() {
  sed -n 's/^port = \([0-9]*\).*/\1/p' "$DATA/postgresql.conf" | tail -1
}

stop() {
  [ -f "$DATA/PG_VERSION" ] || return 0
  as_pg "$PG_BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null 2>&1 || true
}

case "${1:-start}" in
  start) start ;;
  status) running ;;
  stop) stop ;;
  dir) echo "$ROOT" ;;
  *) echo "usage: $0 start|status|stop|dir" >&2; exit 2 ;;
esac
