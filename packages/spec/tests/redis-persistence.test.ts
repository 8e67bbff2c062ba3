/**
 * Issue 13, item 8: a Redis server without persistence (`save ""`, `appendonly no`) forgets every
 * record on a restart, so the Redis store refuses it on first use with DurabilityConfigError,
 * unless the caller opts in (`allowVolatile: true`). Each case starts its own redis-server on a
 * free port (never the shared one, which runs volatile: the rest of the suite opts in, see
 * tests/helpers/stores.ts) and stops it after.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { DurabilityConfigError, StoreUnavailableError } from '../src/errors.js';
import { createRunner } from '../src/runner.js';
import { openRun } from '../src/runs.js';
import { createRedisStore } from '../src/stores/redis.js';
import { memoryProvider } from './helpers/provider.js';
import { freePort } from './helpers/servers.js';
import { freshRun, refundTool } from './helpers/tools.js';
import { spawnFixture } from './helpers/tsChild.js';

interface OwnRedis {
  readonly url: string;
  stop(): Promise<void>;
}

const started: OwnRedis[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
});

/** Start redis-server with `args` in a temp dir of its own; resolves once it answers PING. */
async function startRedis(args: readonly string[]): Promise<OwnRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'retrysafe-faults-runner-redis-'));
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, ...args], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const server: OwnRedis = {
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  started.push(server);
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    for (let i = 0; i < 100; i += 1) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode} (is it installed? apt-get install redis-server)`);
      try {
        if (probe.status !== 'ready') await probe.connect();
        if ((await probe.ping()) === 'PONG') return server;
      } catch {
        probe.disconnect();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error(`redis-server on port ${port} did not answer PING`);
  } finally {
    probe.disconnect();
  }
}

describe('the Redis store on a server of its own', () => {
  it('refuses a server with save "" and appendonly no: DurabilityConfigError, nothing runs', async () => {
    const server = await startRedis(['--save', '', '--appendonly', 'no']);
    const store = createRedisStore({ url: server.url, keyPrefix: 'rs_faults_runner:' });
    const provider = memoryProvider({ dedupeByKey: false });
    try {
      const ready = await store.ready().then(() => undefined, (error: unknown) => error);
      expect(ready).toBeInstanceOf(DurabilityConfigError);
      expect(ready).toMatchObject({ code: 'durability_config', reason: 'volatile_store' });
      // The error's store info says what its message says: this server keeps nothing across a restart.
      expect((ready as DurabilityConfigError).store).toMatchObject({ kind: 'redis', durable: false });
      expect((ready as DurabilityConfigError).store?.location).toContain('rs_faults_runner:');
      expect(store.info.durable).toBe(true); // the store's own info: the kind of store (see StoreInfo.durable)
      expect((ready as Error).message).toContain('allowVolatile: true');
      const outcome = await createRunner({ store }).tryCall(refundTool(provider), { orderId: 'o_1', amountCents: 100 }, { run: freshRun() });
      expect(outcome).toMatchObject({ ok: false, error: expect.any(DurabilityConfigError) });
      expect(outcome.ok ? undefined : outcome.error).not.toBeInstanceOf(StoreUnavailableError);
      await expect(openRun(store, { kind: 'job', id: 'j_1' })).rejects.toBeInstanceOf(DurabilityConfigError);
      expect(provider.effects()).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('lets its own client go on the refusal: a script that catches it and never calls close() ends by itself (new-user trial 8 hung)', async () => {
    const server = await startRedis(['--save', '', '--appendonly', 'no']);
    const child = spawnFixture('redis-refused-child.ts', { url: server.url });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const timeout = setTimeout(() => child.kill('SIGKILL'), 15_000);
    try {
      const code = await exited;
      expect(stdout.trim()).toBe(JSON.stringify({ outcome: 'volatile_store' }));
      expect(code).toBe(0); // a SIGKILL at the timeout gives null
    } finally {
      clearTimeout(timeout);
    }
  }, 30_000);

  it('accepts that server when the caller opts in with allowVolatile: true', async () => {
    const server = await startRedis(['--save', '', '--appendonly', 'no']);
    const store = createRedisStore({ url: server.url, keyPrefix: 'rs_faults_runner:', allowVolatile: true });
    const provider = memoryProvider({ dedupeByKey: false });
    try {
      const runner = createRunner({ store });
      const run = freshRun();
      await runner.call(refundTool(provider), { orderId: 'o_1', amountCents: 100 }, { run });
      await expect(runner.call(refundTool(provider), { orderId: 'o_1', amountCents: 100 }, { run })).resolves.toMatchObject({ replayed: true });
      expect(provider.effects()).toBe(1);
    } finally {
      await store.close();
    }
  });

  it.each([
    ['appendonly yes', ['--save', '', '--appendonly', 'yes']],
    ['RDB snapshots only (save "60 1")', ['--save', '60 1', '--appendonly', 'no']],
  ])('accepts a server with %s without an opt-in', async (_, args) => {
    const server = await startRedis(args);
    const store = createRedisStore({ url: server.url, keyPrefix: 'rs_faults_runner:' });
    const provider = memoryProvider({ dedupeByKey: false });
    try {
      await store.ready();
      const runner = createRunner({ store });
      const run = freshRun();
      await runner.call(refundTool(provider), { orderId: 'o_1', amountCents: 100 }, { run });
      await expect(runner.call(refundTool(provider), { orderId: 'o_1', amountCents: 100 }, { run })).resolves.toMatchObject({ replayed: true });
      expect(provider.effects()).toBe(1);
    } finally {
      await store.close();
    }
  });

  // Managed services often rename CONFIG; then INFO persistence decides (aof_enabled).
  it.each([
    ['refuses', ['--save', '', '--appendonly', 'no'], true],
    ['accepts', ['--save', '', '--appendonly', 'yes'], false],
  ] as const)('%s a server whose CONFIG command is renamed away, by INFO persistence', async (_, args, refused) => {
    const server = await startRedis([...args, '--rename-command', 'CONFIG', '']);
    const store = createRedisStore({ url: server.url, keyPrefix: 'rs_faults_runner:' });
    try {
      const ready = await store.ready().then(() => 'ready', (error: unknown) => error);
      if (refused) {
        expect(ready).toBeInstanceOf(DurabilityConfigError);
        expect((ready as DurabilityConfigError).store?.durable).toBe(false);
        expect((ready as Error).message).toContain('aof_enabled:0');
      } else {
        expect(ready).toBe('ready');
      }
    } finally {
      await store.close();
    }
  });

  it('reports an unreachable server as StoreUnavailableError, not a durability refusal', async () => {
    const port = await freePort();
    const store = createRedisStore({ url: `redis://127.0.0.1:${port}`, keyPrefix: 'rs_faults_runner:', connectTimeoutMs: 500 });
    const provider = memoryProvider({ dedupeByKey: false });
    try {
      const outcome = await createRunner({ store }).tryCall(refundTool(provider), { orderId: 'o_1', amountCents: 100 }, { run: freshRun() });
      expect(outcome).toMatchObject({ ok: false, error: expect.any(StoreUnavailableError) });
      expect(provider.effects()).toBe(0);
    } finally {
      await store.close();
    }
  });
});
