#!/usr/bin/env bash
# `npm run cluster` / `npm run cluster:stop`: the production topology on one machine, on loopback
# ports, from Debian packages (installed with apt-get when missing, as root):
#
#   HAProxy :3501 (round robin, health check GET /readyz)
#     -> app server :3502, app server :3503   (the production build, `npm start`'s environment)
#          writes, sessions, queue -> PgBouncer :54403 (transaction mode) -> primary :54401
#          lag-tolerant reads      -> PgBouncer :54404 (transaction mode) -> standby :54402
#          migrations, job queue   -> primary :54401 directly
#   PDF worker (server/pdf-worker.ts): render jobs from the job queue on the primary, print pages
#          loaded through HAProxy; the app servers run PDF_RENDERER=queue (no Chromium of their own)
#   PostgreSQL 15 primary :54401 -- streaming replication --> hot standby :54402 (pg_basebackup -R)
#
#   scripts/cluster.sh start    starts what is not running; says so when everything already runs
#   scripts/cluster.sh stop     stops exactly what `start` started (the PIDs in the state file)
#   scripts/cluster.sh status   exit 0 when everything runs; prints the state file
#   scripts/cluster.sh clean    stop, then delete the cluster's folder (databases included)
#   scripts/cluster.sh state-file   prints the state file's path (shell variables: URLs, PIDs, dirs)
#   scripts/cluster.sh restart-app N   stops app server N (0 or 1) with SIGTERM and starts it again
#   scripts/cluster.sh start-worker N  starts PDF worker N (0 runs with the cluster; 1 is a second
#                                      one for tests) unless it runs, and waits until it is ready
#   scripts/cluster.sh stop-worker N   SIGTERM to PDF worker N: it finishes its renders, then exits
#   scripts/cluster.sh restart-worker N   stop-worker N, then start-worker N
#
# Ports: CLUSTER_HTTP_PORT (HAProxy; the app servers take the next two) and CLUSTER_PG_PORT
# (primary; standby, primary pooler and standby pooler take the next three). The folder (data,
# configuration, logs, state file) is /var/tmp/diacare-cluster-<hash of the project path>, or
# CLUSTER_DIR. PostgreSQL and PgBouncer refuse to run as root: as root they run as `postgres`.
set -euo pipefail
cd "$(dirname "$0")/.."
# haproxy and pgbouncer live in /usr/sbin, which an ordinary user's PATH may lack.
PATH="$PATH:/usr/sbin"
PROJECT="$PWD"
HTTP_PORT="${CLUSTER_HTTP_PORT:-3501}"
PG_PORT="${CLUSTER_PG_PORT:-54401}"
APP_PORTS=("$((HTTP_PORT + 1))" "$((HTTP_PORT + 2))")
STANDBY_PORT=$((PG_PORT + 1))
BOUNCER_PRIMARY_PORT=$((PG_PORT + 2))
BOUNCER_STANDBY_PORT=$((PG_PORT + 3))
DB=diacare
HOST=127.0.0.1
PG_BIN=/usr/lib/postgresql/15/bin
ROOT="${CLUSTER_DIR:-/var/tmp/diacare-cluster-$(printf '%s' "$PROJECT" | sha256sum | cut -c1-12)}"
STATE="$ROOT/state"
STATE_FILE="$STATE/cluster.env"

as_root() { [ "$(id -u)" = 0 ]; }
as_pg() { if as_root; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi; }
# A process that runs (a zombie, killed but not yet reaped, does not count).
alive() {
  [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null || return 1
  [ "$(awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null)" != Z ]
}
say() { echo "[cluster] $*" >&2; }

ensure_packages() {
  local missing=()
  [ -x "$PG_BIN/initdb" ] || missing+=(postgresql-15)
  command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
  command -v pgbouncer >/dev/null || [ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
  [ ${#missing[@]} -eq 0 ] && return
  as_root || { say "missing: ${missing[*]}: run 'sudo apt-get install -y ${missing[*]}'"; exit 1; }
  say "installing ${missing[*]} (Debian packages)..."
  # RUNLEVEL=1: the packages' own services (a system-wide HAProxy, PgBouncer) are not started.
  (apt-get update -qq && RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq "${missing[@]}") >/dev/null
}

pg_running() { [ -f "$1/PG_VERSION" ] && as_pg "$PG_BIN/pg_ctl" -D "$1" status >/dev/null 2>&1; }
pg_pid() { head -1 "$1/postmaster.pid" 2>/dev/null || true; }
psql_primary() { as_pg "$PG_BIN/psql" -h "$HOST" -p "$PG_PORT" -U postgres -X -q -At "$@"; }

start_primary() {
  local data="$ROOT/primary"
  if [ ! -f "$data/PG_VERSION" ]; then
    as_pg "$PG_BIN/initdb" -D "$data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
    # initdb's pg_hba.conf already lets local connections replicate (trust, loopback only).
    cat >>"$data/postgresql.conf" <<CONF
listen_addresses = '$HOST'
port = $PG_PORT
unix_socket_directories = '$ROOT/run'
max_connections = 200
wal_level = replica
max_wal_senders = 5
max_replication_slots = 5
hot_standby = on
# A test and demo cluster: durability of the machine's disk is not its point.
fsync = off
CONF
  fi
  pg_running "$data" || as_pg "$PG_BIN/pg_ctl" -D "$data" -l "$ROOT/primary.log" -w -t 60 start >/dev/null
  if [ -z "$(psql_primary -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$DB'")" ]; then
    psql_primary -d postgres -c "CREATE DATABASE $DB"
    echo fresh >"$STATE/fresh"
  fi
}

start_standby() {
  local data="$ROOT/standby"
  if [ ! -f "$data/PG_VERSION" ]; then
    # A copy of the primary that follows it: -R writes standby.signal and primary_conninfo, -C -S
    # makes a replication slot so the primary keeps the WAL the standby has not received yet.
    psql_primary -d postgres -c "SELECT pg_drop_replication_slot('diacare_standby')
      FROM pg_replication_slots WHERE slot_name = 'diacare_standby'" >/dev/null
    as_pg "$PG_BIN/pg_basebackup" -h "$HOST" -p "$PG_PORT" -U postgres -D "$data" \
      -R -X stream -C -S diacare_standby --checkpoint=fast
    cat >>"$data/postgresql.conf" <<CONF
port = $STANDBY_PORT
# Long reads on the standby are not cancelled by the primary's cleanup (it keeps the rows a read
# still sees until the standby is done).
hot_standby_feedback = on
CONF
  fi
  pg_running "$data" || as_pg "$PG_BIN/pg_ctl" -D "$data" -l "$ROOT/standby.log" -w -t 60 start >/dev/null
}

start_bouncer() {
  local name=$1 listen=$2 target=$3 pidfile="$STATE/pgbouncer-$1.pid"
  alive "$(cat "$pidfile" 2>/dev/null)" && return
  sed -e "s|@STATE@|$STATE|g" -e "s|@DB@|$DB|g" -e "s|@PG_PORT@|$target|g" \
    -e "s|@LISTEN_PORT@|$listen|g" -e "s|@NAME@|$name|g" \
    deploy/cluster/pgbouncer.ini >"$STATE/pgbouncer-$name.ini"
  if [ "$name" = standby ]; then
    # With the standby down, a read waits 3 s at most before the app reads from the primary.
    printf '%s\n' "query_wait_timeout = 3" "client_login_timeout = 3" "server_login_retry = 1" >>"$STATE/pgbouncer-$name.ini"
  fi
  as_pg pgbouncer -d "$STATE/pgbouncer-$name.ini"
  wait_for "PgBouncer $name" 30 bash -c "[ -s '$pidfile' ]"
}

url() { echo "postgresql://postgres@$HOST:$1/$DB$2"; }

# The environment of the app servers and the PDF worker (`npm start`'s, PDFs from the queue).
app_env() {
  export NODE_ENV=production NODE_OPTIONS="--max-old-space-size=768 ${NODE_OPTIONS:-}"
  export HOST APP_URL="http://$HOST:$HTTP_PORT" TRUST_PROXY=1 PDF_RENDERER=queue
  export DEPLOY_ENV="${CLUSTER_DEPLOY_ENV:-demo}" SESSION_SECRET
  SESSION_SECRET=$(cat "$STATE/session-secret")
  export DATABASE_URL DIRECT_DATABASE_URL DATABASE_READ_URL
  DATABASE_URL=$(url "$BOUNCER_PRIMARY_PORT" "?pgbouncer=true")
  DIRECT_DATABASE_URL=$(url "$PG_PORT" "")
  DATABASE_READ_URL=$(url "$BOUNCER_STANDBY_PORT" "?pgbouncer=true")
  export OUTBOX_DIR="$STATE/outbox"
}

start_app() {
  local i=$1 port=${APP_PORTS[$1]} pidfile="$STATE/app-$1.pid"
  alive "$(cat "$pidfile" 2>/dev/null)" && return
  # Its own process group (setsid), so that stop ends tsx and node together.
  (
    app_env
    export PORT=$port DATA_DIR="$STATE/app-$i"
    export RATE_LIMIT_SIGNIN_PER_IP="${CLUSTER_RATE_LIMIT_SIGNIN_PER_IP:-30}"
    exec setsid node_modules/.bin/tsx server/start.ts >"$STATE/app-$i.log" 2>&1 </dev/null
  ) &
  echo $! >"$pidfile"
}

# PDF worker N: loads print pages through HAProxy (the app's origin). Its log is appended to, so
# that a restarted worker's log still shows what the one before it did.
start_worker() {
  local i=$1 pidfile="$STATE/worker-$1.pid" log="$STATE/worker-$1.log" before
  alive "$(cat "$pidfile" 2>/dev/null)" && return
  before=$(grep -c '"msg":"pdf worker ready"' "$log" 2>/dev/null || true)
  (
    app_env
    export PDF_RENDER_URL="$APP_URL" DATA_DIR="$STATE/worker-$i"
    # Its own process group (setsid): stop ends tsx, node and its Chromium's pipe together.
    exec setsid node_modules/.bin/tsx server/pdf-worker.ts >>"$log" 2>&1 </dev/null
  ) &
  echo $! >"$pidfile"
  wait_for "PDF worker $i (log: $log)" 120 more_ready_lines "$log" "${before:-0}" || {
    tail -20 "$log" >&2
    return 1
  }
}

# Whether the worker log $1 says "ready" more than $2 times (a worker started since has come up).
more_ready_lines() {
  local n
  n=$(grep -c '"msg":"pdf worker ready"' "$1" 2>/dev/null || true)
  [ "${n:-0}" -gt "$2" ]
}

# SIGTERM: the worker takes no new job, finishes the renders under way (bounded by the render
# timeout), and exits; whatever is left of its process group is then killed.
stop_worker() {
  local i=$1 pid
  pid=$(cat "$STATE/worker-$i.pid" 2>/dev/null || true)
  if alive "$pid"; then
    kill -TERM "$pid"
    wait_gone 40 "$pid"
    kill -KILL -- "-$pid" 2>/dev/null || true
  fi
  rm -f "$STATE/worker-$i.pid"
}

worker_pids() {
  local pids="" pid
  for file in "$STATE"/worker-*.pid; do
    [ -f "$file" ] || continue
    pid=$(cat "$file")
    alive "$pid" && pids+="$pid "
  done
  echo "${pids% }"
}

start_haproxy() {
  local pidfile="$STATE/haproxy.pid" servers=""
  alive "$(cat "$pidfile" 2>/dev/null)" && return
  for i in "${!APP_PORTS[@]}"; do
    servers+="    server app$((i + 1)) $HOST:${APP_PORTS[$i]} check"$'\n'
  done
  sed -e "s|@STATE@|$STATE|g" -e "s|@HOST@|$HOST|g" -e "s|@HTTP_PORT@|$HTTP_PORT|g" \
    -e "/@SERVERS@/{r /dev/stdin" -e "d}" deploy/cluster/haproxy.cfg \
    <<<"${servers%$'\n'}" >"$STATE/haproxy.cfg"
  haproxy -c -q -f "$STATE/haproxy.cfg"
  haproxy -D -f "$STATE/haproxy.cfg" 2>>"$STATE/haproxy.log"
  wait_for "HAProxy" 10 bash -c "[ -s '$pidfile' ]"
}

wait_for() {
  local what=$1 seconds=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    if [ $SECONDS -ge $deadline ]; then say "$what did not come up within $seconds s"; return 1; fi
    sleep 0.5
  done
}

ready() { curl -fsS -o /dev/null --max-time 3 "http://$HOST:$1/readyz"; }

write_state() {
  cat >"$STATE_FILE" <<EOF
# scripts/cluster.sh: what \`start\` started; \`stop\` ends exactly these.
CLUSTER_URL=http://$HOST:$HTTP_PORT
APP_URLS="http://$HOST:${APP_PORTS[0]} http://$HOST:${APP_PORTS[1]}"
APP_PIDS="$(cat "$STATE/app-0.pid") $(cat "$STATE/app-1.pid")"
HAPROXY_PID=$(cat "$STATE/haproxy.pid")
PGBOUNCER_PIDS="$(cat "$STATE/pgbouncer-primary.pid") $(cat "$STATE/pgbouncer-standby.pid")"
WORKER_PIDS="$(worker_pids)"
WORKER_PID=$(cat "$STATE/worker-0.pid" 2>/dev/null || true)
WORKER_LOG=$STATE/worker-0.log
PRIMARY_DATA=$ROOT/primary
PRIMARY_PID=$(pg_pid "$ROOT/primary")
PRIMARY_URL=$(url "$PG_PORT" "")
STANDBY_DATA=$ROOT/standby
STANDBY_PID=$(pg_pid "$ROOT/standby")
STANDBY_URL=$(url "$STANDBY_PORT" "")
POOLER_URL=$(url "$BOUNCER_PRIMARY_PORT" "?pgbouncer=true")
READ_POOLER_URL=$(url "$BOUNCER_STANDBY_PORT" "?pgbouncer=true")
LOGS=$STATE
EOF
}

everything_alive() {
  [ -f "$STATE_FILE" ] || return 1
  # shellcheck disable=SC1090
  (
    . "$STATE_FILE"
    for pid in $APP_PIDS $HAPROXY_PID $PGBOUNCER_PIDS $WORKER_PID; do alive "$pid" || exit 1; done
    pg_running "$PRIMARY_DATA" && pg_running "$STANDBY_DATA"
  )
}

start() {
  if everything_alive; then
    say "already running at $(grep '^CLUSTER_URL=' "$STATE_FILE" | cut -d= -f2) (state: $STATE_FILE)"
    return 0
  fi
  # Something left over from a start that did not finish, or a part that died: stop it first.
  [ -f "$STATE_FILE" ] && stop
  local started=$SECONDS
  ensure_packages
  bash scripts/ensure-deps.sh
  bash scripts/ensure-chromium.sh
  if [ ! -f build/index.js ] || [ "${CLUSTER_BUILD:-}" = 1 ]; then
    say "building the app..."
    npx remix build >/dev/null
  fi
  mkdir -p "$ROOT/run" "$STATE/outbox"
  if as_root; then chown postgres: "$ROOT" "$ROOT/run" "$STATE"; chmod 755 "$ROOT" "$STATE"; fi
  [ -s "$STATE/session-secret" ] || head -c 48 /dev/urandom | base64 | tr -d '\n/+=' >"$STATE/session-secret"
  chmod 600 "$STATE/session-secret"
  # Written by PgBouncer's auth_file: the one role, trusted on loopback.
  echo '"postgres" ""' >"$STATE/pgbouncer-users.txt"

  say "PostgreSQL primary :$PG_PORT, standby :$STANDBY_PORT"
  start_primary
  say "migrating${DB:+ $DB} on the primary"
  DATABASE_URL=$(url "$PG_PORT" "") npx tsx scripts/migrate.ts >/dev/null
  if [ -f "$STATE/fresh" ]; then
    say "seeding the demo accounts"
    DATABASE_URL=$(url "$PG_PORT" "") DEPLOY_ENV=demo npx tsx prisma/seed.ts >/dev/null
    rm -f "$STATE/fresh"
  fi
  start_standby
  say "PgBouncer :$BOUNCER_PRIMARY_PORT -> primary, :$BOUNCER_STANDBY_PORT -> standby"
  start_bouncer primary "$BOUNCER_PRIMARY_PORT" "$PG_PORT"
  start_bouncer standby "$BOUNCER_STANDBY_PORT" "$STANDBY_PORT"
  say "app servers :${APP_PORTS[0]} :${APP_PORTS[1]}, PDF worker"
  start_app 0
  start_app 1
  # The app servers are ready once a PDF worker has been seen.
  start_worker 0 || { write_state; exit 1; }
  for i in 0 1; do
    wait_for "app server $((i + 1)) (log: $STATE/app-$i.log)" 180 ready "${APP_PORTS[$i]}" || {
      tail -20 "$STATE/app-$i.log" >&2
      write_state
      exit 1
    }
  done
  say "HAProxy :$HTTP_PORT"
  start_haproxy
  write_state
  wait_for "HAProxy's backends" 20 ready "$HTTP_PORT"
  say "running at http://$HOST:$HTTP_PORT (started in $((SECONDS - started)) s; state: $STATE_FILE)"
}

# Restarts one app server (0 or 1) the way a rolling update does: SIGTERM, wait until it has
# drained and exited (or is gone already), start it again, wait for /readyz.
restart_app() {
  local i=$1 pid
  [ -f "$STATE_FILE" ] || { say "not running"; exit 1; }
  pid=$(cat "$STATE/app-$i.pid" 2>/dev/null || true)
  if alive "$pid"; then
    kill -TERM "$pid"
    wait_gone 15 "$pid"
  fi
  kill -KILL -- "-$pid" 2>/dev/null || true
  start_app "$i"
  wait_for "app server $((i + 1))" 180 ready "${APP_PORTS[$i]}"
  write_state
}

stop_pid() {
  local pid=$1 signal=${2:-TERM}
  alive "$pid" || return 0
  kill -"$signal" "$pid" 2>/dev/null || true
}

wait_gone() {
  local deadline=$((SECONDS + $1))
  shift
  for pid in "$@"; do
    while alive "$pid" && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  done
}

stop() {
  if [ ! -f "$STATE_FILE" ] && ! compgen -G "$STATE/*.pid" >/dev/null \
    && ! pg_running "$ROOT/primary" && ! pg_running "$ROOT/standby"; then
    say "not running"
    return 0
  fi
  local app_pids="" worker_pids pid
  for i in 0 1; do app_pids+=" $(cat "$STATE/app-$i.pid" 2>/dev/null || true)"; done
  worker_pids=$(worker_pids)
  say "stopping HAProxy, the app servers (draining up to 10 s), the PDF workers, PgBouncer, the standby and the primary"
  # SIGUSR1: HAProxy stops listening and leaves once its connections have finished.
  local haproxy_pid
  haproxy_pid=$(cat "$STATE/haproxy.pid" 2>/dev/null || true)
  stop_pid "$haproxy_pid" USR1
  # SIGTERM: each server drains its requests (up to 10 s) and stops (tsx passes the signal on).
  # SIGTERM to a PDF worker: it finishes its renders under way and exits.
  for pid in $app_pids $worker_pids; do stop_pid "$pid"; done
  wait_gone 15 $haproxy_pid $app_pids $worker_pids
  stop_pid "$haproxy_pid" KILL
  # Each app server and worker leads its own process group (setsid): whatever is left of it
  # (tsx's node, a PDF browser) goes with the group.
  for pid in $app_pids $worker_pids; do kill -KILL -- "-$pid" 2>/dev/null || true; done
  for name in primary standby; do stop_pid "$(cat "$STATE/pgbouncer-$name.pid" 2>/dev/null || true)"; done
  for data in "$ROOT/standby" "$ROOT/primary"; do
    pg_running "$data" && as_pg "$PG_BIN/pg_ctl" -D "$data" -m fast -w stop >/dev/null
  done
  rm -f "$STATE_FILE" "$STATE"/*.pid
  say "stopped (data kept in $ROOT; 'scripts/cluster.sh clean' deletes it)"
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  status)
    if everything_alive; then cat "$STATE_FILE"; else say "not running"; exit 1; fi
    ;;
  state-file) echo "$STATE_FILE" ;;
  restart-app) restart_app "${2:?which app server: 0 or 1}" ;;
  start-worker | stop-worker | restart-worker)
    [ -f "$STATE_FILE" ] || { say "not running"; exit 1; }
    n="${2:?which PDF worker: 0 or 1}"
    [[ "$n" =~ ^[01]$ ]] || { say "PDF worker 0 or 1"; exit 2; }
    case "$1" in
      start-worker) start_worker "$n" ;;
      stop-worker) stop_worker "$n" ;;
      restart-worker) stop_worker "$n" && start_worker "$n" ;;
    esac
    write_state
    ;;
  clean)
    stop >/dev/null 2>&1
    rm -rf "$ROOT"
    say "stopped; deleted $ROOT"
    ;;
  *) echo "usage: $0 start|stop|status|clean|state-file|restart-app N|start-worker N|stop-worker N|restart-worker N" >&2; exit 2 ;;
esac
