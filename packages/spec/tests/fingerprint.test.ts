import { describe, expect, it } from 'vitest';

import { findNonJson, fingerprint } from '../src/fingerprint.js';

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
