/**
 * Issue 13, item 7: a concurrent loser is not told to wait the lock's length (30 s) for a 50 ms
 * effect. With `waitForInFlightMs` it waits for the in-flight call to complete and gets its result
 * as a replay; without, or past the timeout, `ConcurrentCallError.retryAfterMs` is a short
 * backoff. Real concurrency: the two callers use two store instances (two connections, or two
 * handles on one SQLite file) and the effect is really in flight while the second call comes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONCURRENT_RETRY_AFTER_MS, ConcurrentCallError } from '../src/errors.js';
import { DEFAULT_LOCK_MS, createRunner } from '../src/runner.js';
import { MAX_POLL_MS } from '../src/runtime/inFlight.js';
import type { DedupStore } from '../src/stores/types.js';
import { memoryProvider } from './helpers/provider.js';
import { openStoreFor, storeFromConfig, storesUnderTest } from './helpers/stores.js';
import { freshRun, refundTool } from './helpers/tools.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(storesUnderTest())('a call in flight on the $name store', (subject) => {
  let store: DedupStore;
  let other: DedupStore;
  const openStore = openStoreFor(subject, { beforeAll, afterAll });
  beforeEach(async () => {
    store = openStore();
    // The memory store lives in one process: the second caller shares it.
    other ??= subject.name === 'memory' ? store : storeFromConfig(subject.config);
    await other.ready();
  });
  afterAll(async () => {
    if (other !== store) await other?.close();
  });

  it('waits for the in-flight call and returns its result as a replay (waitForInFlightMs)', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider);
    const run = freshRun();
    const held = provider.hold();
    const first = createRunner({ store }).call(tool, { orderId: 'o_1', amountCents: 500 }, { run });
    await held.started;
    setTimeout(held.release, 50); // a 50 ms effect under the default 30 s lock
    const second = await createRunner({ store: other, waitForInFlightMs: 10_000 }).call(tool, { orderId: 'o_1', amountCents: 500 }, { run });
    const firstResult = await first;
    expect(second).toEqual({ ...firstResult, replayed: true });
    expect(provider.effects()).toBe(1);
  });

  it('lets 20 concurrent waiters take the one result as replays', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider);
    const run = freshRun();
    const held = provider.hold();
    const first = createRunner({ store }).call(tool, { orderId: 'o_2', amountCents: 100 }, { run });
    await held.started;
    const waiters = Array.from({ length: 20 }, (_, i) =>
      createRunner({ store: i % 2 === 0 ? store : other }).call(tool, { orderId: 'o_2', amountCents: 100 }, { run, waitForInFlightMs: 10_000 }),
    );
    await sleep(30);
    held.release();
    const results = await Promise.all(waiters);
    const firstResult = await first;
    expect(results.every((r) => r.replayed)).toBe(true);
    for (const r of results) expect(r.result).toEqual(firstResult.result);
    expect(provider.effects()).toBe(1);
  });

  it('answers ConcurrentCallError with a short retryAfterMs, not the remaining lock, when not waiting', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider);
    const run = freshRun();
    const held = provider.hold();
    const first = createRunner({ store }).call(tool, { orderId: 'o_3', amountCents: 100 }, { run });
    await held.started;
    const busy = await createRunner({ store: other }).tryCall(tool, { orderId: 'o_3', amountCents: 100 }, { run });
    expect(busy).toMatchObject({ ok: false, error: expect.any(ConcurrentCallError) });
    const error = busy.ok ? undefined : (busy.error as ConcurrentCallError);
    expect(error?.retryAfterMs).toBeLessThanOrEqual(CONCURRENT_RETRY_AFTER_MS);
    expect(error?.retryAfterMs).toBeLessThan(DEFAULT_LOCK_MS / 10);
    // The lock itself still says how long the holder may keep it.
    expect(error?.lockExpiresAt).toBeGreaterThan(Date.now() + DEFAULT_LOCK_MS / 2);
    held.release();
    await first;
    expect(provider.effects()).toBe(1);
  });

  it('gives up after waitForInFlightMs with ConcurrentCallError and a backoff no longer than the poll ceiling', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider);
    const run = freshRun();
    const held = provider.hold();
    const first = createRunner({ store }).call(tool, { orderId: 'o_4', amountCents: 100 }, { run });
    await held.started;
    const late = await createRunner({ store: other, waitForInFlightMs: 80 }).tryCall(tool, { orderId: 'o_4', amountCents: 100 }, { run });
    expect(late).toMatchObject({ ok: false, error: expect.any(ConcurrentCallError) });
    expect(late.ok ? 0 : (late.error as ConcurrentCallError).retryAfterMs).toBeLessThanOrEqual(MAX_POLL_MS);
    held.release();
    await first;
    expect(provider.effects()).toBe(1);
  });

  it('runs the next attempt itself when the in-flight call fails while it waits', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider);
    const run = freshRun();
    provider.failNext(1);
    const held = provider.hold();
    const first = createRunner({ store }).tryCall(tool, { orderId: 'o_5', amountCents: 100 }, { run });
    await held.started;
    const waiting = createRunner({ store: other, waitForInFlightMs: 10_000 }).call(tool, { orderId: 'o_5', amountCents: 100 }, { run });
    await sleep(20);
    held.release();
    expect(await first).toMatchObject({ ok: false, error: { message: 'provider returned 503' } });
    expect(await waiting).toMatchObject({ replayed: false, attempt: 2 });
    expect(provider.effects()).toBe(1);
  });
});
