#!/usr/bin/env bash
# npm test: everything, on a fresh machine. Installs the system packages the
# tests need (as root, from Debian), then runs type checking, lint, unit and
# integration tests (embedded PostgreSQL), the engine tests (a real Docker
# Engine), the contract tests again against an "external" PostgreSQL given by
# DATABASE_URL, and the browser tests.
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1
results_dir=$(mktemp -d)
trap 'rm -rf "$results_dir"' EXIT
status=0

need_pkgs=()
command -v docker-registry >/dev/null 2>&1 || need_pkgs+=(docker-registry)
command -v git >/dev/null 2>&1 || need_pkgs+=(git)
# The monthly report's PDF is read back with pdfinfo and pdftotext.
command -v pdftotext >/dev/null 2>&1 || need_pkgs+=(poppler-utils)
if [ -d e2e ] && ls e2e/*.spec.ts >/dev/null 2>&1; then
  command -v chromium >/dev/null 2>&1 || need_pkgs+=(chromium fonts-liberation)
fi
if [ ${#need_pkgs[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing system packages the tests need: ${need_pkgs[*]}"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}") >/dev/null \
      || { echo "npm test: could not install ${need_pkgs[*]} with apt-get"; exit 1; }
  else
    echo "npm test: missing system packages: ${need_pkgs[*]} (install them with apt-get, as root)"; exit 1
  fi
fi

[ -f lib/db/generated/client.ts ] || node scripts/prisma-generate.mjs || exit 1

step() { echo; echo "=== $*"; }
# A check that is not a test runner (type check, lint, …) counts as one failed test in the closing line.
step_failed() { status=1; echo "$1" >> "$results_dir/failed-steps"; }

step "type check"
npx tsc --noEmit -p tsconfig.json || step_failed "type check"

step "lint"
npx eslint --max-warnings 0 . || step_failed "lint"

step "build"
node scripts/build-if-stale.mjs || exit 1

step "unit tests"
npx vitest run --project unit --passWithNoTests --reporter=default --reporter=json --outputFile.json="$results_dir/unit.json" || status=1

step "integration tests (${DATABASE_URL:+external database}${DATABASE_URL:-embedded database})"
mkdir -p "$results_dir/run"
DRIFTWATCH_TEST_RUN_DIR="$results_dir/run" npx vitest run --project integration --reporter=default --reporter=json --outputFile.json="$results_dir/integration.json" || status=1

step "engine tests (a real Docker Engine and Swarm; the image and deploy/compose.yaml)"
# scripts/docker-engine.sh installs docker.io and what the image test needs (as root) and starts
# its own engine; when it cannot, this step fails with the reason.
DRIFTWATCH_TEST_RUN_DIR="$results_dir/run" npx vitest run --project engine --reporter=default --reporter=json --outputFile.json="$results_dir/engine.json" \
  || { status=1; [ -s "$results_dir/engine.json" ] || step_failed "engine tests: no results (did the engine start? see above)"; }

step "secrets in the logs of the integration run"
node scripts/check-secrets-in-logs.mjs "$results_dir/run" || step_failed "secrets in the logs"

if [ -z "${DATABASE_URL:-}" ]; then
  step "contract tests against an external PostgreSQL (DATABASE_URL)"
  scratch=$(mktemp -d)
  url=$(npx tsx scripts/scratch-postgres.ts start "$scratch") || { echo "could not start a scratch PostgreSQL"; step_failed "scratch PostgreSQL for the contract tests"; }
  if [ -n "${url:-}" ]; then
    DATABASE_URL="$url" npx vitest run --project integration tests/integration/contract.test.ts \
      --reporter=default --reporter=json --outputFile.json="$results_dir/external.json" || status=1
    npx tsx scripts/scratch-postgres.ts stop "$scratch" >/dev/null
  fi
  rm -rf "$scratch"
fi

if [ -d e2e ] && ls e2e/*.spec.ts >/dev/null 2>&1; then
  step "browser tests"
  PLAYWRIGHT_JSON_OUTPUT_NAME="$results_dir/e2e.json" npx playwright test --reporter=list,json || status=1
fi

echo
node scripts/test-summary.mjs "$results_dir" || status=1
exit $status
