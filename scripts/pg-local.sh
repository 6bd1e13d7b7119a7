#!/usr/bin/env bash
# Starts (installing and initialising if needed) a project-local PostgreSQL 15 cluster on a
# loopback port, and prints its base URL. Used by `npm test` when DATABASE_URL is not set.
#   scripts/pg-local.sh start   -> prints postgresql://postgres@127.0.0.1:PORT
#   scripts/pg-local.sh stop
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD/.pg"
DATA="$ROOT/data"
PORT="${PG_LOCAL_PORT:-54329}"
PG_BIN=/usr/lib/postgresql/15/bin

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

ensure_installed() {
  [ -x "$PG_BIN/initdb" ] && return
  [ "$(id -u)" = 0 ] || { echo "PostgreSQL 15 is missing: run 'sudo apt-get install -y postgresql-15'" >&2; exit 1; }
  echo "Installing PostgreSQL 15 (Debian package)..." >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15) >&2
}

start() {
  ensure_installed
  mkdir -p "$ROOT/run"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$ROOT" "$ROOT/run"; fi
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
  if ! as_pg "$PG_BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
    as_pg "$PG_BIN/pg_ctl" -D "$DATA" -l "$ROOT/server.log" -w -t 60 start >/dev/null
  fi
  echo "postgresql://postgres@127.0.0.1:$PORT"
}

stop() {
  [ -f "$DATA/PG_VERSION" ] || return 0
  as_pg "$PG_BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null 2>&1 || true
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
