/**
 * Each store keeps its fast path through the shared protocol: a first call is one claim and one
 * completion (PostgreSQL's `INSERT ... ON CONFLICT` that returns the row it met, Redis's
 * `SET NX PX GET` and one Lua compare-and-set), a replay is one read. Counted in the drivers, as
 * bench/runtime.mjs does; counts, not times.
 */
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRun } from '../src/runs.js';
import { createRunner } from '../src/runner.js';
import { memoryProvider } from './helpers/provider.js';
import { openStoreFor, storesUnderTest } from './helpers/stores.js';
import { refundTool } from './helpers/tools.js';

/** Counts calls of `methods` on `proto` while installed. */
function countCalls(proto: Record<string, unknown>, methods: readonly string[]) {
  const counter = { n: 0 };
  for (const method of methods) {
    const original = proto[method] as (...args: unknown[]) => unknown;
    proto[method] = function (this: unknown, ...args: unknown[]) {
      counter.n += 1;
      return original.apply(this, args);
    };
  }
  return counter;
}

const sqliteStatementProto = (() => {
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  probe.close();
  return proto;
})();
const counters = {
  sqlite: countCalls(sqliteStatementProto, ['run', 'get', 'all', 'iterate']),
  postgres: countCalls(pg.Client.prototype as unknown as Record<string, unknown>, ['query']),
  redis: countCalls(Redis.prototype as unknown as Record<string, unknown>, ['sendCommand']),
};
// [first call, replay]: today's figures (docs/runtime.md, "Stores").
const expected = { sqlite: [3, 1], postgres: [2, 1], redis: [2, 1] } as const;

describe.each(storesUnderTest().filter((s) => s.name !== 'memory'))('$name store round trips', (subject) => {
  const openStore = openStoreFor(subject, { beforeAll, afterAll });
  const name = subject.name as keyof typeof expected;

  it(`spends ${expected[name][0]} on a first call and ${expected[name][1]} on a replay`, async () => {
    const store = openStore();
    const runner = createRunner({ store, purgeEveryMs: 0 });
    const run = await openRun(store, { kind: 'job', id: `round-trips-${Date.now()}` });
    const tool = refundTool(memoryProvider({ dedupeByKey: false }));
    // Warm: the first compare-and-set loads Redis's script (NOSCRIPT, then EVAL) once per server.
    await runner.call(tool, { orderId: 'warm', amountCents: 1 }, { run });
    const counter = counters[name];
    const before = counter.n;
    const first = await runner.call(tool, { orderId: 'o_1', amountCents: 500 }, { run });
    const afterFirst = counter.n;
    const replay = await runner.call(tool, { orderId: 'o_1', amountCents: 500 }, { run });
    expect([first.replayed, replay.replayed]).toEqual([false, true]);
    expect([afterFirst - before, counter.n - afterFirst]).toEqual(expected[name]);
  });
});
