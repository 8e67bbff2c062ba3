#!/usr/bin/env bash
# Brings a fresh clone to a runnable state: the pinned pnpm, the locked dependencies (better-sqlite3
# compiles from source against Node's headers), and every package built to dist/.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")
if [ "$(pnpm --version 2>/dev/null || true)" != "$pnpm_version" ]; then
  echo "setup: installing pnpm@$pnpm_version"
  npm install -g "pnpm@$pnpm_version" >/dev/null
fi

export npm_config_nodedir=${npm_config_nodedir:-/usr}
pnpm install --frozen-lockfile
pnpm run build
