#!/usr/bin/env bash
# Starts PostgreSQL and Redis on 127.0.0.1 when they are not already up (the project's machines
# start both before a session; a fresh machine or CI may not). Used by scripts/test.sh and .ci/run.
set -euo pipefail

pg_url=${RETRYSAFE_PG_URL:-postgres://postgres@127.0.0.1:5432/test}
redis_url=${RETRYSAFE_REDIS_URL:-redis://127.0.0.1:6379}

wait_for() { # wait_for <what> <command...>
  local what=$1; shift
  for _ in $(seq 1 50); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "services: $what did not come up on 127.0.0.1; tests that need it will fail" >&2
  return 1
}

if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "services: starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  else
    echo "services: PostgreSQL is not installed; install it (apt-get install postgresql) or set RETRYSAFE_PG_URL" >&2
  fi
  wait_for PostgreSQL pg_isready -q -h 127.0.0.1 -p 5432 || true
fi

if ! redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; then
  if command -v redis-server >/dev/null 2>&1; then
    echo "services: starting Redis"
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no || true
  else
    echo "services: Redis is not installed; install it (apt-get install redis-server) or set RETRYSAFE_REDIS_URL" >&2
  fi
  wait_for Redis sh -c 'redis-cli -h 127.0.0.1 -p 6379 ping | grep -q PONG' || true
fi

# Valkey: the Redis store's tests start their own valkey-server (and a Redis Cluster from
# redis-server), so only the binary is needed. Debian bookworm has it in bookworm-backports.
if ! command -v valkey-server >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "services: installing valkey-server"
    if grep -q bookworm /etc/os-release 2>/dev/null && ! grep -rqs bookworm-backports /etc/apt/sources.list /etc/apt/sources.list.d; then
      echo 'deb http://deb.debian.org/debian bookworm-backports main' > /etc/apt/sources.list.d/backports.list
    fi
    target=$(grep -q bookworm /etc/os-release 2>/dev/null && echo '-t bookworm-backports' || true)
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $target valkey-server) >/dev/null 2>&1 \
      || echo "services: could not install valkey-server; the Valkey tests fail under CI=true and are skipped otherwise" >&2
    # Where systemd runs, the package starts a Valkey service on 6379, the project's Redis port.
    if command -v systemctl >/dev/null 2>&1; then systemctl disable --now valkey-server >/dev/null 2>&1 || true; fi
  else
    echo "services: valkey-server is not installed (apt-get install -t bookworm-backports valkey-server); the Valkey tests fail under CI=true and are skipped otherwise" >&2
  fi
fi

# The tests' database must exist (trust auth, as on the project's machines).
if command -v psql >/dev/null 2>&1; then
  psql "${pg_url%/*}/postgres" -tAc "SELECT 1 FROM pg_database WHERE datname='test'" 2>/dev/null | grep -q 1 \
    || psql "${pg_url%/*}/postgres" -c 'CREATE DATABASE test' >/dev/null 2>&1 || true
fi
