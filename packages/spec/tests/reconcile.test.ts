/**
 * Issue 13, "Indeterminate outcomes": a with_key tool over a provider that takes no idempotency
 * key. A crash after the provider call and before the record (simulated by an abandoned claim: an
 * effect that never returns, no heartbeat, so its lock lapses) leaves the record indeterminate;
 * the next call asks the tool's `reconcile` hook whether it happened before running it again, and
 * records the answer: done (completed and replayed: one effect), not done (runs: one effect),
 * unknown (IndeterminateOutcomeError, nothing runs, the record stays indeterminate).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IndeterminateOutcomeError } from '../src/errors.js';
import { key } from '../src/key.js';
import { decideRetry } from '../src/retry.js';
import { createRunner } from '../src/runner.js';
import { describeRecord, type ReconcileAnswer } from '../src/runtime/reconcile.js';
import type { RunContext } from '../src/run.js';
import type { DedupStore } from '../src/stores/types.js';
import { defineTool } from '../src/tool.js';
import { openStoreFor, storesUnderTest } from './helpers/stores.js';
import { freshRun } from './helpers/tools.js';

const LOCK_MS = 150;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Charge {
  readonly chargeId: string;
  readonly orderId: string;
  readonly amountCents: number;
}

/** A payment provider that takes no idempotency key: every call charges; charges carry metadata. */
function keylessProvider() {
  const charges: (Charge & { metadata: string })[] = [];
  return {
    async charge(orderId: string, amountCents: number, metadata: string): Promise<Charge> {
      const charge = { chargeId: `ch_${charges.length + 1}`, orderId, amountCents };
      charges.push({ ...charge, metadata });
      return charge;
    },
    async findByMetadata(metadata: string): Promise<Charge | undefined> {
      const found = charges.find((c) => c.metadata === metadata);
      return found && { chargeId: found.chargeId, orderId: found.orderId, amountCents: found.amountCents };
    },
    effects: () => charges.length,
  };
}

type Reconcile = (found: Charge | undefined) => ReconcileAnswer<Charge> | Promise<ReconcileAnswer<Charge>>;
const byLookup: Reconcile = (found) => (found ? { status: 'done', result: found } : { status: 'not_done' });

function chargeTool(provider: ReturnType<typeof keylessProvider>, reconcile: Reconcile, crash?: { beforeCall: boolean }) {
  const reconciles: number[] = [];
  const tool = defineTool({
    name: 'charge_order',
    sideEffects: 'money_out',
    idempotent: 'with_key',
    retry: 'safe_with_same_key',
    input: z.object({ orderId: z.string(), amountCents: z.number().int().positive() }),
    key: ({ run, input }) => key`${run.id}:${input.orderId}:charge`,
    execute: async ({ orderId, amountCents }, { key: k }) => {
      if (crash?.beforeCall) await new Promise(() => {}); // the process died before the provider call
      const charge = await provider.charge(orderId, amountCents, k);
      if (crash) await new Promise(() => {}); // ... or after it, before the record
      return charge;
    },
    reconcile: async (_input, context) => {
      reconciles.push(context.attempt);
      return reconcile(await provider.findByMetadata(context.key));
    },
  });
  return { tool, reconciles };
}

describe.each(storesUnderTest())('reconcile on the $name store', (subject) => {
  let store: DedupStore;
  const openStore = openStoreFor(subject, { beforeAll, afterAll });
  beforeEach(() => {
    store = openStore();
  });

  const input = { orderId: 'o_1', amountCents: 500 };

  /** A worker that starts the charge and then "dies": its claim is abandoned, its lock lapses. */
  async function crashMidCall(provider: ReturnType<typeof keylessProvider>, run: RunContext, beforeCall = false) {
    // Its hook is never asked: a first claim has no earlier attempt.
    const { tool } = chargeTool(provider, byLookup, { beforeCall });
    void createRunner({ store, lockMs: LOCK_MS, heartbeat: false }).call(tool, input, { run });
    // Wait until the claim is stored (and, after the call, until the charge landed).
    for (let i = 0; i < 200; i += 1) {
      const record = await createRunner({ store }).recordFor(tool, input, { run });
      if (record !== undefined && (beforeCall || provider.effects() > 0)) break;
      await sleep(5);
    }
    await sleep(LOCK_MS + 100);
  }

  it('shows the abandoned record as indeterminate, then records a done answer as completed and replays it: one effect', async () => {
    const provider = keylessProvider();
    const run = freshRun();
    await crashMidCall(provider, run);
    const { tool, reconciles } = chargeTool(provider, byLookup);
    const runner = createRunner({ store });
    const before = await runner.recordFor(tool, input, { run });
    expect(before && describeRecord(before)).toMatchObject({ state: 'indeterminate', attempt: 1 });

    const reconciled = await runner.call(tool, input, { run });
    expect(reconciled).toMatchObject({ replayed: true, result: { chargeId: 'ch_1', orderId: 'o_1', amountCents: 500 } });
    expect(reconciles).toEqual([1]);
    const after = await runner.recordFor(tool, input, { run });
    expect(after && describeRecord(after).state).toBe('completed');
    // Every later call replays the recorded answer without asking again.
    await expect(runner.call(tool, input, { run })).resolves.toEqual(reconciled);
    expect(reconciles).toEqual([1]);
    expect(provider.effects()).toBe(1);
  });

  it('runs the attempt when reconcile answers not done: one effect', async () => {
    const provider = keylessProvider();
    const run = freshRun();
    await crashMidCall(provider, run, true);
    const { tool, reconciles } = chargeTool(provider, byLookup);
    const runner = createRunner({ store });
    const ran = await runner.call(tool, input, { run });
    expect(ran).toMatchObject({ replayed: false, attempt: 2, result: { chargeId: 'ch_1' } });
    expect(reconciles).toEqual([1]);
    await expect(runner.call(tool, input, { run })).resolves.toMatchObject({ replayed: true, result: ran.result });
    expect(provider.effects()).toBe(1);
  });

  it.each([
    ['answers unknown', (() => ({ status: 'unknown', reason: 'the provider search is down' })) as Reconcile, 'the provider search is down'],
    ['throws', (() => Promise.reject(new Error('lookup timed out'))) as Reconcile, 'lookup timed out'],
    ['answers nonsense', (() => ({ status: 'maybe' }) as unknown as ReconcileAnswer<Charge>) as Reconcile, 'not { status'],
  ])('escalates with IndeterminateOutcomeError when reconcile %s, runs nothing, and keeps the record indeterminate', async (_, reconcile, detail) => {
    const provider = keylessProvider();
    const run = freshRun();
    await crashMidCall(provider, run);
    const { tool, reconciles } = chargeTool(provider, reconcile);
    const runner = createRunner({ store });
    const outcome = await runner.tryCall(tool, input, { run });
    expect(outcome).toMatchObject({ ok: false, error: expect.any(IndeterminateOutcomeError) });
    const error = outcome.ok ? undefined : (outcome.error as IndeterminateOutcomeError);
    expect(error).toMatchObject({ code: 'indeterminate_outcome', attempt: 1 });
    expect(error?.detail).toContain(detail);
    expect(outcome.ok ? undefined : decideRetry(tool.policy, outcome).action).toBe('escalate');
    const record = await runner.recordFor(tool, input, { run });
    expect(record?.owner).toBeUndefined(); // the reconciler let go of the key
    expect(record && describeRecord(record)).toMatchObject({ state: 'indeterminate' });
    expect(record?.errors.at(-1)).toMatchObject({ name: 'ReconcileUnknown' });
    // A retry asks again rather than running the effect blind.
    await expect(runner.call(tool, input, { run })).rejects.toBeInstanceOf(IndeterminateOutcomeError);
    expect(reconciles).toEqual([1, 1]);
    expect(provider.effects()).toBe(1);
  });

  it('does not ask reconcile after an ordinary failure (the attempt released its key with an error)', async () => {
    const provider = keylessProvider();
    const run = freshRun();
    let fail = true;
    const reconciles: number[] = [];
    const tool = defineTool({
      name: 'charge_order',
      sideEffects: 'money_out',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input: z.object({ orderId: z.string(), amountCents: z.number().int().positive() }),
      key: ({ run: r, input: i }) => key`${r.id}:${i.orderId}:charge`,
      execute: async ({ orderId, amountCents }, { key: k }) => {
        if (fail) {
          fail = false;
          throw new Error('card declined by a flaky network');
        }
        return provider.charge(orderId, amountCents, k);
      },
      reconcile: async (_i, context) => {
        reconciles.push(context.attempt);
        return { status: 'unknown' };
      },
    });
    const runner = createRunner({ store });
    await expect(runner.call(tool, input, { run })).rejects.toThrow('card declined');
    const released = await runner.recordFor(tool, input, { run });
    expect(released && describeRecord(released).state).toBe('free');
    await expect(runner.call(tool, input, { run })).resolves.toMatchObject({ replayed: false, attempt: 2 });
    expect(reconciles).toEqual([]);
    expect(provider.effects()).toBe(1);
  });
});

describe('defineTool reconcile', () => {
  it('is refused on a tool without a key', () => {
    expect(() =>
      defineTool({
        name: 'set_status',
        sideEffects: 'internal_write',
        idempotent: true,
        retry: 'safe',
        input: z.object({ id: z.string() }),
        execute: async () => 'ok',
        reconcile: async () => ({ status: 'not_done' }),
      } as never),
    ).toThrow(TypeError);
  });
});
