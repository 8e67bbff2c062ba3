// A store endpoint that takes the connection and then answers nothing (a frozen server, one cut
// off behind a proxy or load balancer) must fail a call closed, within a bound, with nothing run:
// before the store set ioredis's command timeout, the command waited in the client's queue and the
// call never returned (seen in a fault-injection run). An endpoint that closes every connection
// at once is failed by ioredis's own retry limit; it is checked here too.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../src/errors.js';
import { createRunner } from '../src/runner.js';
import { createPostgresStore } from '../src/stores/postgres.js';
import { createRedisStore } from '../src/stores/redis.js';
import { memoryProvider } from './helpers/provider.js';
import { PG_URL } from './helpers/stores.js';
import { startTcpProxy } from './helpers/tcp-proxy.js';
import { freshRun, refundTool } from './helpers/tools.js';

const held: Socket[] = [];
const servers: Record<'silent' | 'closing', { server: Server; port: number }> = {} as never;

beforeAll(async () => {
  const listen = async (onSocket: (socket: Socket) => void) => {
    const server = createServer(onSocket);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.address() as { port: number }).port };
  };
  servers.silent = await listen((socket) => void held.push(socket));
  servers.closing = await listen((socket) => socket.destroy());
});
afterAll(async () => {
  for (const socket of held) socket.destroy();
  await Promise.all(Object.values(servers).map(({ server }) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

/** The call's outcome, or 'hung' when it has not returned after 8 s. */
async function callOnce(port: number, options: { allowVolatile?: boolean; commandTimeoutMs?: number }) {
  const store = createRedisStore({ url: `redis://127.0.0.1:${port}`, keyPrefix: 'rs_lead_unresponsive:', ...options });
  const provider = memoryProvider({ dedupeByKey: false });
  try {
    const outcome = await Promise.race([
      createRunner({ store }).tryCall(refundTool(provider), { orderId: 'o_1', amountCents: 100 }, { run: freshRun() }),
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 8000).unref()),
    ]);
    return { outcome, effects: provider.effects() };
  } finally {
    await store.close();
  }
}

describe('a Redis endpoint that never answers', () => {
  it('fails the call with StoreUnavailableError after the command timeout; nothing runs', async () => {
    const { outcome, effects } = await callOnce(servers.silent.port, { commandTimeoutMs: 300, allowVolatile: true });
    expect(outcome).toMatchObject({ ok: false, error: expect.any(StoreUnavailableError) });
    expect(effects).toBe(0);
  });

  it('the same when the persistence check (the default) is the first command', async () => {
    const { outcome, effects } = await callOnce(servers.silent.port, { commandTimeoutMs: 300 });
    expect(outcome).toMatchObject({ ok: false, error: expect.any(StoreUnavailableError) });
    expect(effects).toBe(0);
  });
});

describe('a Redis endpoint that closes every connection at once', () => {
  it('fails the call with StoreUnavailableError; nothing runs', async () => {
    const { outcome, effects } = await callOnce(servers.closing.port, {});
    expect(outcome).toMatchObject({ ok: false, error: expect.any(StoreUnavailableError) });
    expect(effects).toBe(0);
  });
});

describe('a PostgreSQL connection that stops answering mid-run (a partition behind a proxy)', () => {
  it('fails the next call with StoreUnavailableError after the query timeout; nothing runs; the store recovers', async () => {
    const proxy = await startTcpProxy(Number(new URL(PG_URL).port || 5432));
    const url = new URL(PG_URL);
    url.host = `127.0.0.1:${proxy.port}`;
    const store = createPostgresStore({ connectionString: url.toString(), tablePrefix: 'rs_lead_unresp_', queryTimeoutMs: 500, connectTimeoutMs: 500 });
    const provider = memoryProvider({ dedupeByKey: false });
    const runner = createRunner({ store });
    try {
      const first = await runner.tryCall(refundTool(provider), { orderId: 'o_1', amountCents: 100 }, { run: freshRun() });
      expect(first.ok).toBe(true);
      proxy.pause(true);
      const outcome = await Promise.race([
        runner.tryCall(refundTool(provider), { orderId: 'o_2', amountCents: 100 }, { run: freshRun() }),
        new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 8000).unref()),
      ]);
      expect(outcome).toMatchObject({ ok: false, error: expect.any(StoreUnavailableError) });
      expect(provider.effects()).toBe(1);
      proxy.pause(false);
      const later = await runner.tryCall(refundTool(provider), { orderId: 'o_3', amountCents: 100 }, { run: freshRun() });
      expect(later.ok).toBe(true);
      expect(provider.effects()).toBe(2);
    } finally {
      proxy.pause(false);
      await store.close();
      await proxy.close();
    }
  });
});
