#!/usr/bin/env bash
# The main job (README): installs pnpm and the dependencies, builds the packages, then runs ESLint
# and tsc over the bundled example and ESLint over real agent tools published on the npm registry.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
node scripts/demo.mjs
