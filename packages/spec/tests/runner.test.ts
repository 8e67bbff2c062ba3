/**
 * The runner against every store: the seed's handler (replay, key passed downstream), the IETF
 * draft's 409 and 422, release on failure, TTL, tenants, fail-closed, bad keys and results.
 * Every side-effecting path here has a called-twice check asserting a single effect.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import {
  AttemptsExhaustedError,
  ConcurrentCallError,
  KeyReuseError,
  StoreUnavailableError,
  UnserializableResultError,
} from '../src/errors.js';
import { InvalidKeyError } from '../src/key.js';
import { decideRetry } from '../src/retry.js';
import { createRunner, type Runner, type RunnerOptions } from '../src/runner.js';
import { createNonDurableMemoryStore } from '../src/stores/memory.js';
import type { DedupStore } from '../src/stores/types.js';
import { expectSingleEffect } from '../src/testing.js';
import { InputValidationError } from '../src/validate.js';
import { memoryProvider } from './helpers/provider.js';
import { openStoreFor, storeFromConfig, storesUnderTest } from './helpers/stores.js';
import { dateResultTool, freshRun, incrementTool, rawKeyTool, refundTool, setStatusTool } from './helpers/tools.js';

describe.each(storesUnderTest())('runner on the $name store', (subject) => {
  let store: DedupStore;
  const runnerOn = (options: Partial<RunnerOptions> = {}): Runner => createRunner({ store, ...options });

  // Fails every test loudly (never skips) when the backend is unreachable.
  const openStore = openStoreFor(subject, { beforeAll, afterAll });
  beforeEach(() => {
    store = openStore();
  });

  it('runs the effect once when called twice, and flags the second result as a replay', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider);
    const run = freshRun();
    const runner = runnerOn();
    const first = await runner.call(tool, { orderId: 'o_1', amountCents: 500 }, { run });
    const second = await runner.call(tool, { orderId: 'o_1', amountCents: 500 }, { run });
    expect(first).toEqual({ result: { refundId: 're_1', orderId: 'o_1', amountCents: 500 }, replayed: false, key: `${run.id}:o_1:refund`, attempt: 1 });
    expect(second).toEqual({ ...first, replayed: true });
    expect(provider.effects()).toBe(1);
    expect(provider.calls()).toEqual([`${run.id}:o_1:refund`]); // the key went downstream
    const record = await runner.recordFor(tool, { orderId: 'o_1', amountCents: 500 }, { run });
    expect(record).toMatchObject({ tool: 'issue_refund', key: `${run.id}:o_1:refund`, status: 'completed', attempts: 1 });
    expect(record?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('passes the called-twice helper with a real store', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const report = await expectSingleEffect(refundTool(provider), { orderId: 'o_2', amountCents: 100 }, {
      runner: runnerOn(),
      run: freshRun(),
      effects: () => provider.effects(),
    });
    expect(report.executions).toBe(1);
  });

  it('lets exactly one of 50 concurrent calls with one key run the effect', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider);
    const run = freshRun();
    const runner = runnerOn();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () => runner.tryCall(tool, { orderId: 'o_c', amountCents: 700 }, { run })),
    );
    expect(provider.effects()).toBe(1);
    const ran = outcomes.filter((o) => o.ok && !o.replayed);
    const replayed = outcomes.filter((o) => o.ok && o.replayed);
    const concurrent = outcomes.filter((o) => !o.ok && o.error instanceof ConcurrentCallError);
    expect(ran).toHaveLength(1);
    expect(replayed.length + concurrent.length).toBe(49);
    for (const outcome of concurrent) {
      expect(outcome.ok ? undefined : decideRetry(tool.policy, outcome)).toMatchObject({ action: 'retry' });
    }
    // Retrying the refused ones replays the single result.
    const retried = await runner.call(tool, { orderId: 'o_c', amountCents: 700 }, { run });
    expect(retried).toMatchObject({ replayed: true, result: { refundId: 're_1' } });
  });

  it('answers a call whose twin is still running with ConcurrentCallError, never a second effect', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider);
    const run = freshRun();
    const runner = runnerOn();
    const held = provider.hold();
    const first = runner.call(tool, { orderId: 'o_h', amountCents: 1 }, { run });
    await held.started;
    const error = await runner.call(tool, { orderId: 'o_h', amountCents: 1 }, { run }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcurrentCallError);
    expect(error).toMatchObject({ httpStatus: 409, tool: 'issue_refund', key: `${run.id}:o_h:refund`, attempt: 1 });
    held.release();
    await first;
    expect(await runner.call(tool, { orderId: 'o_h', amountCents: 1 }, { run })).toMatchObject({ replayed: true });
    expect(provider.effects()).toBe(1);
  });

  it('rejects the same key with a different input (KeyReuseError), running nothing', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider);
    const run = freshRun();
    const runner = runnerOn();
    await runner.call(tool, { orderId: 'o_m', amountCents: 500 }, { run });
    const error = await runner.call(tool, { orderId: 'o_m', amountCents: 900 }, { run }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeyReuseError);
    expect(error).toMatchObject({ httpStatus: 422, key: `${run.id}:o_m:refund` });
    expect(provider.effects()).toBe(1);
    // Key order does not change the fingerprint: this is the same input.
    expect(await runner.call(tool, { amountCents: 500, orderId: 'o_m' }, { run })).toMatchObject({ replayed: true });
  });

  it('releases the claim when the effect throws, keeps the error, rethrows, and lets a retry run once', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider);
    const run = freshRun();
    const runner = runnerOn();
    provider.failNext(1, 'provider returned 503');
    const failed = await runner.tryCall(tool, { orderId: 'o_f', amountCents: 5 }, { run });
    expect(failed).toMatchObject({ ok: false, attempt: 1, key: `${run.id}:o_f:refund` });
    expect(failed.ok ? undefined : (failed.error as Error).message).toBe('provider returned 503');
    expect(failed.ok ? undefined : decideRetry(tool.policy, failed)).toMatchObject({ action: 'retry' });
    const retried = await runner.call(tool, { orderId: 'o_f', amountCents: 5 }, { run });
    expect(retried).toMatchObject({ replayed: false, attempt: 2, result: { refundId: 're_1' } });
    const again = await runner.call(tool, { orderId: 'o_f', amountCents: 5 }, { run });
    expect(again).toMatchObject({ replayed: true, attempt: 2 });
    expect(provider.effects()).toBe(1);
    const record = await runner.recordFor(tool, { orderId: 'o_f', amountCents: 5 }, { run });
    expect(record?.errors).toEqual([expect.objectContaining({ attempt: 1, name: 'Error', message: 'provider returned 503' })]);
  });

  it('holds max_attempts per key across runners (processes), then escalates', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider, 2);
    const run = freshRun();
    provider.failNext(2);
    const first = await runnerOn().tryCall(tool, { orderId: 'o_x', amountCents: 5 }, { run });
    const second = await runnerOn().tryCall(tool, { orderId: 'o_x', amountCents: 5 }, { run });
    expect([first, second].map((o) => (o.ok ? 0 : o.attempt))).toEqual([1, 2]);
    expect(second.ok ? undefined : decideRetry(tool.policy, second)).toMatchObject({ action: 'escalate' });
    const third = await runnerOn().tryCall(tool, { orderId: 'o_x', amountCents: 5 }, { run });
    expect(third.ok ? undefined : third.error).toBeInstanceOf(AttemptsExhaustedError);
    expect(third.ok ? undefined : decideRetry(tool.policy, third)).toMatchObject({ action: 'escalate' });
    expect(provider.calls()).toHaveLength(2); // the third call never reached the provider
  });

  it('forgets a record after its TTL: the same key runs again, and purge removes it', async () => {
    let clock = 1_000_000;
    // Time moves by the runner's clock here, so a server-clocked store runs on the caller's clock.
    const moved = subject.config.clock === undefined && (subject.name === 'postgres' || subject.name === 'redis');
    const clocked = moved ? storeFromConfig({ ...subject.config, clock: 'caller' }) : store;
    onTestFinished(() => (moved ? clocked.close() : undefined));
    const runner = createRunner({ store: clocked, now: () => clock, ttlMs: 60_000, lockMs: 10_000 });
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider);
    const run = freshRun();
    await runner.call(tool, { orderId: 'o_t', amountCents: 5 }, { run });
    clock += 59_999;
    expect(await runner.call(tool, { orderId: 'o_t', amountCents: 5 }, { run })).toMatchObject({ replayed: true });
    clock += 60_000;
    expect(await runner.recordFor(tool, { orderId: 'o_t', amountCents: 5 }, { run })).toBeUndefined();
    expect(await runner.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await runner.call(tool, { orderId: 'o_t', amountCents: 5 }, { run })).toMatchObject({ replayed: false, attempt: 1 });
    expect(provider.effects()).toBe(2);
  });

  it("never replays one tenant's result to another", async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider);
    const run = freshRun();
    const tenantA = runnerOn({ namespace: 'tenant-a' });
    const tenantB = runnerOn({ namespace: 'tenant-b' });
    const a = await tenantA.call(tool, { orderId: 'o_n', amountCents: 5 }, { run });
    const b = await tenantB.call(tool, { orderId: 'o_n', amountCents: 5 }, { run });
    expect(a.key).toBe(b.key);
    expect(b).toMatchObject({ replayed: false, result: { refundId: 're_2' } });
    expect(await tenantA.call(tool, { orderId: 'o_n', amountCents: 5 }, { run })).toMatchObject({ replayed: true, result: { refundId: 're_1' } });
    expect(await tenantA.call(tool, { orderId: 'o_n', amountCents: 5 }, { run, namespace: 'tenant-b' })).toMatchObject({ replayed: true, result: { refundId: 're_2' } });
    expect(provider.effects()).toBe(2);
  });

  it('fails closed when the store is down: the effect does not run, the error says what to check', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const down = subject.unreachable();
    const runner = createRunner({ store: down });
    const outcome = await runner.tryCall(refundTool(provider), { orderId: 'o_d', amountCents: 5 }, { run: freshRun() });
    expect(outcome.ok).toBe(false);
    const error = outcome.ok ? undefined : outcome.error;
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toContain(down.info.location);
    expect((error as Error).message).toContain('did not run');
    expect((error as Error).message).toContain(down.info.checkHint);
    expect(outcome.ok ? undefined : decideRetry(refundTool(provider).policy, outcome)).toMatchObject({ action: 'escalate' });
    expect(provider.calls()).toEqual([]);
    await down.close();
  });

  it('rejects an empty key and a key over 255 characters before touching the store; accepts 255', async () => {
    const effects = { count: 0 };
    const tool = rawKeyTool(effects);
    const runner = runnerOn();
    const run = freshRun();
    await expect(runner.call(tool, { ticketKey: '' }, { run })).rejects.toMatchObject({ name: 'InvalidKeyError', reason: 'empty' });
    await expect(runner.call(tool, { ticketKey: 'k'.repeat(256) }, { run })).rejects.toBeInstanceOf(InvalidKeyError);
    expect(effects.count).toBe(0);
    const longest = `${'k'.repeat(250)}${Math.random().toString(36).slice(2, 7)}`;
    expect(longest).toHaveLength(255);
    await runner.call(tool, { ticketKey: longest }, { run });
    expect(await runner.call(tool, { ticketKey: longest }, { run })).toMatchObject({ replayed: true, key: longest });
    expect(effects.count).toBe(1);
  });

  it('rejects invalid input before deriving a key, running nothing', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const outcome = await runnerOn().tryCall(refundTool(provider), { orderId: 'o_i', amountCents: -5 }, { run: freshRun() });
    expect(outcome.ok ? undefined : outcome.error).toBeInstanceOf(InputValidationError);
    expect(outcome.ok ? undefined : decideRetry(refundTool(provider).policy, outcome)).toMatchObject({ action: 'refuse' });
    expect(provider.calls()).toEqual([]);
  });

  it('detects a result that JSON cannot hold right after the effect, loses nothing, never runs it twice', async () => {
    const effects = { count: 0 };
    const tool = dateResultTool(effects);
    const runner = runnerOn();
    const run = freshRun();
    const first = await runner.call(tool, { customerId: 'c_1' }, { run }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(UnserializableResultError);
    expect(first).toMatchObject({ replayed: false, reason: '$.scheduledAt is a Date (return date.toISOString())', result: { scheduledAt: new Date(0) } });
    const second = await runner.call(tool, { customerId: 'c_1' }, { run }).catch((e: unknown) => e);
    expect(second).toMatchObject({ name: 'UnserializableResultError', replayed: true, result: undefined });
    expect(effects.count).toBe(1);
    expect(await runner.recordFor(tool, { customerId: 'c_1' }, { run })).toMatchObject({ status: 'completed', resultError: expect.stringContaining('Date') });
  });

  it('runs naturally idempotent and not-repeatable tools directly, with no record', async () => {
    const state = new Map<string, string>();
    const writes = { count: 0 };
    const setStatus = setStatusTool(state, writes);
    const runner = runnerOn();
    const run = freshRun();
    const report = await expectSingleEffect(setStatus, { orderId: 'o_s', status: 'shipped' }, { runner, run });
    expect(report).toMatchObject({ executions: 2, first: { replayed: false }, second: { replayed: false } });
    expect(state.get('o_s')).toBe('shipped');

    const balance = { cents: 0 };
    const increment = incrementTool(balance);
    expect(await runner.call(increment, { cents: 100 }, { run })).toEqual({ result: { balanceCents: 100 }, replayed: false, attempt: 1 });
    // Called twice, it runs twice: the helper refuses to bless it.
    await expect(expectSingleEffect(increment, { cents: 100 }, { runner, run })).rejects.toMatchObject({ name: 'AssertionError' });
    expect(balance.cents).toBe(100);
  });

  it('runs a not-repeatable tool once per call and never retries it', async () => {
    const balance = { cents: 0 };
    const increment = incrementTool(balance, () => new Error('timeout after write'));
    const outcome = await runnerOn().tryCall(increment, { cents: 5 }, { run: freshRun() });
    expect(balance.cents).toBe(5); // executed exactly once
    expect(outcome.ok ? undefined : decideRetry(increment.policy, outcome)).toMatchObject({ action: 'escalate' });
  });
});

describe('the lock heartbeat', () => {
  // Real time passes here (lockMs is 300 ms); what is asserted is behaviour, not a duration.
  it('keeps a slow effect locked past lockMs, so a second call cannot run it too', async () => {
    const store = createNonDurableMemoryStore();
    const provider = memoryProvider({ dedupeByKey: false });
    const run = freshRun();
    const input = { orderId: 'o_slow', amountCents: 5 };
    let second: unknown;
    const slow = refundTool({
      async refund(orderId, amountCents, idempotencyKey) {
        const started = Date.now();
        while (Date.now() - started < 450) await new Promise((resolve) => setTimeout(resolve, 25));
        second = await createRunner({ store }).call(refundTool(provider), input, { run }).catch((e: unknown) => e);
        return provider.refund(orderId, amountCents, idempotencyKey);
      },
    });
    await createRunner({ store, lockMs: 300 }).call(slow, input, { run });
    expect(second).toBeInstanceOf(ConcurrentCallError);
    expect(provider.effects()).toBe(1);
  });
});
