/**
 * Redis servers a test starts for itself, on free local ports in a temporary folder, and stops
 * after: a three-node Redis Cluster (`redis-server --cluster-enabled yes`, then
 * `redis-cli --cluster create`) and a Valkey server. The shared Redis on 6379 is never touched.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A server or cluster the test started. */
export interface StartedServers {
  /** `redis://127.0.0.1:<port>` of each node. */
  readonly urls: readonly string[];
  stop(): Promise<void>;
}

/** The path of `binary` on PATH, or undefined. */
export function findBinary(binary: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** `count` consecutive free ports whose cluster bus ports (+10000) are free too. */
/** A free TCP port on 127.0.0.1, as the kernel hands one out. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function freePorts(count: number): Promise<number[]> {
  for (let tries = 0; tries < 50; tries += 1) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    const ports = Array.from({ length: count }, (_, i) => base + i);
    const checks = await Promise.all(ports.flatMap((p) => [portFree(p), portFree(p + 10_000)]));
    if (checks.every(Boolean)) return ports;
  }
  throw new Error('no free local ports for a test Redis');
}

function cli(binary: string, args: string[]): string {
  const result = spawnSync(binary, args, { encoding: 'utf8', timeout: 30_000 });
  if (result.status !== 0) throw new Error(`${binary} ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
  return result.stdout;
}

async function waitFor(what: string, ok: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (ok()) return;
    await sleep(100);
  }
  throw new Error(`${what} did not come up within ${timeoutMs} ms`);
}

const pings = (cliBinary: string, port: number) => spawnSync(cliBinary, ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.includes('PONG');

function spawnServer(binary: string, dir: string, port: number, extra: string[]): ChildProcess {
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfilename', `appendonly-${port}.aof`, '--save', '', ...extra],
    { stdio: 'ignore' },
  );
  return child;
}

async function stopAll(children: readonly ChildProcess[], dir: string): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
        }),
    ),
  );
  rmSync(dir, { recursive: true, force: true });
}

/** A three-primary Redis Cluster (no replicas) on free ports; needs `redis-server` and `redis-cli`. */
export async function startRedisCluster(nodes = 3): Promise<StartedServers> {
  const dir = mkdtempSync(join(tmpdir(), 'retrysafe-cluster-'));
  const ports = await freePorts(nodes);
  const children = ports.map((port) =>
    spawnServer('redis-server', dir, port, ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '5000']),
  );
  const stop = () => stopAll(children, dir);
  process.once('exit', () => children.forEach((child) => child.kill('SIGKILL')));
  try {
    for (const port of ports) await waitFor(`redis-server on ${port}`, () => pings('redis-cli', port));
    cli('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes']);
    for (const port of ports) {
      await waitFor(`cluster state ok on ${port}`, () => cli('redis-cli', ['-p', String(port), 'cluster', 'info']).includes('cluster_state:ok'));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls: ports.map((p) => `redis://127.0.0.1:${p}`), stop };
}

/** A Valkey server on a free port; needs `valkey-server` and `valkey-cli` (scripts/services.sh installs them). */
export async function startValkey(): Promise<StartedServers> {
  const dir = mkdtempSync(join(tmpdir(), 'retrysafe-valkey-'));
  const [port] = await freePorts(1);
  const child = spawnServer('valkey-server', dir, port as number, []);
  const stop = () => stopAll([child], dir);
  process.once('exit', () => child.kill('SIGKILL'));
  try {
    await waitFor(`valkey-server on ${port}`, () => pings('valkey-cli', port as number));
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls: [`redis://127.0.0.1:${port}`], stop };
}
