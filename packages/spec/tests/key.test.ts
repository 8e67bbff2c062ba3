import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRunner, defineTool, InvalidKeyError, key, MAX_KEY_LENGTH, vouchDurable } from '../src/index.js';
import { createSqliteStore } from '../src/stores/sqlite.js';
import { runContextForTests } from '../src/testing-types.js';

const run = runContextForTests('run-1');

describe('key`...` at runtime', () => {
  it('joins literal text and parts', () => {
    expect(key`${run.id}:${vouchDurable('o-1')}:${vouchDurable(3)}:refund`).toBe('run-1:o-1:3:refund');
  });

  it('rejects an empty key', () => {
    const empty = vouchDurable('');
    expect(() => key`${empty}`).toThrow(InvalidKeyError);
    expect(() => key``).toThrow(/Idempotency key is empty/);
  });

  it(`accepts ${MAX_KEY_LENGTH} characters and rejects ${MAX_KEY_LENGTH + 1} (Stripe's limit)`, () => {
    expect(key`${vouchDurable('a'.repeat(MAX_KEY_LENGTH))}`).toHaveLength(255);
    const error = (() => {
      try {
        key`${vouchDurable('a'.repeat(MAX_KEY_LENGTH + 1))}`;
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidKeyError);
    expect(error).toMatchObject({ name: 'InvalidKeyError', reason: 'too_long' });
    expect((error as Error).message).toMatch(/256 characters long; the limit is 255/);
  });

  it('rejects parts that are not strings or finite numbers (plain JavaScript)', () => {
    const untypedKey = key as unknown as (literals: TemplateStringsArray, ...parts: unknown[]) => string;
    expect(() => untypedKey`${{ id: 1 }}`).toThrow(/part 1 is an object/);
    expect(() => untypedKey`a:${Number.NaN}`).toThrow(InvalidKeyError);
    expect(() => untypedKey`a:${undefined}`).toThrow(/part 1 is undefined/);
  });

  it('vouchDurable rejects non-primitives at runtime', () => {
    const untypedVouch = vouchDurable as unknown as (value: unknown) => unknown;
    expect(() => untypedVouch(new Date())).toThrow(TypeError);
    expect(untypedVouch('row-1')).toBe('row-1');
  });
});

/** What `fn` threw. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('a key too long for the limit names the parts to shorten', () => {
  const tool = defineTool({
    name: 'issue_refund',
    description: 'Refund part of an order',
    sideEffects: 'money_out',
    idempotent: 'with_key',
    retry: 'safe_with_same_key',
    input: z.object({ orderId: z.string(), note: z.string(), lines: z.array(z.object({ sku: z.string() })) }),
    key: ({ run, input }) => key`${run.id}:${input.orderId}:${input.lines[0]?.sku ?? vouchDurable('none')}:refund`,
    execute: async () => ({ ok: true }),
  });

  it('key`...` gives the longest part by position and length, as few as make up the excess', () => {
    const error = thrown(() => key`${run.id}:${vouchDurable('x'.repeat(300))}:${vouchDurable('y'.repeat(100))}:refund`) as InvalidKeyError;
    expect(error).toMatchObject({ code: 'invalid_key', reason: 'too_long', parts: [{ position: 2, length: 300 }] });
    expect(error.message).toContain('Shorten part 2 (300 characters)');
    // Without its longest part this one is still 281 characters: both are named.
    const both = thrown(() => key`${vouchDurable('y'.repeat(280))}:${vouchDurable('x'.repeat(300))}`) as InvalidKeyError;
    expect(both.parts).toEqual([
      { position: 2, length: 300 },
      { position: 1, length: 280 },
    ]);
  });

  it("a with_key tool's key names the input field the part came from (input.orderId, input.lines[0].sku)", () => {
    const long = thrown(() => tool.deriveKey({ orderId: 'o'.repeat(10_000), note: 'n', lines: [] }, run)) as InvalidKeyError;
    expect(long).toBeInstanceOf(InvalidKeyError);
    expect(long.parts).toEqual([{ position: 2, length: 10_000, name: 'input.orderId' }]);
    expect(long.message).toMatch(/^Idempotency key is 10\d{3} characters long; the limit is 255 \(Stripe's Idempotency-Key limit\)\. Shorten input\.orderId \(10000 characters\): use an id/);
    const nested = thrown(() => tool.deriveKey({ orderId: 'o_1', note: 'n', lines: [{ sku: 's'.repeat(400) }] }, run)) as InvalidKeyError;
    expect(nested.parts).toEqual([{ position: 3, length: 400, name: 'input.lines[0].sku' }]);
  });

  it('names every field that holds the same text, and the run id', () => {
    const same = 'z'.repeat(300);
    const error = thrown(() => tool.deriveKey({ orderId: same, note: same, lines: [] }, run)) as InvalidKeyError;
    expect(error.parts).toEqual([{ position: 2, length: 300, name: 'input.orderId or input.note' }]);
    const longRun = thrown(() => tool.deriveKey({ orderId: 'o_1', note: 'n', lines: [] }, runContextForTests('r'.repeat(300)))) as InvalidKeyError;
    expect(longRun.message).toContain('Shorten run.id (300 characters)');
  });

  it('the runner refuses it before the store is touched (real SQLite), with the name', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    try {
      const outcome = await createRunner({ store }).tryCall(tool, { orderId: 'o'.repeat(10_000), note: 'n', lines: [] }, { run });
      expect(outcome.ok).toBe(false);
      expect(outcome.ok ? undefined : outcome.error).toMatchObject({ code: 'invalid_key', parts: [{ name: 'input.orderId', length: 10_000 }] });
    } finally {
      await store.close();
    }
  });
});
