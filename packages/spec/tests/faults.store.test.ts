/**
 * Issue 13, items 1, 2, 4 and 5, as named regression tests on the real stores: a record never
 * expires under a live lease, a claim whose reply was lost recognises its own record (and one
 * that never started is not an attempt), a holder that loses its lease is told (AbortSignal), and
 * PostgreSQL and Redis decide expiry by their own clock. Faults are injected for real: a TCP proxy
 * on 127.0.0.1 loses a reply after the server acted on the request, refuses connections, or
 * pauses every byte (a partition). Real time passes (leases of a few hundred ms); what is asserted
 * is behaviour and order, never a duration.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { z } from 'zod';
import { ConcurrentCallError, LeaseLostError, StoreUnavailableError } from '../src/errors.js';
import { key } from '../src/key.js';
import { createRunner } from '../src/runner.js';
import { createNonDurableMemoryStore } from '../src/stores/memory.js';
import type { DedupRecord, DedupStore } from '../src/stores/types.js';
import { defineTool, type KeyedExecuteContext } from '../src/tool.js';
import { openStoreFor, PG_URL, REDIS_URL, storeFromConfig, storesUnderTest, type StoreUnderTest } from './helpers/stores.js';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.js';
import { freshRun } from './helpers/tools.js';

/** A with_key tool whose effect is `body`; every effect that starts is pushed to `ledger` (the independent count). */
function ledgerTool(ledger: string[], body: (context: KeyedExecuteContext, nth: number) => Promise<unknown>, maxAttempts = 3) {
  return defineTool({
    name: 'transfer_funds',
    sideEffects: 'money_out',
    idempotent: 'with_key',
    retry: 'safe_with_same_key',
    maxAttempts,
    input: z.object({ transferId: z.string() }),
    key: ({ run, input }) => key`${run.id}:${input.transferId}`,
    execute: async (_input, context) => {
      ledger.push(context.key);
      return body(context, ledger.length);
    },
  });
}

/** Resolves when `signal` aborts (or after `capMs`, so a missing abort fails an assertion rather than hanging). */
const aborted = (signal: AbortSignal | undefined, capMs = 10_000) =>
  new Promise<void>((resolve) => {
    if (!signal || signal.aborted) return resolve();
    const timer = setTimeout(resolve, capMs);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

/** The runner's warnings (RETRYSAFE_RECORD) while a test runs. */
function captureWarnings(): string[] {
  const seen: string[] = [];
  const listener = (warning: Error & { code?: string }) => {
    if (warning.code === 'RETRYSAFE_RECORD') seen.push(warning.message);
  };
  process.on('warning', listener);
  onTestFinished(() => void process.off('warning', listener));
  return seen;
}

const durable = storesUnderTest().filter((s) => s.name !== 'memory');

describe.each(durable)('issue 13 on the $name store (its own clock)', (subject) => {
  const openStore = openStoreFor(subject, { beforeAll, afterAll });

  it('13.1: a slow effect whose heartbeat renews past ttlMs keeps its record: a second caller is refused, one effect', async () => {
    const store = openStore();
    const ledger: string[] = [];
    const run = freshRun('ttl');
    const input = { transferId: 't_slow' };
    // Renewals every 200 ms; the record's TTL passes mid-effect. The lock is as long as the TTL so
    // that a renewal delayed by a loaded machine (an event-loop stall under 600 ms) cannot lapse it.
    const options = { store, ttlMs: 600, lockMs: 600 };
    let second: unknown;
    const tool = ledgerTool(ledger, async (_context, nth) => {
      if (nth === 1) {
        await sleep(1500);
        second = await createRunner(options).call(tool, input, { run }).catch((error: unknown) => error);
        await sleep(100);
      }
      return { nth };
    });
    const first = await createRunner(options).call(tool, input, { run });
    expect(first).toMatchObject({ replayed: false, attempt: 1, result: { nth: 1 } });
    expect(second).toBeInstanceOf(ConcurrentCallError);
    expect(ledger).toHaveLength(1);
    expect(await createRunner(options).call(tool, input, { run })).toMatchObject({ replayed: true, result: { nth: 1 } });
    expect(ledger).toHaveLength(1);
  });
});

/** The store of `subject` reached through `proxy` instead of directly. */
function storeThrough(subject: StoreUnderTest, proxy: TcpProxy): DedupStore {
  const url = new URL(subject.config.url as string);
  url.port = String(proxy.port);
  return storeFromConfig({ ...subject.config, url: url.toString() });
}
const portOf = (url: string) => Number(new URL(url).port);

const served = durable.filter((s) => s.name === 'postgres' || s.name === 'redis');

describe.each(served)('issue 13 on the $name store through a faulty network', (subject) => {
  const openStore = openStoreFor(subject, { beforeAll, afterAll });
  const proxied = async () => {
    const proxy = await startTcpProxy(portOf(subject.name === 'postgres' ? PG_URL : REDIS_URL));
    const store = storeThrough(subject, proxy);
    onTestFinished(async () => {
      await store.close().catch(() => {});
      await proxy.close();
    });
    await store.ready();
    return { proxy, store };
  };

  it('13.2: a claim whose reply was lost is re-sent and recognises its own record: max_attempts 1 runs once, attempt 1', async () => {
    const { proxy, store } = await proxied();
    const ledger: string[] = [];
    const tool = ledgerTool(ledger, async (_context, nth) => ({ nth }), 1);
    const run = freshRun('lost_reply');
    const input = { transferId: 't_lost' };
    void proxy.loseNextReply();
    const outcome = await createRunner({ store }).call(tool, input, { run });
    expect(proxy.lostReplies).toBe(1); // the claim reached the server, its reply did not come back
    expect(outcome).toMatchObject({ replayed: false, attempt: 1, result: { nth: 1 } });
    expect(ledger).toHaveLength(1);
    const record = await createRunner({ store: openStore() }).recordFor(tool, input, { run });
    expect(record).toMatchObject({ status: 'completed', attempts: 1, errors: [] });
  });

  it('13.2: a claim lost while the store stays unreachable is abandoned once it is back: it is not an attempt, max_attempts 1 still runs once', async () => {
    const { proxy, store } = await proxied();
    const ledger: string[] = [];
    const tool = ledgerTool(ledger, async (_context, nth) => ({ nth }), 1);
    const run = freshRun('orphan');
    const input = { transferId: 't_orphan' };
    void proxy.loseNextReply({ thenRefuse: true });
    await expect(createRunner({ store }).call(tool, input, { run })).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(proxy.lostReplies).toBe(1);
    expect(ledger).toHaveLength(0);
    const direct = createRunner({ store: openStore() });
    // The orphan claim is in the store: the claim landed, only its reply was lost.
    expect(await direct.recordFor(tool, input, { run })).toMatchObject({ status: 'in_progress', attempts: 1 });
    proxy.refuse(false);
    await vi.waitFor(async () => expect(await direct.recordFor(tool, input, { run })).toMatchObject({ attempts: 0, owner: undefined }), { timeout: 20_000, interval: 100 });
    expect(await direct.call(tool, input, { run })).toMatchObject({ replayed: false, attempt: 1, result: { nth: 1 } });
    expect(ledger).toHaveLength(1);
  });

  it('13.4: a holder partitioned from the store for longer than lockMs gets the abort before the second caller runs; its completion is refused', async () => {
    const { proxy, store } = await proxied();
    const warnings = captureWarnings();
    const direct = openStore();
    const lockMs = 600;
    const events: string[] = [];
    const ledger: string[] = [];
    const run = freshRun('partition');
    const input = { transferId: 't_partition' };
    let reason: unknown;
    let second: unknown;
    const tool = ledgerTool(ledger, async ({ signal }, nth) => {
      events.push(`effect ${nth}`);
      if (nth > 1) return { by: 'second' };
      signal?.addEventListener('abort', () => events.push('abort 1'), { once: true });
      proxy.pause(true); // cut off: renewals stop reaching the store
      // Another caller keeps trying meanwhile, directly; it gets the key once the lease lapses.
      const other = createRunner({ store: direct, lockMs });
      for (let tries = 0; tries < 100; tries += 1) {
        second = await other.call(tool, input, { run }).catch((error: unknown) => error);
        if (!(second instanceof ConcurrentCallError)) break;
        await sleep(100);
      }
      await aborted(signal);
      reason = signal?.reason;
      proxy.pause(false); // the partition heals; this holder finishes and tries to record its result
      return { by: 'first' };
    });
    const first = await createRunner({ store, lockMs }).call(tool, input, { run });
    expect(first).toMatchObject({ replayed: false, attempt: 1, result: { by: 'first' }, unrecorded: { reason: 'lock_lost' } });
    expect(first.unrecorded?.detail).toContain('lapsed while its effect ran');
    expect(reason).toBeInstanceOf(LeaseLostError);
    expect(reason).toMatchObject({ code: 'lease_lost', reason: 'expired', attempt: 1 });
    expect(second).toMatchObject({ replayed: false, attempt: 2, result: { by: 'second' } });
    expect(events).toEqual(['effect 1', 'abort 1', 'effect 2']);
    // The first holder's completion was refused: the record holds the second's result.
    const record = await createRunner({ store: direct }).recordFor(tool, input, { run });
    expect(record).toMatchObject({ status: 'completed', attempts: 2, result: JSON.stringify({ by: 'second' }) });
    await vi.waitFor(() => expect(warnings.some((w) => w.includes('lapsed while its effect ran'))).toBe(true));
  });

  it('13.5: stamps what it writes by the server clock, whatever the caller passes; a release keeps the expiry', async () => {
    const store = openStore();
    const T0 = 1_700_000_000_000; // a caller's clock three years behind
    const request = { namespace: 'skew', tool: 't', key: `k_${Date.now()}`, fingerprint: 'f'.repeat(64), owner: 'o1', now: T0, lockMs: 1000, ttlMs: 60_000, maxAttempts: 3 };
    const claim = await store.claim(request);
    expect(claim.outcome).toBe('claimed');
    const { record } = claim;
    expect(Math.abs(record.createdAt - Date.now())).toBeLessThan(60_000);
    expect(record).toMatchObject({ updatedAt: record.createdAt, expiresAt: record.createdAt + 60_000, lockExpiresAt: record.createdAt + 1000 });
    const renewed = await store.renew(record, { now: T0 + 10, lockMs: 1000 });
    expect(renewed?.lockExpiresAt).toBe((renewed?.updatedAt ?? 0) + 1000);
    expect(renewed?.expiresAt).toBe(record.expiresAt);
    const released = await store.release(renewed!, { now: T0 + 20, error: { attempt: 1, at: T0 + 20, name: 'Error', message: 'x' } });
    expect(released).toMatchObject({ expiresAt: record.expiresAt, lockExpiresAt: undefined, owner: undefined });
    // By the caller's clock the record expired long ago; by the server's it is live.
    expect(await store.get(request, T0 + 10_000_000_000)).toBeDefined();
    if (subject.name === 'postgres') {
      // A run record too (Redis keeps a run by its PX, which is the server's clock already).
      const opened = await store.openRun({ namespace: 'skew', origin: `job:${request.key}`, candidateId: 'run_x', now: T0, ttlMs: 60_000 });
      expect(Math.abs(opened.createdAt - Date.now())).toBeLessThan(60_000);
      expect(opened.expiresAt).toBe(opened.createdAt + 60_000);
    }
  });

  it('13.5: a runner whose clock is 1.1 s ahead does not reclaim a live claim (lockMs 1000)', async () => {
    const store = openStore();
    const ledger: string[] = [];
    const run = freshRun('skew');
    const input = { transferId: 't_skew' };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tool = ledgerTool(ledger, async (_context, nth) => {
      if (nth === 1) await gate;
      return { nth };
    });
    const first = createRunner({ store, lockMs: 1000 }).call(tool, input, { run });
    await vi.waitFor(() => expect(ledger).toHaveLength(1));
    const ahead = createRunner({ store, lockMs: 1000, now: () => Date.now() + 1100 });
    await expect(ahead.call(tool, input, { run })).rejects.toBeInstanceOf(ConcurrentCallError);
    release();
    expect(await first).toMatchObject({ replayed: false, attempt: 1 });
    expect(await ahead.call(tool, input, { run })).toMatchObject({ replayed: true, attempt: 1 });
    expect(ledger).toHaveLength(1);
  });

  it('13.1 and 13.5: a heartbeating runner whose clock is 1.1 s behind still keeps its record (and Redis its key) past ttlMs', async () => {
    const store = openStore();
    const ledger: string[] = [];
    const run = freshRun('behind');
    const input = { transferId: 't_behind' };
    const behind = { store, ttlMs: 600, lockMs: 600, now: () => Date.now() - 1100 };
    let second: unknown;
    let midway: DedupRecord | undefined;
    const tool = ledgerTool(ledger, async (_context, nth) => {
      if (nth === 1) {
        await sleep(1500);
        midway = await createRunner({ store }).recordFor(tool, input, { run });
        second = await createRunner({ store, ttlMs: 600, lockMs: 600 }).call(tool, input, { run }).catch((error: unknown) => error);
      }
      return { nth };
    });
    await createRunner(behind).call(tool, input, { run });
    expect(second).toBeInstanceOf(ConcurrentCallError);
    expect(ledger).toHaveLength(1);
    expect(midway?.expiresAt).toBeGreaterThanOrEqual(midway?.lockExpiresAt ?? Infinity);
  });

  it('13.5: purgeExpired from a runner ttlMs ahead deletes nothing live', async () => {
    const store = openStore();
    const ledger: string[] = [];
    const run = freshRun('purge');
    const ttlMs = 60_000;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tool = ledgerTool(ledger, async ({ key: k }) => {
      if (k.endsWith(':t_running')) await gate;
      return { k };
    });
    const runner = createRunner({ store, ttlMs });
    await runner.call(tool, { transferId: 't_done' }, { run });
    const running = runner.call(tool, { transferId: 't_running' }, { run });
    await vi.waitFor(() => expect(ledger).toHaveLength(2));
    const ahead = createRunner({ store, ttlMs, now: () => Date.now() + ttlMs + 1000 });
    await ahead.purgeExpired();
    expect(await runner.recordFor(tool, { transferId: 't_done' }, { run })).toMatchObject({ status: 'completed' });
    expect(await runner.recordFor(tool, { transferId: 't_running' }, { run })).toMatchObject({ status: 'in_progress' });
    release();
    await running;
    expect(await runner.call(tool, { transferId: 't_done' }, { run })).toMatchObject({ replayed: true });
    expect(ledger).toHaveLength(2);
  });
});

describe('issue 13.4: the lease tells its holder when it is lost (memory store)', () => {
  it('aborts an effect whose event loop was blocked for longer than lockMs (reason: expired)', async () => {
    const store = createNonDurableMemoryStore();
    const ledger: string[] = [];
    let reason: unknown;
    const tool = ledgerTool(ledger, async ({ signal }) => {
      const started = Date.now();
      while (Date.now() - started < 450); // CPU-bound: no renewal can run
      await aborted(signal, 2_000);
      reason = signal?.reason;
      return { done: true };
    });
    const outcome = await createRunner({ store, lockMs: 200 }).call(tool, { transferId: 't_cpu' }, { run: freshRun('cpu') });
    expect(reason).toMatchObject({ code: 'lease_lost', reason: 'expired' });
    // Nobody took the key meanwhile, so this holder's result is still recorded.
    expect(outcome).toMatchObject({ replayed: false, attempt: 1 });
  });

  it('hands an effect that reads the signal only after its lease was lost a signal already aborted, with the reason', async () => {
    const store = createNonDurableMemoryStore();
    const ledger: string[] = [];
    let seen: { aborted: boolean; reason: unknown } | undefined;
    const tool = ledgerTool(ledger, async (context) => {
      const started = Date.now();
      while (Date.now() - started < 450); // CPU-bound past lockMs, the signal not read yet
      await sleep(50); // the lease's timer runs and finds the lease expired
      seen = { aborted: context.signal?.aborted ?? false, reason: context.signal?.reason };
      return { done: true };
    });
    await createRunner({ store, lockMs: 200 }).call(tool, { transferId: 't_late_signal' }, { run: freshRun('late-signal') });
    expect(seen).toMatchObject({ aborted: true, reason: { code: 'lease_lost', reason: 'expired' } });
  });

  it('makes no AbortController for an effect that never reads its signal; called twice, one effect', async () => {
    const store = createNonDurableMemoryStore();
    const ledger: string[] = [];
    const Original = globalThis.AbortController;
    let made = 0;
    globalThis.AbortController = class extends Original {
      constructor() {
        super();
        made += 1;
      }
    };
    onTestFinished(() => {
      globalThis.AbortController = Original;
    });
    const runner = createRunner({ store, lockMs: 300 });
    const run = freshRun('no-signal');
    const quiet = ledgerTool(ledger, async () => ({ done: true }));
    for (let call = 0; call < 2; call += 1) await runner.call(quiet, { transferId: 't_no_signal' }, { run });
    expect(ledger).toHaveLength(1);
    expect(made).toBe(0);
    // One that reads it gets one, and a live (not aborted) signal.
    let live: boolean | undefined;
    await runner.call(ledgerTool(ledger, async ({ signal }) => ((live = signal?.aborted === false), { done: true })), { transferId: 't_signal' }, { run });
    expect({ made, live }).toEqual({ made: 1, live: true });
  });

  it('renews a lease that started after an earlier one of the same runner ended (one timer for all leases): a second caller is refused', async () => {
    const store = createNonDurableMemoryStore();
    const ledger: string[] = [];
    const run = freshRun('shared-timer');
    // The runner's one lease timer is armed for the quick call's first renewal (~100 ms); the slow
    // call starts 20 ms later, so its renewal is due after that timer fires and must be re-armed.
    const runner = createRunner({ store, lockMs: 300 });
    let second: unknown;
    const tool = ledgerTool(ledger, async (_context, nth) => {
      if (nth === 2) {
        await sleep(900); // three lockMs: the lock lapses unless it is renewed meanwhile
        second = await createRunner({ store, lockMs: 300 }).call(tool, { transferId: 't_slow' }, { run }).catch((error: unknown) => error);
      }
      return { nth };
    });
    await runner.call(tool, { transferId: 't_quick' }, { run });
    await sleep(20);
    expect(await runner.call(tool, { transferId: 't_slow' }, { run })).toMatchObject({ replayed: false, attempt: 1, result: { nth: 2 } });
    expect(second).toBeInstanceOf(ConcurrentCallError);
    expect(ledger).toHaveLength(2);
  });

  it('aborts an effect whose renewal finds that another caller reclaimed the key (reason: reclaimed)', async () => {
    const store = createNonDurableMemoryStore();
    const warnings = captureWarnings();
    const ledger: string[] = [];
    const run = freshRun('reclaimed');
    const input = { transferId: 't_reclaimed' };
    let reason: unknown;
    let second: unknown;
    const tool = ledgerTool(ledger, async ({ signal }, nth) => {
      if (nth > 1) return { nth };
      // A caller whose clock says the lease lapsed (the memory store decides by the caller's clock).
      second = await createRunner({ store, lockMs: 300, now: () => Date.now() + 301 }).call(tool, input, { run });
      await aborted(signal, 5_000);
      reason = signal?.reason;
      return { nth };
    });
    const first = await createRunner({ store, lockMs: 300 }).call(tool, input, { run });
    expect(first.unrecorded?.reason).toBe('lock_lost');
    expect(second).toMatchObject({ replayed: false, attempt: 2 });
    expect(reason).toMatchObject({ code: 'lease_lost', reason: 'reclaimed' });
    await vi.waitFor(() => expect(warnings.some((w) => w.includes('lapsed while its effect ran'))).toBe(true));
  });
});
