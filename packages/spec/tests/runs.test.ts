/** openRun: a run id created once from a durable origin, stored, and reloaded on resume. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../src/errors.js';
import { createRunner } from '../src/runner.js';
import { openRun } from '../src/runs.js';
import type { RunOrigin } from '../src/run.js';
import type { DedupStore } from '../src/stores/types.js';
import { memoryProvider } from './helpers/provider.js';
import { openStoreFor, storeFromConfig, storesUnderTest } from './helpers/stores.js';
import { refundTool } from './helpers/tools.js';

describe.each(storesUnderTest())('openRun on the $name store', (subject) => {
  let store: DedupStore;
  const origin = (id: string): RunOrigin => ({ kind: 'queue_message', id: `${id}-${Math.random().toString(36).slice(2)}` });
  // Fails every test loudly (never skips) when the backend is unreachable.
  const openStore = openStoreFor(subject, { beforeAll, afterAll });
  beforeEach(() => {
    store = openStore();
  });

  it('creates the run id once and reloads it on resume, never regenerating it', async () => {
    const message = origin('msg');
    const first = await openRun(store, message);
    expect(first).toMatchObject({ resumed: false, origin: message });
    expect(first.id).toMatch(/^run_[0-9a-f-]{36}$/);
    const resumed = await openRun(store, message);
    expect(resumed).toMatchObject({ id: first.id, resumed: true, createdAt: first.createdAt });
    expect((await openRun(store, origin('msg'))).id).not.toBe(first.id);
    expect((await openRun(store, { kind: 'job', id: message.id })).id).not.toBe(first.id);
  });

  it('survives a restart: a new store on the same backend reads the same id', async () => {
    const job = origin('job');
    const before = await openRun(store, job);
    // The memory store cannot outlive itself: that is what its name says. Every other store must.
    if (subject.name === 'memory') return;
    const restarted = storeFromConfig(subject.config);
    try {
      expect(await openRun(restarted, job)).toMatchObject({ id: before.id, resumed: true });
    } finally {
      await restarted.close();
    }
  });

  it('keeps tenants apart and hands every concurrent opener the same id', async () => {
    const workflow = origin('wf');
    const a = await openRun(store, workflow, { namespace: 'tenant-a' });
    const b = await openRun(store, workflow, { namespace: 'tenant-b' });
    expect(a.id).not.toBe(b.id);
    const racers = await Promise.all(Array.from({ length: 10 }, () => openRun(store, origin('race'))));
    expect(new Set(racers.map((r) => r.id)).size).toBe(10); // ten origins, ten runs
    const same = origin('same');
    const together = await Promise.all(Array.from({ length: 10 }, () => openRun(store, same)));
    expect(new Set(together.map((r) => r.id)).size).toBe(1);
    expect(together.filter((r) => !r.resumed)).toHaveLength(1);
  });

  it('makes a redelivered message replay instead of repeating the refund', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider);
    const runner = createRunner({ store });
    const message = origin('redelivered');
    const firstDelivery = await openRun(store, message);
    await runner.call(tool, { orderId: 'o_r', amountCents: 10 }, { run: firstDelivery });
    const redelivery = await openRun(store, message);
    expect(await runner.call(tool, { orderId: 'o_r', amountCents: 10 }, { run: redelivery })).toMatchObject({ replayed: true });
    expect(provider.effects()).toBe(1);
  });

  it('fails loudly rather than making up an id when the store is down', async () => {
    const down = subject.unreachable();
    const error = await openRun(down, origin('down')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toContain('do not make up a run id');
    await down.close();
  });

  it('rejects an origin that cannot identify a run', async () => {
    await expect(openRun(store, { kind: 'job', id: '' })).rejects.toThrow(TypeError);
    await expect(openRun(store, { kind: 'cron' as 'job', id: 'x' })).rejects.toThrow(/kind one of/);
  });
});

// Issue 13, item 8: a run record that expires before the dedup records built on it gives a
// redelivery a new run id, so new keys, and the effect runs again.
describe('openRun with a run TTL shorter than the dedup TTL', () => {
  it('is refused with DurabilityConfigError before anything is opened', async () => {
    const { createNonDurableMemoryStore } = await import('../src/stores/memory.js');
    const { DurabilityConfigError } = await import('../src/errors.js');
    const { DEFAULT_TTL_MS } = await import('../src/runner.js');
    const store = createNonDurableMemoryStore();
    const runner = createRunner({ store, ttlMs: 8 * DEFAULT_TTL_MS });
    const message: RunOrigin = { kind: 'queue_message', id: 'm_short' };
    // Shorter than the default dedup TTL (24 h); the default run TTL (7 days) is shorter than this runner's (8 days).
    await expect(openRun(store, message, { ttlMs: 60 * 60 * 1000 })).rejects.toMatchObject({ code: 'durability_config', reason: 'run_ttl_below_dedup_ttl' });
    await expect(openRun(store, message, { dedupTtlMs: runner.ttlMs })).rejects.toBeInstanceOf(DurabilityConfigError);
    expect(store.size).toBe(0);
    // At least as long is accepted; the default (7 days) is above the default dedup TTL.
    await expect(openRun(store, message, { ttlMs: runner.ttlMs, dedupTtlMs: runner.ttlMs })).resolves.toMatchObject({ resumed: false });
    await expect(openRun(store, { kind: 'job', id: 'j_default' })).resolves.toMatchObject({ resumed: false });
    await expect(openRun(store, message, { ttlMs: 0 })).rejects.toBeInstanceOf(RangeError);
  });
});
