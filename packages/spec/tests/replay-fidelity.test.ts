/**
 * Issue 13, item 6: the first call and every replay return the same value. The design: the first
 * call returns the stored form too (`JSON.parse` of the text the record keeps), so `-0`, a
 * null-prototype object and an `undefined` property read the same on the first call as on a
 * replay; a value JSON cannot keep (Date, Map, Set, bigint, NaN, Infinity, sparse array, class
 * instance, cycle) is refused with UnserializableResultError on the first call and on every
 * replay, after the effect ran once and with the record completed (nothing runs twice).
 */
import { deepStrictEqual } from 'node:assert/strict';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UnserializableResultError } from '../src/errors.js';
import { key } from '../src/key.js';
import { createRunner } from '../src/runner.js';
import type { DedupStore } from '../src/stores/types.js';
import { defineTool } from '../src/tool.js';
import { openStoreFor, storesUnderTest } from './helpers/stores.js';
import { freshRun } from './helpers/tools.js';

class Money {
  constructor(readonly cents: number) {}
}
const nullProto = () => Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, nested: Object.assign(Object.create(null) as object, { b: 2 }) });
// eslint-disable-next-line no-sparse-arrays -- the case under test
const sparse = () => [1, , 3];
const cyclic = () => {
  const value: Record<string, unknown> = { a: 1 };
  value['self'] = value;
  return value;
};

// Values JSON keeps, up to a normalisation the first call now shares with every replay.
const KEPT: readonly [string, () => unknown][] = [
  ['-0', () => -0],
  ['-0 in an object', () => ({ balance: -0, list: [-0] })],
  ['a null-prototype object', nullProto],
  ['an undefined property', () => ({ id: 're_1', note: undefined })],
  ['undefined as the whole result', () => undefined],
  ['null', () => null],
  ['a lone surrogate in a string', () => ({ text: 'a\uDC00b' })],
  ['U+0000 in a string', () => ({ text: 'a\u0000b' })],
  ['a __proto__ own property', () => JSON.parse('{"__proto__": {"x": 1}, "y": 2}') as unknown],
  ['an array with an extra property', () => Object.assign([1, 2], { extra: true })],
  ['a symbol-keyed property', () => ({ a: 1, [Symbol('s')]: 2 })],
  ['large and fractional numbers', () => ({ big: Number.MAX_SAFE_INTEGER, tiny: 5e-324, frac: 0.1 + 0.2 })],
];

// Values JSON cannot keep: refused alike on the first call and on replays.
const REFUSED: readonly [string, () => unknown][] = [
  ['a Date', () => ({ at: new Date(0) })],
  ['a Map', () => new Map([['a', 1]])],
  ['a Set', () => ({ tags: new Set(['x']) })],
  ['a bigint', () => ({ cents: 10n })],
  ['NaN', () => ({ rate: Number.NaN })],
  ['Infinity', () => ({ rate: Number.POSITIVE_INFINITY })],
  ['a sparse array', sparse],
  ['undefined in an array', () => [1, undefined]],
  ['a class instance', () => new Money(5)],
  ['a cycle', cyclic],
  ['a boxed number', () => ({ n: Object(1) as unknown })],
];

function toolReturning(name: string, make: () => unknown, effects: { count: number }) {
  return defineTool({
    name: `replay_${name.replace(/[^a-z0-9]+/gi, '_')}`,
    sideEffects: 'internal_write',
    idempotent: 'with_key',
    retry: 'safe_with_same_key',
    input: z.object({ id: z.string() }),
    key: ({ run, input }) => key`${run.id}:${input.id}:replay`,
    execute: async () => {
      effects.count += 1;
      return make();
    },
  });
}

describe.each(storesUnderTest())('replay fidelity on the $name store', (subject) => {
  let store: DedupStore;
  const openStore = openStoreFor(subject, { beforeAll, afterAll });
  beforeEach(() => {
    store = openStore();
  });

  it.each(KEPT)('returns the same value on the first call and every replay: %s', async (name, make) => {
    const effects = { count: 0 };
    const tool = toolReturning(name, make, effects);
    const run = freshRun();
    const runner = createRunner({ store });
    const first = await runner.call(tool, { id: 'i_1' }, { run });
    const replay = await runner.call(tool, { id: 'i_1' }, { run });
    // A second runner, as another process would replay it.
    const elsewhere = await createRunner({ store }).call(tool, { id: 'i_1' }, { run });
    expect(first.replayed).toBe(false);
    expect(replay.replayed && elsewhere.replayed).toBe(true);
    deepStrictEqual(replay.result, first.result);
    deepStrictEqual(elsewhere.result, first.result);
    // The stored form is JSON's: what the record keeps is what both calls returned.
    deepStrictEqual(first.result, make() === undefined ? undefined : JSON.parse(JSON.stringify(make())));
    expect(effects.count).toBe(1);
  });

  it.each(REFUSED)('refuses %s alike on the first call and on replays, after one effect', async (name, make) => {
    const effects = { count: 0 };
    const tool = toolReturning(name, make, effects);
    const run = freshRun();
    const runner = createRunner({ store });
    const first = await runner.tryCall(tool, { id: 'i_1' }, { run });
    const replay = await runner.tryCall(tool, { id: 'i_1' }, { run });
    expect(first).toMatchObject({ ok: false, error: expect.any(UnserializableResultError) });
    expect(replay).toMatchObject({ ok: false, error: expect.any(UnserializableResultError) });
    const [a, b] = [first, replay].map((o) => (o.ok ? undefined : (o.error as UnserializableResultError)));
    expect(a).toMatchObject({ replayed: false });
    expect(b).toMatchObject({ replayed: true, reason: a?.reason });
    expect(effects.count).toBe(1);
    const record = await runner.recordFor(tool, { id: 'i_1' }, { run });
    expect(record).toMatchObject({ status: 'completed', resultError: a?.reason });
  });
});
