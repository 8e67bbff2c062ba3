import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { deepStrictEqual } from 'node:assert/strict';

import { findNonJson, fingerprint, NOT_PLAIN, recordFingerprint, storedCopy } from '../src/fingerprint.js';

// findNonJson runs on every keyed call (the input's fingerprint and the result's storage), so its
// common case, plain JSON, takes a fast path that builds no messages (bench/runtime.mjs). These
// cases pin that both paths agree: every problem is still found, with its path.

const cyclic: Record<string, unknown> = { a: 1 };
cyclic['self'] = cyclic;

describe('findNonJson', () => {
  it.each([
    ['a string', 'x'],
    ['a finite number', 1.5],
    ['null', null],
    ['undefined at the top level', undefined],
    ['an undefined property', { a: undefined }],
    ['nested plain data', { a: [1, 'b', { c: null, d: [true] }] }],
    ['an object without a prototype', Object.assign(Object.create(null), { a: 1 })],
    ['the same object twice (not a cycle)', (() => { const shared = { x: 1 }; return { a: shared, b: [shared] }; })()],
  ])('%s is JSON', (_name, value) => {
    expect(findNonJson(value, { allowDates: false })).toBeUndefined();
  });

  it.each([
    ['NaN', { a: [1, Number.NaN] }, '$.a[1] is NaN'],
    ['Infinity', Number.POSITIVE_INFINITY, '$ is Infinity'],
    ['a bigint', { n: 1n }, '$.n is a bigint'],
    ['a symbol', [Symbol('s')], '$[0] is a symbol'],
    ['a function', { f: () => 1 }, '$.f is a function'],
    ['undefined in an array', [1, undefined], '$[1] is undefined in an array (JSON turns it into null)'],
    ['a Map', { m: new Map() }, '$.m is a Map'],
    ['a class instance', { u: new URL('https://example.com') }, '$.u is a URL'],
    ['a cycle', cyclic, '$.self refers back to itself (a cycle)'],
    ['a Date in a result', { at: new Date(0) }, '$.at is a Date (return date.toISOString())'],
    ['a key that is not an identifier', { 'order-id': Number.NaN }, '$["order-id"] is NaN'],
  ])('%s is found with its path', (_name, value, message) => {
    expect(findNonJson(value, { allowDates: false })).toBe(message);
  });

  it('a valid Date is allowed where dates are, an invalid one is not', () => {
    expect(findNonJson({ at: new Date(0) }, { allowDates: true })).toBeUndefined();
    expect(findNonJson({ at: new Date(Number.NaN) }, { allowDates: true })).toBe('$.at is an invalid Date');
  });
});

describe('fingerprint', () => {
  it('is the SHA-256 of the RFC 8785 text: key order and number spelling do not matter', () => {
    expect(fingerprint({ b: 2, a: 1.0 })).toBe(fingerprint({ a: 1, b: 2 }));
    // sha256('{"a":1,"b":2}')
    expect(fingerprint({ a: 1, b: 2 })).toBe('43258cff783fe7036d8a43033f830adfc60ec037382473548ac742b888292777');
    expect(fingerprint({ a: 1, b: 3 })).not.toBe(fingerprint({ a: 1, b: 2 }));
  });

  it('throws on input that is not JSON data, naming it', () => {
    expect(() => fingerprint({ m: new Map() })).toThrow('$.m is a Map');
  });
});

// The fingerprint every stored record carries, as it was computed before the one-walk fast path:
// findNonJson's check, then canonicalize's text, then SHA-256. The fast path must give these exact
// bytes (a changed fingerprint turns every stored record into a KeyReuseError after an upgrade).
const canonicalize = ((canonicalizeModule as unknown as { default?: unknown }).default ?? canonicalizeModule) as (value: unknown) => string | undefined;
const referencePrint = (toText: (value: unknown) => unknown) => (value: unknown): string => {
  const problem = findNonJson(value, { allowDates: true });
  if (problem !== undefined) throw new TypeError(problem);
  return createHash('sha256').update(String(toText(value))).digest('hex');
};
const referenceFingerprint = referencePrint((value) => canonicalize(value ?? null) ?? 'null');
const referenceRecordFingerprint = (namespace: string, tool: string, input: unknown) => {
  const problem = findNonJson(input, { allowDates: true });
  if (problem !== undefined) throw new TypeError(problem);
  return createHash('sha256').update(canonicalize([namespace, tool, input ?? null]) ?? 'null').digest('hex');
};
/** What a call answers: the fingerprint, or the error's type and message. */
const outcomeOf = (compute: () => string) => {
  try {
    return compute();
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
};

// Strings with lone surrogates, astral characters, controls, quotes and backslashes.
const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\u2028', '\ud800', '\udfff', '\u0000', '\u007f', '😀', 'é'), fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit))), maxLength: 8 });
const numbers = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(-0, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, 2 ** 53, 0.1 + 0.2));
const dates = fc.oneof(fc.date({ noInvalidDate: true }), fc.constant(new Date(Number.NaN)));
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, text, numbers, fc.boolean(), fc.constant(null), dates, tie('array'), tie('object'), tie('odd')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  // Integer-like keys ('10', '2') come first in Object.keys; canonicalize sorts them as strings.
  object: fc
    .array(fc.tuple(fc.oneof(text, fc.constantFrom('10', '2', '01', '__proto__x', 'toJSON')), fc.oneof(tie('value'), fc.constant(undefined))), { maxLength: 5 })
    .chain((entries) => fc.boolean().map((nullProto) => {
      const object: Record<string, unknown> = nullProto ? Object.create(null) : {};
      for (const [k, v] of entries) object[k] = v;
      return object;
    })),
  // What the fast path leaves to the checked one: not JSON, or not plain.
  odd: fc.constantFrom<unknown>(undefined, Number.NaN, 1n, new Map(), [1, undefined], () => 1, { toJSON: () => 'x' }, Object.assign([1, 2], { toJSON: () => 'arr' })),
})).value;

describe('fingerprint bytes (one-walk fast path against the reference)', () => {
  it('recordFingerprint and fingerprint equal SHA-256 of canonicalize on random data, or throw the same error', () => {
    fc.assert(
      fc.property(text, text, jsonish, (namespace, tool, input) => {
        expect(outcomeOf(() => recordFingerprint({ namespace, tool }, input))).toBe(outcomeOf(() => referenceRecordFingerprint(namespace, tool, input)));
        expect(outcomeOf(() => fingerprint(input))).toBe(outcomeOf(() => referenceFingerprint(input)));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['nesting past the fast path depth', (() => { let v: unknown = 1; for (let i = 0; i < 200; i += 1) v = i % 2 ? [v] : { v }; return v; })()],
    ['a cycle', cyclic],
    ['a class whose prototype defines toJSON', new (class Money { toJSON() { return { cents: 5 }; } })()],
    ['an array subclass with toJSON', (() => { class Cents extends Array { toJSON() { return 'cents'; } } return Cents.from([1, 2]); })()],
    ['a Date whose toISOString is its own', Object.assign(new Date(0), { toISOString: () => 'then' })],
    ['a plain object whose toJSON is not a function', { toJSON: 1, a: [true, null] }],
    ['undefined at the top level', undefined],
  ])('%s: the same bytes or error as before', (_name, input) => {
    expect(outcomeOf(() => recordFingerprint({ namespace: 'acme', tool: 'issue_refund' }, input))).toBe(outcomeOf(() => referenceRecordFingerprint('acme', 'issue_refund', input)));
    expect(outcomeOf(() => fingerprint(input))).toBe(outcomeOf(() => referenceFingerprint(input)));
  });

  it('pins one record fingerprint (the bench tool input) to its stored value', () => {
    // sha256('["","issue_refund",{"amountCents":500,"orderId":"o-1"}]')
    expect(recordFingerprint({ namespace: '', tool: 'issue_refund' }, { orderId: 'o-1', amountCents: 500 })).toBe(
      createHash('sha256').update('["","issue_refund",{"amountCents":500,"orderId":"o-1"}]').digest('hex'),
    );
  });
});

describe('storedCopy (a first call\'s result in its stored form, in one walk)', () => {
  it('is JSON.parse(JSON.stringify(value)) or NOT_PLAIN wherever findNonJson (no dates) accepts the value, and NOT_PLAIN elsewhere', () => {
    fc.assert(
      fc.property(jsonish, (value) => {
        const copy = storedCopy(value);
        if (value === undefined || findNonJson(value, { allowDates: false }) !== undefined) {
          expect(copy).toBe(NOT_PLAIN);
          return;
        }
        // Plain data it leaves to JSON itself: what a toJSON method writes.
        if (copy === NOT_PLAIN) return;
        deepStrictEqual(copy, JSON.parse(JSON.stringify(value)));
        // The same key order as JSON.parse builds, so the text of the copy is the stored text too.
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['-0 at the top and inside', { a: -0, b: [-0] }, { a: 0, b: [0] }],
    ['an undefined property (left out)', { a: 1, b: undefined }, { a: 1 }],
    ['a __proto__ key (an own property, not the prototype)', JSON.parse('{"__proto__":{"polluted":true}}'), JSON.parse('{"__proto__":{"polluted":true}}')],
  ])('%s', (_name, value, expected) => {
    const copy = storedCopy(value) as object;
    deepStrictEqual(copy, expected);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('copies a plain object with a toJSON that is not a function, as JSON writes it', () => {
    deepStrictEqual(storedCopy({ toJSON: false, a: [1] }), { toJSON: false, a: [1] });
    expect(storedCopy(Object.assign([1, 2], { toJSON: () => 'arr' }))).toBe(NOT_PLAIN);
  });

  it('hands values past the walk\'s depth, and cycles, back as NOT_PLAIN (findNonJson then decides)', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200; i += 1) deep = [deep];
    expect(storedCopy(deep)).toBe(NOT_PLAIN);
    expect(findNonJson(deep, { allowDates: false })).toBeUndefined();
    expect(storedCopy(cyclic)).toBe(NOT_PLAIN);
  });
});
