import { randomUUID } from 'node:crypto';
import { describe, expectTypeOf, test } from 'vitest';
import { key, vouchDurable, type DeterministicKey, type Durable } from '../src/index.js';
import { runContextForTests } from '../src/testing-types.js';

const run = runContextForTests('run-1');
declare const orderId: Durable<string>;
declare const lineNumber: Durable<number>;
declare const plainString: string;
declare const plainNumber: number;
declare const maybeOrderId: Durable<string> | undefined;
declare const row: { id: string };

describe('key`...` accepts durable parts', () => {
  test('run id, input fields and vouched values', () => {
    expectTypeOf(key`${run.id}:${orderId}:refund`).toEqualTypeOf<DeterministicKey>();
    expectTypeOf(key`${run.id}:${orderId}:line:${lineNumber}`).toEqualTypeOf<DeterministicKey>();
    expectTypeOf(key`${run.id}:${vouchDurable(row.id)}:refund`).toEqualTypeOf<DeterministicKey>();
    expectTypeOf(key`static-key`).toEqualTypeOf<DeterministicKey>();
  });

  test('a DeterministicKey is a string', () => {
    expectTypeOf(key`${run.id}:refund`).toExtend<string>();
  });
});

describe('key`...` rejects what a retry can change', () => {
  test('a plain string', () => {
    // @ts-expect-error -- NotDurableKeyPart: a plain string may be regenerated on the retry
    key`${run.id}:${plainString}`;
  });

  test('a plain number', () => {
    // @ts-expect-error -- NotDurableKeyPart: a plain number may be regenerated on the retry
    key`${run.id}:${plainNumber}`;
  });

  test('a Date', () => {
    // @ts-expect-error -- NotDurableKeyPart: new Date() is a new value on every attempt
    key`${run.id}:${new Date()}`;
    // @ts-expect-error -- NotDurableKeyPart: so is its ISO string
    key`${run.id}:${new Date().toISOString()}`;
  });

  test('Date.now()', () => {
    // @ts-expect-error -- NotDurableKeyPart: the time differs on the retry
    key`${run.id}:${Date.now()}`;
  });

  test('randomUUID()', () => {
    // @ts-expect-error -- NotDurableKeyPart: the seed's ❌ key = uuid4(): a new key on every attempt
    key`${randomUUID()}`;
    // @ts-expect-error -- NotDurableKeyPart: even next to durable parts
    key`${run.id}:${orderId}:${randomUUID()}`;
  });

  test('Math.random()', () => {
    // @ts-expect-error -- NotDurableKeyPart: random per attempt
    key`${run.id}:${Math.random()}`;
  });

  test('values derived from durable ones, unless vouched for', () => {
    // @ts-expect-error -- NotDurableKeyPart: toUpperCase() returns a plain string
    key`${run.id}:${orderId.toUpperCase()}`;
    // @ts-expect-error -- NotDurableKeyPart: so does String()
    key`${run.id}:${String(orderId)}`;
    expectTypeOf(key`${run.id}:${vouchDurable(orderId.toUpperCase())}`).toEqualTypeOf<DeterministicKey>();
  });

  test('a possibly missing part', () => {
    // @ts-expect-error -- NotDurableKeyPart: "undefined" in a key collides across items
    key`${run.id}:${maybeOrderId}`;
  });

  test('a bigint, a boolean or an object', () => {
    // @ts-expect-error -- NotDurableKeyPart: key takes Durable<string | number> only
    key`${run.id}:${vouchDurable(10n)}`;
    // @ts-expect-error -- NotDurableKeyPart: not key material
    key`${run.id}:${true}`;
    // @ts-expect-error -- NotDurableKeyPart: "[object Object]" would collide for every item
    key`${run.id}:${{ orderId }}`;
  });
});

describe('DeterministicKey cannot be forged without a cast', () => {
  test('a plain string is not a DeterministicKey', () => {
    // @ts-expect-error -- only key`...` creates one
    const forged: DeterministicKey = 'run-1:order-1:refund';
    // @ts-expect-error -- nor is a template literal of durable parts
    const template: DeterministicKey = `${run.id}:${orderId}`;
    void forged;
    void template;
  });
});
