import { describe, expect, it } from 'vitest';
import { InvalidKeyError, key, MAX_KEY_LENGTH, vouchDurable } from '../src/index.js';
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
