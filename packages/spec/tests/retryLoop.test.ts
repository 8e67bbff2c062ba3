/** retryByPolicy and callWithPolicy: the reference loop's logic, public. */
import { describe, expect, it } from 'vitest';
import { ConcurrentCallError, DurabilityConfigError, IndeterminateOutcomeError, InvalidIdentifierError } from '../src/errors.js';
import { describeFailure } from '../src/loop/failureText.js';
import { runGuarded } from '../src/loop/guard.js';
import type { ToolPolicy } from '../src/policy.js';
import { callWithPolicy, retryByPolicy } from '../src/loop/retryLoop.js';
import { createRunner } from '../src/runner.js';
import { createNonDurableMemoryStore } from '../src/stores/memory.js';
import { memoryProvider } from './helpers/provider.js';
import { freshRun, incrementTool, refundTool } from './helpers/tools.js';

const noWait = async () => {};

describe('callWithPolicy', () => {
  it('retries a with_key tool with the same key after a 503: one refund, and a second loop replays it', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    provider.failNext(1);
    const runner = createRunner({ store: createNonDurableMemoryStore() });
    const run = freshRun('loop');
    const tool = refundTool(provider);
    const first = await callWithPolicy(runner, tool, { orderId: 'o_1', amountCents: 500 }, { run, sleep: noWait });
    const again = await callWithPolicy(runner, tool, { orderId: 'o_1', amountCents: 500 }, { run, sleep: noWait });
    expect(first).toMatchObject({ status: 'ok', replayed: false, attempts: 2 });
    expect(again).toMatchObject({ status: 'ok', replayed: true });
    expect(provider.effects()).toBe(1);
    expect(new Set(provider.calls()).size).toBe(1);
  });

  it('never retries a not-safely-repeatable tool: escalates after one write', async () => {
    const balance = { cents: 0 };
    const runner = createRunner({ store: createNonDurableMemoryStore() });
    const tool = incrementTool(balance, () => new Error('timeout after the write'));
    const report = await callWithPolicy(runner, tool, { cents: 100 }, { run: freshRun(), sleep: noWait });
    expect(report).toMatchObject({ status: 'escalated', attempts: 1, decision: { action: 'escalate' } });
    expect(balance.cents).toBe(100);
  });
});

describe('retryByPolicy', () => {
  const policy: ToolPolicy = { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 3 };

  it('waits for a call in progress without using an attempt, cut to maxDelayMs, and escalates after maxConcurrentWaits', async () => {
    const waits: number[] = [];
    const busy = new ConcurrentCallError({ tool: 't', key: 'k', namespace: '', attempt: 1, lockExpiresAt: 30_000, now: 0, retryAfterMs: 1000 });
    const report = await retryByPolicy(policy, async (n) => ({ ok: false, error: busy, attempt: n }), {
      sleep: async (ms) => void waits.push(ms),
      maxConcurrentWaits: 2,
      maxDelayMs: 250,
    });
    expect(waits).toEqual([250, 250]);
    expect(report).toMatchObject({ status: 'escalated', attempts: 1 });
  });

  it('backs off while a call stays in progress: the hint, doubled each wait, cut to maxDelayMs; a 3 s call is still awaited', async () => {
    const waits: number[] = [];
    const busy = new ConcurrentCallError({ tool: 't', key: 'k', namespace: '', attempt: 1, lockExpiresAt: 30_000, now: 0 });
    expect(busy.retryAfterMs).toBe(100);
    let waited = 0;
    const report = await retryByPolicy(
      policy,
      async (n) => (waited >= 3000 ? { ok: true, result: 'done', replayed: false, attempt: n } : { ok: false, error: busy, attempt: n }),
      {
        sleep: async (ms) => {
          waits.push(ms);
          waited += ms;
        },
      },
    );
    expect(waits).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(report).toMatchObject({ status: 'ok', result: 'done' });
  });

  it('retries a guarded call by its declared policy, the same key each time', async () => {
    const runner = createRunner({ store: createNonDurableMemoryStore() });
    const run = freshRun('guarded');
    const keys: unknown[] = [];
    let failures = 2;
    const report = await retryByPolicy(
      policy,
      () =>
        runGuarded(runner, {
          tool: 'issue_refund',
          policy,
          args: { orderId: 'o_1' },
          run,
          execute: async (_args, { key }) => {
            keys.push(key);
            if (failures-- > 0) throw new Error('provider returned 503');
            return { refundId: 're_1' };
          },
        }),
      { sleep: noWait },
    );
    expect(report).toMatchObject({ status: 'ok', attempts: 3, replayed: false });
    expect(new Set(keys).size).toBe(1);
  });
});

describe('describeFailure', () => {
  const refund: ToolPolicy = { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 1 };
  it('says whether calling again is safe, from the policy', () => {
    expect(describeFailure({ tool: 'issue_refund', error: new Error('503'), policy: { ...refund, max_attempts: 3 } })).toMatch(/safe to call it again/);
    expect(describeFailure({ tool: 'issue_refund', error: new Error('503'), policy: refund })).toMatch(/Do not call it again; tell the user a person needs to check/);
    expect(describeFailure({ tool: 'issue_refund', error: new Error('secret detail'), policy: refund })).not.toMatch(/secret/);
    expect(describeFailure({ tool: 'issue_refund', error: new Error('secret detail'), policy: refund }, { toolErrorMessages: true })).toMatch(/secret/);
  });

  it('keeps one full stop where a tool error message ends with its own (found by a new-user trial: "..")', () => {
    expect(describeFailure({ tool: 'create_ticket', error: new Error('The desk is closed.') }, { toolErrorMessages: true })).toBe('create_ticket failed: The desk is closed.');
    const text = describeFailure({ tool: 'issue_refund', error: new Error('Upstream said no.'), policy: { ...refund, max_attempts: 3 } }, { toolErrorMessages: true });
    expect(text).toMatch(/^issue_refund failed: Upstream said no \(attempt 1 of 3\)/);
    expect(text).not.toMatch(/\.\./);
  });

  it("tells the model what issue 13's errors mean for the effect", () => {
    const id = { tool: 'issue_refund', key: 'k', namespace: '' };
    const text = (error: unknown) => describeFailure({ tool: 'issue_refund', error, policy: refund });
    expect(text(new InvalidIdentifierError('key', 'k\uDC00', 'an unpaired UTF-16 surrogate (U+DC00) at index 1'))).toMatch(/did not run.*nothing happened/s);
    expect(text(new DurabilityConfigError('volatile_store', 'no persistence'))).toMatch(/did not run.*needs fixing/s);
    expect(text(new IndeterminateOutcomeError({ ...id, attempt: 1, detail: 'unknown' }))).toMatch(/a person needs to check whether it happened/);
    expect(text(new InvalidIdentifierError('namespace', 'a\u0000', 'U+0000 (NUL) at index 1'))).not.toMatch(/unavailable/);
  });
});
