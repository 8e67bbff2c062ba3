/** One error hierarchy: every error retrysafe throws is a RetrysafeError with a stable code. */
import { describe, expect, it } from 'vitest';
import * as spec from '../src/index.js';
import {
  AttemptsExhaustedError,
  ConcurrentCallError,
  GuardedCallError,
  InputNotFingerprintableError,
  InputValidationError,
  InvalidKeyError,
  isRetrysafeError,
  KeyReuseError,
  RetrysafeError,
  StoreUnavailableError,
  LeaseLostError,
  ToolPolicyError,
  UnserializableResultError,
  InvalidIdentifierError,
  DurabilityConfigError,
  IndeterminateOutcomeError,
} from '../src/index.js';

const id = { tool: 'issue_refund', key: 'run_1:o_1:refund', namespace: '' };
const redis = { kind: 'redis', location: 'redis://127.0.0.1:1/', durable: true, checkHint: 'Check Redis.' };

// One of each, with the code it must carry (the class name without `Error`, in snake_case).
const samples: [RetrysafeError, string][] = [
  [new ConcurrentCallError({ ...id, attempt: 1, lockExpiresAt: 10_500, now: 10_000 }), 'concurrent_call'],
  [new KeyReuseError({ ...id, fingerprint: 'a'.repeat(64), storedFingerprint: 'b'.repeat(64) }), 'key_reuse'],
  [new AttemptsExhaustedError({ ...id, attempts: 3, maxAttempts: 3, errors: [] }), 'attempts_exhausted'],
  [new StoreUnavailableError(redis, 'claim', new Error('ECONNREFUSED'), 'Nothing ran.'), 'store_unavailable'],
  [new UnserializableResultError({ ...id, reason: '$ is a Map', replayed: false }), 'unserializable_result'],
  [new InputNotFingerprintableError('issue_refund', '$.tags is a Set'), 'input_not_fingerprintable'],
  [new InputValidationError('issue_refund', [{ message: 'Required', path: ['orderId'] }]), 'input_validation'],
  [new ToolPolicyError('tool "x"', 'contradiction'), 'tool_policy'],
  [new InvalidKeyError('empty', '', 'empty key'), 'invalid_key'],
  [new LeaseLostError({ ...id, attempt: 1, reason: 'expired', lockMs: 1000 }), 'lease_lost'],
  [new InvalidIdentifierError('namespace', 'acme\uDC00', 'an unpaired UTF-16 surrogate (U+DC00) at index 4'), 'invalid_identifier'],
  [new DurabilityConfigError('volatile_store', 'Redis has no persistence.', redis), 'durability_config'],
  [new IndeterminateOutcomeError({ ...id, attempt: 1, detail: 'it answered unknown' }), 'indeterminate_outcome'],
  [new GuardedCallError('issue_refund', 'issue_refund failed.', { error: new Error('503'), attempt: 1, decision: { action: 'retry', reason: 'r' } }), 'guarded_call'],
];
const snakeCase = (name: string) => name.replace(/Error$/, '').replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();

describe('KeyReuseError', () => {
  // New-user trial 3: the message only said to add fields to the key; for a retry with a changed
  // amount that advice (put the amount in the key) would let the second charge run.
  it('names both causes: a repeat with changed arguments (escalate), or a key that does not tell work apart, never the amount', () => {
    const message = new KeyReuseError({ ...id, fingerprint: 'a'.repeat(64), storedFingerprint: 'b'.repeat(64) }).message;
    expect(message).toMatch(/repeat of that work with changed arguments .* must not run as new work: escalate it/);
    expect(message).toMatch(/include the input field that tells them apart .* never a field a retry may change, such as the amount/);
  });
});

describe('RetrysafeError', () => {
  it.each(samples.map(([error, code]) => [error.name, error, code] as const))('%s extends RetrysafeError, keeps its name and carries its code', (_, error, code) => {
    expect(error).toBeInstanceOf(RetrysafeError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(code);
    expect(error.code).toBe(snakeCase(error.name));
    expect(isRetrysafeError(error)).toBe(true);
  });

  it('gives every code to one error only', () => {
    expect(new Set(samples.map(([, code]) => code)).size).toBe(samples.length);
  });

  it('is the base of every error class the package exports', () => {
    const errorClasses = Object.entries(spec).filter(
      ([name, value]) => typeof value === 'function' && /^[A-Z]\w*Error$/.test(name) && name !== 'RetrysafeError',
    );
    expect(errorClasses.map(([name]) => name).sort()).toEqual(samples.map(([error]) => error.name).sort());
    for (const [, value] of errorClasses) expect((value as { prototype: unknown }).prototype).toBeInstanceOf(RetrysafeError);
  });

  it('tells a tool’s own errors apart, a look-alike name included', () => {
    expect(isRetrysafeError(new Error('provider returned 503'))).toBe(false);
    expect(isRetrysafeError(new TypeError('x'))).toBe(false);
    expect(isRetrysafeError(Object.assign(new Error('busy'), { name: 'ConcurrentCallError', code: 'concurrent_call' }))).toBe(false);
    expect(isRetrysafeError(undefined)).toBe(false);
    expect(isRetrysafeError('ConcurrentCallError')).toBe(false);
  });

  it('recognises an error from another copy of the package in the process', async () => {
    // A query string makes vite load the module again: a second copy, with classes of its own.
    const copy = '../src/errors.js?second-copy';
    const other = (await import(/* @vite-ignore */ copy)) as typeof import('../src/errors.js');
    const foreign = new other.ConcurrentCallError({ ...id, attempt: 1, lockExpiresAt: 10_500, now: 10_000 });
    expect(other.RetrysafeError).not.toBe(RetrysafeError);
    expect(foreign).not.toBeInstanceOf(RetrysafeError);
    expect(isRetrysafeError(foreign)).toBe(true);
    expect(other.isRetrysafeError(samples[0]?.[0])).toBe(true);
    expect(spec.decideRetry({ side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 1 }, { error: foreign, attempt: 1 })).toMatchObject({ action: 'retry', delayMs: 100 });
  });
});

describe('ConcurrentCallError', () => {
  it('says what a retry meets when the holder completes and when its process died (the lock lapses, then a reclaim)', () => {
    const error = new ConcurrentCallError({ ...id, attempt: 1, lockExpiresAt: 11_897, now: 10_000 });
    expect(error.message).toContain('locked for up to another 1897 ms');
    expect(error.message).toContain('once the first call completes, its result is replayed');
    expect(error.message).toContain("If the first call's process died, nothing completes it: its lock lapses in 1897 ms");
    expect(error.message).toContain('reclaims the key as attempt 2');
    expect(error.retryAfterMs).toBe(100);
  });
});
