/**
 * A property-based test (fast-check) over random schedules of calls, completions, failures,
 * crashes (a holder cut off from the store for good: its renewals and its outcome never arrive),
 * lease expiries, TTL expiries and purges, on every store, against a small model of what a
 * holder was promised:
 *
 * - no effect starts while another holder of the same key still holds a lease the store last
 *   confirmed to it (by the schedule's clock), and no effect starts on a key whose completion is
 *   recorded and within its TTL;
 * - a holder overtaken by a second effect is told: its AbortSignal fired, or its outcome was
 *   refused by the store;
 * - a replay deep-equals the result of the last recorded completion of its key.
 *
 * Time is a virtual clock the schedule moves (the stores decide by the caller's clock here, so
 * PostgreSQL and Redis run with `clock: 'caller'`); the heartbeat runs on real timers, every
 * lockMs / 3 real ms. The seed is fixed (RETRYSAFE_FC_SEED overrides it) and fast-check prints
 * it, with the failing schedule, on failure.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { key } from '../src/key.js';
import { createRunner, type CallResult } from '../src/runner.js';
import type { DedupStore } from '../src/stores/types.js';
import { defineTool } from '../src/tool.js';
import { openStoreFor, storesUnderTest } from './helpers/stores.js';
import { freshRun } from './helpers/tools.js';

const LOCK_MS = 60; // virtual ms of the lease, and real ms / 3 between renewals
// A TTL a few leases long, so that schedules cross it while a holder renews; on Redis the key's
// PX follows the TTL in real ms, so there it is long enough to outlast a schedule.
const ttlFor = (store: string) => (store === 'redis' ? 60_000 : 90);
const SEED = Number(process.env['RETRYSAFE_FC_SEED'] ?? 20_261_301);
const NUM_RUNS = Number(process.env['RETRYSAFE_FC_RUNS'] ?? 25);

type Op =
  | { readonly op: 'start'; readonly key: number }
  | { readonly op: 'finish'; readonly pick: number; readonly ok: boolean }
  | { readonly op: 'crash'; readonly pick: number }
  | { readonly op: 'advance'; readonly ms: number }
  | { readonly op: 'renewing' }
  | { readonly op: 'settle' }
  | { readonly op: 'purge' };

const ops = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constant('start' as const), key: fc.integer({ min: 0, max: 1 }) }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('finish' as const), pick: fc.nat(3), ok: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('crash' as const), pick: fc.nat(3) }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.constantFrom(LOCK_MS / 2, LOCK_MS + 1, 90 + 1, 60_000 + 1) }) },
    { weight: 2, arbitrary: fc.constant({ op: 'renewing' as const }) },
    { weight: 1, arbitrary: fc.constant({ op: 'settle' as const }) },
    { weight: 1, arbitrary: fc.constant({ op: 'purge' as const }) },
  ),
  { minLength: 3, maxLength: 16 },
);

/** One call of the schedule and what the model knows of it. */
interface Call {
  readonly id: number;
  readonly key: number;
  started: boolean;
  ended: boolean;
  crashed: boolean;
  /** The lock expiry the store last confirmed to this holder (claim or renewal), virtual ms. */
  leaseUntil: number;
  signal?: AbortSignal | undefined;
  /** The store refused this holder's complete or release (its lease was gone). */
  refused: boolean;
  finish?: (ok: boolean) => void;
  settled?: Promise<unknown>;
}

async function schedule(store: DedupStore, TTL_MS: number, steps: readonly Op[]): Promise<void> {
  let clock = 1_000_000;
  const run = freshRun('prop');
  const calls: Call[] = [];
  const violations: string[] = [];
  const overtaken: [Call, Call][] = [];
  const recorded = new Map<number, { value: unknown; at: number }>();

  const wrap = (call: Call): DedupStore => {
    const gate = <T>(step: () => Promise<T>): Promise<T> => (call.crashed ? Promise.reject(new Error('cut off from the store')) : step());
    return {
      info: store.info,
      ready: () => gate(() => store.ready()),
      claim: (request) =>
        gate(() => store.claim(request)).then((result) => {
          if (result.outcome === 'claimed') call.leaseUntil = result.record.lockExpiresAt ?? 0;
          return result;
        }),
      renew: (held, request) =>
        gate(() => store.renew(held, request)).then((record) => {
          if (record) call.leaseUntil = record.lockExpiresAt ?? 0;
          return record;
        }),
      complete: (held, request) =>
        gate(() => store.complete(held, request)).then((record) => {
          if (record === undefined) call.refused = true;
          else recorded.set(call.key, { value: record.result === undefined ? undefined : JSON.parse(record.result), at: request.now });
          return record;
        }),
      release: (held, request) =>
        gate(() => store.release(held, request)).then((record) => {
          if (record === undefined) call.refused = true;
          return record;
        }),
      get: (id, now) => gate(() => store.get(id, now)),
      purgeExpired: (now) => gate(() => store.purgeExpired(now)),
      openRun: (request) => gate(() => store.openRun(request)),
      close: async () => {},
    };
  };

  const start = async (keyIndex: number) => {
    const call: Call = { id: calls.length + 1, key: keyIndex, started: false, ended: false, crashed: false, leaseUntil: 0, refused: false };
    calls.push(call);
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    const tool = defineTool({
      name: 'prop_transfer',
      sideEffects: 'money_out',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      maxAttempts: 3,
      input: z.object({ k: z.number() }),
      key: ({ run: r, input }) => key`${r.id}:${input.k}`,
      execute: async (_input, context) => {
        // The model's judgement at the moment an effect starts.
        for (const other of calls) {
          if (other === call || other.key !== call.key || !other.started || other.ended) continue;
          if (clock < other.leaseUntil) violations.push(`call ${call.id} started while call ${other.id} held a live lease (clock ${clock} < ${other.leaseUntil})`);
          overtaken.push([other, call]);
        }
        const done = recorded.get(call.key);
        if (done && clock < done.at + TTL_MS) violations.push(`call ${call.id} ran the effect of a key completed at ${done.at}, within its TTL (clock ${clock})`);
        call.started = true;
        call.signal = context.signal;
        entered();
        return new Promise((resolve, reject) => {
          call.finish = (ok) => (ok ? resolve({ call: call.id }) : reject(new Error('provider 503')));
        });
      },
    });
    const runner = createRunner({ store: wrap(call), now: () => clock, lockMs: LOCK_MS, ttlMs: TTL_MS, purgeEveryMs: 0 });
    call.settled = runner.call(tool, { k: keyIndex }, { run }).then(
      (outcome: CallResult) => {
        call.ended = true;
        if (outcome.replayed) {
          const done = recorded.get(call.key);
          if (!done || !isDeepStrictEqual(outcome.result, done.value)) {
            violations.push(`call ${call.id} replayed ${JSON.stringify(outcome.result)}, the last recorded result is ${JSON.stringify(done?.value)}`);
          }
        }
      },
      () => {
        call.ended = true;
      },
    );
    await Promise.race([inHandler, call.settled]);
  };
  const running = () => calls.filter((c) => c.started && !c.ended && !c.crashed);

  for (const step of steps) {
    switch (step.op) {
      case 'start':
        await start(step.key);
        break;
      case 'finish': {
        const call = running()[step.pick % Math.max(1, running().length)];
        if (!call) break;
        call.finish?.(step.ok);
        await call.settled;
        break;
      }
      case 'crash': {
        const call = running()[step.pick % Math.max(1, running().length)];
        if (call) call.crashed = true; // its process is gone for the store: no renewal, no outcome
        break;
      }
      case 'advance':
        clock += step.ms;
        break;
      case 'renewing':
        // Time passes slowly enough for live holders to renew (a lease every lockMs / 3 real ms).
        for (let i = 0; i < 4; i += 1) {
          clock += 25; // 100 in all: past the TTL on every store but Redis
          await sleep(LOCK_MS / 2);
        }
        break;
      case 'settle':
        await sleep(LOCK_MS);
        break;
      case 'purge':
        await store.purgeExpired(clock);
        break;
    }
  }
  // Let every lease notice what happened to it (a renewal period or a few, more under load), then judge.
  const told = (call: Call) => call.signal?.aborted === true || call.refused;
  for (let waited = 0; waited < 3_000 && !overtaken.every(([first]) => told(first)); waited += LOCK_MS) await sleep(LOCK_MS);
  for (const [first, second] of overtaken) {
    if (!told(first)) violations.push(`call ${first.id} was overtaken by call ${second.id} and was not told (no abort, outcome not refused)`);
  }
  // Finish what still runs, so that no lease is left renewing.
  for (const call of running()) {
    call.finish?.(true);
    await call.settled;
  }
  if (violations.length > 0) throw new Error(violations.join('\n'));
}

describe.each(storesUnderTest({ clock: 'caller' }))('random schedules on the $name store', (subject) => {
  const openStore = openStoreFor(subject, { beforeAll, afterAll });

  it('never runs two effects under live leases, tells an overtaken holder, replays only the recorded result', async () => {
    const store = openStore();
    await fc.assert(
      fc.asyncProperty(ops, (steps) => schedule(store, ttlFor(subject.name), steps)),
      { seed: SEED, numRuns: NUM_RUNS, endOnFailure: true },
    );
    expect(true).toBe(true);
  }, 120_000);
});
