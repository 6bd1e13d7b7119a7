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

if [ -n "${DATABASE_URL:-}" ]; then
  export TEST_DATABASE_URL="$DATABASE_URL"
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
psql_admin "CREATE DATABASE \"$e2e_db\"" \
  && DATABASE_URL="$E2E_DATABASE_URL" npx tsx scripts/migrate.ts >/dev/null \
  && DATABASE_URL="$E2E_DATABASE_URL" DEPLOY_ENV=test npx tsx prisma/seed.ts \
  && npx playwright test
e2e_status=$?
psql_admin "DROP DATABASE IF EXISTS \"$e2e_db\" WITH (FORCE)" || true

node scripts/test-summary.mjs reports/vitest.json reports/e2e.json
echo "npm test took $(( $(date +%s) - started )) s"
[ $vitest_status -eq 0 ] && [ $e2e_status -eq 0 ]
