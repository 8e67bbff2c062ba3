#!/usr/bin/env bash
# The benchmarks (`pnpm bench`; not part of `pnpm test`): lint cost on large real packages and the
# runtime's replay cost, each against baselines measured interleaved in the same run. Writes
# bench/results/lint.json and bench/results/runtime.json and prints the tables; docs/performance.md
# explains the figures. Ratios, never timed assertions: this exits non-zero only when a bench
# cannot run, never because a figure is slow.
#
#   pnpm bench                      # both, default sizes (about 6 minutes on a 2-core machine)
#   pnpm bench lint --rounds 5      # one bench, flags passed through (see the top of each .mjs)
#   BENCH_SKIP_SETUP=1 pnpm bench   # skip install and build (already done)
set -euo pipefail
cd "$(dirname "$0")/.."

which=${1:-all}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift

if [ -z "${BENCH_SKIP_SETUP:-}" ]; then
  bash scripts/setup.sh >/dev/null
fi
bash scripts/services.sh

mkdir -p bench/results
echo "bench: $(node -p "require('os').cpus()[0].model") x $(node -p "require('os').cpus().length"), node $(node --version); load average: $(cut -d' ' -f1-3 /proc/loadavg)"

case "$which" in
  all)
    [ $# -eq 0 ] || { echo "bench: flags go to one bench at a time: pnpm bench lint|runtime [flags]" >&2; exit 2; }
    node bench/lint.mjs
    node bench/runtime.mjs
    ;;
  lint) node bench/lint.mjs "$@" ;;
  lint-instructions) node bench/lint-instructions.mjs "$@" ;;
  runtime) node bench/runtime.mjs "$@" ;;
  mcp-wire) node bench/mcp-wire.mjs "$@" ;;
  *) echo "usage: pnpm bench [all|lint|lint-instructions|runtime|mcp-wire] [flags for that bench]" >&2; exit 2 ;;
esac
echo "bench: done; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
