// Redis servers the runtime bench starts for itself on free local ports (in a temporary folder,
// stopped at the end): a three-primary Redis Cluster and a Valkey server. The same steps as the
// tests' packages/spec/tests/helpers/servers.ts, in plain JavaScript for Node without a loader.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const portFree = (port) =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

async function freePorts(count) {
  for (let tries = 0; tries < 50; tries += 1) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    const ports = Array.from({ length: count }, (_, i) => base + i);
    if ((await Promise.all(ports.flatMap((p) => [portFree(p), portFree(p + 10_000)]))).every(Boolean)) return ports;
  }
  throw new Error('no free local ports');
}

function run(binary, args) {
  const result = spawnSync(binary, args, { encoding: 'utf8', timeout: 30_000 });
  if (result.error) throw new Error(`${binary} is not installed (scripts/services.sh installs valkey-server; redis-server comes with Redis): ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${binary} ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
  return result.stdout;
}

async function waitFor(what, ok) {
  for (let i = 0; i < 200; i += 1) {
    try {
      if (ok()) return;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  throw new Error(`${what} did not come up`);
}

// Persistence as a durable deployment has it (appendonly, fsync every second), like the shared Redis is not.
function startServers(binary, cliBinary, ports, dir, extra = () => []) {
  const children = ports.map((port) =>
    spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfilename', `aof-${port}.aof`, ...extra(port)], { stdio: 'ignore' }),
  );
  process.once('exit', () => children.forEach((c) => c.kill('SIGKILL')));
  const stop = async () => {
    await Promise.all(children.map((c) => new Promise((resolve) => (c.exitCode !== null ? resolve() : (c.once('exit', resolve), c.kill('SIGTERM'))))));
    rmSync(dir, { recursive: true, force: true });
  };
  const up = async () => {
    for (const port of ports) await waitFor(`${binary} on ${port}`, () => run(cliBinary, ['-p', String(port), 'ping']).includes('PONG'));
  };
  return { stop, up };
}

/** A three-primary Redis Cluster; resolves to `{ nodes: ['redis://127.0.0.1:p', ...], version, stop }`. */
export async function startRedisCluster() {
  const dir = mkdtempSync(join(tmpdir(), 'retrysafe-bench-cluster-'));
  const ports = await freePorts(3);
  const servers = startServers('redis-server', 'redis-cli', ports, dir, (port) => ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`]);
  await servers.up();
  run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes']);
  for (const port of ports) await waitFor(`cluster on ${port}`, () => run('redis-cli', ['-p', String(port), 'cluster', 'info']).includes('cluster_state:ok'));
  const version = /redis_version:(\S+)/.exec(run('redis-cli', ['-p', String(ports[0]), 'info', 'server']))?.[1];
  return { nodes: ports.map((p) => `redis://127.0.0.1:${p}`), version, stop: servers.stop };
}

/** A Valkey server; resolves to `{ url, version, stop }`. */
export async function startValkey() {
  const dir = mkdtempSync(join(tmpdir(), 'retrysafe-bench-valkey-'));
  const [port] = await freePorts(1);
  const servers = startServers('valkey-server', 'valkey-cli', [port], dir);
  await servers.up();
  const version = /valkey_version:(\S+)/.exec(run('valkey-cli', ['-p', String(port), 'info', 'server']))?.[1];
  return { url: `redis://127.0.0.1:${port}`, version, stop: servers.stop };
}
