#!/usr/bin/env bash
# `npm test`: installs what is missing (npm packages, PostgreSQL 15, Chromium), checks types,
# lint and formatting, builds the app, and runs the unit, database and end-to-end tests.
# DATABASE_URL set means: run the database tests on that server (each test file creates and
# drops its own database there).
set -uo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

bash scripts/ensure-deps.sh || exit 1
bash scripts/ensure-chromium.sh || exit 1

echo "== typecheck, lint, format check"
npx tsc --noEmit || { echo "typecheck failed"; exit 1; }
npx eslint --max-warnings 0 . || { echo "lint failed (npm run lint)"; exit 1; }
npx prettier --check --log-level warn . || { echo "format check failed (npm run format)"; exit 1; }

external=""
if [ -n "${DATABASE_URL:-}" ]; then
  export TEST_DATABASE_URL="$DATABASE_URL"
  external=1
else
  # Stop the local cluster at the end only when this run started it.
  if ! bash scripts/pg-local.sh status; then trap 'bash scripts/pg-local.sh stop' EXIT; fi
  base=$(bash scripts/pg-local.sh start) || exit 1
  export TEST_DATABASE_URL="$base/postgres"
fi
unset DATABASE_URL

echo "== build"
npx remix build >/dev/null || { echo "build failed"; exit 1; }

rm -rf reports; mkdir -p reports
echo "== unit and database tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile=reports/vitest.json
vitest_status=$?

echo "== end-to-end tests (Playwright, Chromium, with and without JavaScript)"
e2e_db="diacare_e2e_$$"
export E2E_DATABASE_URL
E2E_DATABASE_URL=$(node -e 'const u=new URL(process.argv[1]); u.pathname="/"+process.argv[2]; console.log(u.toString())' "$TEST_DATABASE_URL" "$e2e_db")
psql_admin() { node -e '
  const pg=require("pg"); const c=new pg.Client({connectionString:process.argv[1]});
  c.connect().then(()=>c.query(process.argv[2])).then(()=>c.end()).catch(e=>{console.error(e.message);process.exit(1)})' "$TEST_DATABASE_URL" "$1"; }
# The statements the app sends during the suite are recorded (pg_stat_statements, from after the
# seed) and checked afterwards: each one that reaches a record table must name the patient
# (docs/decisions/026-citus-ready-schema.md). A server of its own (DATABASE_URL) that does not
# load pg_stat_statements is told, not failed; the local cluster always loads it.
record_statements() {
  evictions_at_start=$(npx tsx scripts/check-patient-scope.ts start "$E2E_DATABASE_URL")
  case $? in
    0) export E2E_RECORD_STATEMENTS=1 ;;
    3) if [ -n "$external" ]; then
         echo "== patient-scope check not run: that server does not load pg_stat_statements"
       else
         echo "the local cluster runs without pg_stat_statements: bash scripts/pg-local.sh stop, then npm test again"
         return 1
       fi ;;
    *) return 1 ;;
  esac
}
psql_admin "CREATE DATABASE \"$e2e_db\"" \
  && DATABASE_URL="$E2E_DATABASE_URL" npx tsx scripts/migrate.ts >/dev/null \
  && DATABASE_URL="$E2E_DATABASE_URL" DEPLOY_ENV=test npx tsx prisma/seed.ts \
  && record_statements \
  && npx playwright test
e2e_status=$?
scope_status=0
if [ "${E2E_RECORD_STATEMENTS:-}" = 1 ]; then
  echo "== patient-scope check of the statements the app sent"
  npx tsx scripts/check-patient-scope.ts check "$E2E_DATABASE_URL" "$evictions_at_start"
  scope_status=$?
fi
psql_admin "DROP DATABASE IF EXISTS \"$e2e_db\" WITH (FORCE)" || true

node scripts/test-summary.mjs reports/vitest.json reports/e2e.json
echo "npm test took $(( $(date +%s) - started )) s"
[ $vitest_status -eq 0 ] && [ $e2e_status -eq 0 ] && [ $scope_status -eq 0 ]
