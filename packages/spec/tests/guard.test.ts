/**
 * The guarded-call primitive: a tool with a declared policy and no key of its own, run through the
 * runner by its class, keyed by the durable run, the tool and the canonical arguments.
 */
import { describe, expect, it } from 'vitest';
import { callKey } from '../src/loop/callKey.js';
import { vouchDurable } from '../src/durable.js';
import { AttemptsExhaustedError, ConcurrentCallError, InputNotFingerprintableError, KeyReuseError } from '../src/errors.js';
import { currentCall, guardedRecord, runGuarded, type GuardedCall } from '../src/loop/guard.js';
import { MAX_KEY_LENGTH, type DeterministicKey } from '../src/key.js';
import type { ToolPolicy } from '../src/policy.js';
import { createRunner } from '../src/runner.js';
import { createNonDurableMemoryStore } from '../src/stores/memory.js';
import { freshRun } from './helpers/tools.js';

const refundPolicy: ToolPolicy = Object.freeze({ side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 2 });
const appendPolicy: ToolPolicy = Object.freeze({ side_effects: 'internal_write', idempotent: false, retry: 'never', max_attempts: 1 });
const statusPolicy: ToolPolicy = Object.freeze({ side_effects: 'internal_write', idempotent: true, retry: 'safe', max_attempts: 3 });

function setUp() {
  const runner = createRunner({ store: createNonDurableMemoryStore() });
  const ledger: string[] = [];
  const call = (overrides: Partial<GuardedCall<{ orderId: string; cents: number }, { n: number }>> = {}) =>
    ({
      tool: 'issue_refund',
      policy: refundPolicy,
      args: { orderId: 'o_1', cents: 500 },
      run: freshRun('guard'),
      execute: async (args: { orderId: string }) => {
        ledger.push(args.orderId);
        return { n: ledger.length };
      },
      ...overrides,
    }) as GuardedCall<{ orderId: string; cents: number }, { n: number }>;
  return { runner, ledger, call };
}

describe('callKey', () => {
  it('is the same for the same run, tool and arguments in any key order, and differs otherwise', () => {
    const run = { id: 'run_1' };
    const k = callKey(run, 'issue_refund', { orderId: 'o_1', cents: 500 });
    expect(k).toMatch(/^c1:run_1:issue_refund:[0-9a-f]{64}$/);
    expect(callKey(run, 'issue_refund', { cents: 500.0, orderId: 'o_1' })).toBe(k);
    expect(callKey(run, 'issue_refund', { orderId: 'o_1', cents: 501 })).not.toBe(k);
    expect(callKey(run, 'send_email', { orderId: 'o_1', cents: 500 })).not.toBe(k);
    expect(callKey({ id: 'run_2' }, 'issue_refund', { orderId: 'o_1', cents: 500 })).not.toBe(k);
  });

  it('hashes a run id and tool name too long for the 255-character limit, deterministically', () => {
    const run = { id: `thread_${'x'.repeat(300)}` };
    const k = callKey(run, 'issue_refund', {});
    expect(k.length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
    expect(k).toMatch(/^c1:h:[0-9a-f]{64}:[0-9a-f]{64}$/);
    expect(callKey(run, 'issue_refund', {})).toBe(k);
    expect(callKey({ id: `${run.id}y` }, 'issue_refund', {})).not.toBe(k);
  });

  it('rejects arguments that are not JSON data and a run without an id, before anything runs', () => {
    expect(() => callKey({ id: 'run_1' }, 'issue_refund', { at: new Map() })).toThrow(InputNotFingerprintableError);
    expect(() => callKey({ id: '' }, 'issue_refund', {})).toThrow(TypeError);
  });
});

describe('runGuarded', () => {
  it('called twice in a run (a new call id each time): one effect, the second the first result flagged replayed', async () => {
    const { runner, ledger, call } = setUp();
    const run = freshRun('twice');
    const first = await runGuarded(runner, call({ run }));
    const second = await runGuarded(runner, call({ run }));
    expect(first).toMatchObject({ ok: true, result: { n: 1 }, replayed: false, key: callKey(run, 'issue_refund', { orderId: 'o_1', cents: 500 }) });
    expect(second).toMatchObject({ ok: true, result: { n: 1 }, replayed: true });
    expect(ledger).toEqual(['o_1']);
    // Other arguments are other work; another run is other work.
    await runGuarded(runner, call({ run, args: { orderId: 'o_2', cents: 500 } }));
    await runGuarded(runner, call());
    expect(ledger).toHaveLength(3);
  });

  it('gives execute the key (and currentCall() anywhere below it) to pass downstream', async () => {
    const { runner, call } = setUp();
    const run = freshRun('key');
    const seen: unknown[] = [];
    await runGuarded(runner, call({ run, execute: async (_args, context) => {
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(context.key, currentCall()?.key, currentCall()?.run.id);
      return { n: 1 };
    } }));
    const expected = callKey(run, 'issue_refund', { orderId: 'o_1', cents: 500 });
    expect(seen).toEqual([expected, expected, run.id]);
    expect(currentCall()).toBeUndefined();
  });

  it('runs a not-safely-repeatable tool once per call: a repeat replays, and after a failure it escalates instead of running again', async () => {
    const { runner, ledger, call } = setUp();
    const run = freshRun('append');
    await runGuarded(runner, call({ run, tool: 'append_note', policy: appendPolicy }));
    expect(await runGuarded(runner, call({ run, tool: 'append_note', policy: appendPolicy }))).toMatchObject({ ok: true, replayed: true });
    expect(ledger).toHaveLength(1);

    const failing = call({ run, tool: 'append_note', policy: appendPolicy, args: { orderId: 'o_9', cents: 1 }, execute: async () => {
      ledger.push('o_9');
      throw new Error('timeout after the write');
    } });
    expect(await runGuarded(runner, failing)).toMatchObject({ ok: false, decision: { action: 'escalate' } });
    const again = await runGuarded(runner, failing);
    expect(again).toMatchObject({ ok: false, decision: { action: 'escalate' } });
    expect(again.ok === false && again.error).toBeInstanceOf(AttemptsExhaustedError);
    expect(ledger.filter((id) => id === 'o_9')).toHaveLength(1);
  });

  it('runs a naturally idempotent tool every time, with no record', async () => {
    const { runner, ledger, call } = setUp();
    const run = freshRun('status');
    const status = call({ run, tool: 'set_status', policy: statusPolicy });
    expect(await runGuarded(runner, status)).toMatchObject({ ok: true, replayed: false });
    expect(await runGuarded(runner, { ...status, attempt: 2 })).toMatchObject({ ok: true, replayed: false, attempt: 2 });
    expect(ledger).toHaveLength(2);
    expect(await guardedRecord(runner, status)).toBeUndefined();
  });

  it('answers a with_key failure with decideRetry: retry with the same key, then escalate at max_attempts', async () => {
    const { runner, ledger, call } = setUp();
    const run = freshRun('retry');
    let failures = 1;
    const flaky = call({ run, execute: async () => {
      if (failures-- > 0) throw new Error('provider returned 503');
      ledger.push('o_1');
      return { n: 1 };
    } });
    const first = await runGuarded(runner, flaky);
    expect(first).toMatchObject({ ok: false, attempt: 1, decision: { action: 'retry' } });
    expect(await runGuarded(runner, flaky)).toMatchObject({ ok: true, replayed: false, attempt: 2 });
    expect(await runGuarded(runner, flaky)).toMatchObject({ ok: true, replayed: true });
    expect(ledger).toEqual(['o_1']);
  });

  it('with a caller-supplied key: other arguments are a KeyReuseError, and a call still running a ConcurrentCallError', async () => {
    const { runner, ledger, call } = setUp();
    const run = freshRun('wire');
    const key = vouchDurable('client-key-1') as unknown as DeterministicKey;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = call({ run, key, execute: async () => {
      ledger.push('o_1');
      await held;
      return { n: 1 };
    } });
    const first = runGuarded(runner, slow);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const concurrent = await runGuarded(runner, slow);
    expect(concurrent.ok === false && concurrent.error).toBeInstanceOf(ConcurrentCallError);
    expect(concurrent).toMatchObject({ decision: { action: 'retry' } });
    release();
    expect(await first).toMatchObject({ ok: true, key });
    const conflict = await runGuarded(runner, call({ run, key, args: { orderId: 'o_1', cents: 999 } }));
    expect(conflict.ok === false && conflict.error).toBeInstanceOf(KeyReuseError);
    expect(ledger).toEqual(['o_1']);
    expect(await guardedRecord(runner, slow)).toMatchObject({ status: 'completed', key });
  });

  it('scopes records to the namespace: one tenant never replays another\'s result', async () => {
    const { runner, ledger, call } = setUp();
    const run = freshRun('tenants');
    await runGuarded(runner, call({ run, namespace: 'acme' }));
    expect(await runGuarded(runner, call({ run, namespace: 'globex' }))).toMatchObject({ ok: true, replayed: false });
    expect(ledger).toHaveLength(2);
  });

  it('refuses a call without a declared policy, naming declarePolicy', async () => {
    const { runner, call } = setUp();
    await expect(runGuarded(runner, call({ policy: undefined as unknown as ToolPolicy }))).rejects.toThrow(/declarePolicy/);
  });
});
