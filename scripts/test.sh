#!/usr/bin/env bash
# The test command (README): sets up a fresh clone, starts PostgreSQL and Redis if they are down,
# runs every test (runtime, type tests, rule tests, example checks) in one vitest run, and ends with
# one plain line `tests: N passed, N failed, N skipped` computed from vitest's JSON report.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh || { echo "tests: 0 passed, 1 failed (setup failed)"; exit 1; }
bash scripts/services.sh

report=.vitest-report.json
rm -f "$report"
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
status=$?
node scripts/summarize-tests.mjs "$report" || status=1
exit $status
