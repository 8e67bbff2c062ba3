/** decideRetry: the seed's "retry the safe ones, refuse to auto-retry the unsafe ones, escalate instead". */
import { describe, expect, it } from 'vitest';
import {
  AttemptsExhaustedError,
  CONCURRENT_RETRY_AFTER_MS,
  ConcurrentCallError,
  DurabilityConfigError,
  IndeterminateOutcomeError,
  InputNotFingerprintableError,
  InvalidIdentifierError,
  KeyReuseError,
  StoreUnavailableError,
  UnserializableResultError,
} from '../src/errors.js';
import { InvalidKeyError } from '../src/key.js';
import type { PolicyShape } from '../src/policy.js';
import { decideRetry } from '../src/retry.js';
import { InputValidationError } from '../src/validate.js';

const issueRefund: PolicyShape = { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 3 };
const refundOnce: PolicyShape = { ...issueRefund, max_attempts: 1 };
const searchOrders: PolicyShape = { side_effects: 'none', idempotent: true, retry: 'safe', max_attempts: 3 };
const setStatus: PolicyShape = { side_effects: 'internal_write', idempotent: true, retry: 'safe', max_attempts: 2 };
const incrementBalance: PolicyShape = { side_effects: 'internal_write', idempotent: false, retry: 'never', max_attempts: 1 };
const id = { tool: 'issue_refund', key: 'run_1:o_1:refund', namespace: '' };
const toolError = new Error('provider returned 503');

describe('decideRetry', () => {
  it('retries a safe tool until max_attempts, then refuses (no side effects) or escalates', () => {
    expect(decideRetry(searchOrders, { error: toolError, attempt: 1 })).toMatchObject({ action: 'retry' });
    expect(decideRetry(searchOrders, { error: toolError, attempt: 2 })).toMatchObject({ action: 'retry' });
    expect(decideRetry(searchOrders, { error: toolError, attempt: 3 })).toMatchObject({ action: 'refuse' });
    expect(decideRetry(setStatus, { error: toolError, attempt: 2 })).toMatchObject({ action: 'escalate' });
  });

  it('retries a with_key tool with the same key, counting attempts per key', () => {
    const decision = decideRetry(issueRefund, { error: toolError, attempt: 2 });
    expect(decision).toEqual({ action: 'retry', reason: expect.stringContaining('same key') });
    expect(decideRetry(issueRefund, { error: toolError, attempt: 3 })).toMatchObject({ action: 'escalate', reason: expect.stringContaining('per key') });
    expect(decideRetry(refundOnce, { error: toolError, attempt: 1 })).toMatchObject({ action: 'escalate' });
  });

  it('never retries a not-safely-repeatable tool', () => {
    const decision = decideRetry(incrementBalance, { error: toolError, attempt: 1 });
    expect(decision).toMatchObject({ action: 'escalate', reason: expect.stringContaining('not safely repeatable') });
    // Even a policy that lies about max_attempts does not get a retry.
    expect(decideRetry({ ...incrementBalance, max_attempts: 5 }, { error: toolError, attempt: 1 })).toMatchObject({ action: 'escalate' });
  });

  it('tells the loop to retry a ConcurrentCallError later, even at the attempt limit, rather than escalate', () => {
    const error = new ConcurrentCallError({ ...id, attempt: 1, lockExpiresAt: 10_500, now: 10_000 });
    expect(decideRetry(refundOnce, { error, attempt: 1 })).toEqual({ action: 'retry', reason: expect.stringContaining('in progress'), delayMs: 100 });
  });

  // Issue 13, item 7: a 50 ms effect under a 30 s lock must not send its loser away for 30 s.
  it('asks for a short backoff after a ConcurrentCallError, not the remaining lock', () => {
    const error = new ConcurrentCallError({ ...id, attempt: 1, lockExpiresAt: 30_000, now: 0 });
    expect(error.retryAfterMs).toBe(CONCURRENT_RETRY_AFTER_MS);
    expect(decideRetry(refundOnce, { error, attempt: 1 }).delayMs).toBe(CONCURRENT_RETRY_AFTER_MS);
    // Never longer than the lock itself, and at least 1 ms.
    expect(new ConcurrentCallError({ ...id, attempt: 1, lockExpiresAt: 40, now: 0 }).retryAfterMs).toBe(40);
    expect(new ConcurrentCallError({ ...id, attempt: 1, lockExpiresAt: 0, now: 10 }).retryAfterMs).toBe(1);
  });

  // Issue 13, item 3: an identifier a store cannot hold is an input error, never an outage.
  it('does not treat an InvalidIdentifierError as an outage: a key is refused back to the model, a namespace escalated as configuration', () => {
    const forKey = decideRetry(refundOnce, { error: new InvalidIdentifierError('key', 'k\uDC00', 'an unpaired UTF-16 surrogate (U+DC00) at index 1'), attempt: 1 });
    expect(forKey.action).toBe('refuse');
    const forNamespace = decideRetry(refundOnce, { error: new InvalidIdentifierError('namespace', 'acme\uDC00', 'an unpaired UTF-16 surrogate (U+DC00) at index 4'), attempt: 1 });
    expect(forNamespace.action).toBe('escalate');
    for (const decision of [forKey, forNamespace]) expect(decision.reason).not.toMatch(/unavailable|store is down|once the store is back/i);
    expect(forNamespace.reason).toContain('not an outage');
  });

  it('escalates DurabilityConfigError and IndeterminateOutcomeError', () => {
    expect(decideRetry(refundOnce, { error: new DurabilityConfigError('volatile_store', 'no persistence'), attempt: 1 }).action).toBe('escalate');
    expect(decideRetry(refundOnce, { error: new IndeterminateOutcomeError({ ...id, attempt: 1, detail: 'unknown' }), attempt: 1 }).action).toBe('escalate');
  });

  it('refuses invalid input and escalates declaration errors, exhausted keys and an unavailable store', () => {
    expect(decideRetry(issueRefund, { error: new InputValidationError('issue_refund', [{ message: 'Required', path: ['orderId'] }]), attempt: 1 })).toMatchObject({ action: 'refuse' });
    const escalated = [
      new KeyReuseError({ ...id, fingerprint: 'a'.repeat(64), storedFingerprint: 'b'.repeat(64) }),
      new InvalidKeyError('empty', '', 'empty key'),
      new InputNotFingerprintableError('issue_refund', '$.tags is a Set'),
      new UnserializableResultError({ ...id, reason: '$ is a Map', replayed: false }),
      new AttemptsExhaustedError({ ...id, attempts: 3, maxAttempts: 3, errors: [] }),
      new StoreUnavailableError({ kind: 'redis', location: 'redis://127.0.0.1:1/', durable: true, checkHint: 'Check Redis.' }, 'claim', new Error('ECONNREFUSED'), 'Nothing ran.'),
    ];
    for (const error of escalated) {
      expect(decideRetry(issueRefund, { error, attempt: 1 }), error.name).toMatchObject({ action: 'escalate' });
    }
    expect(decideRetry(issueRefund, { error: escalated.at(-1), attempt: 1 }).reason).toContain('Check Redis.');
  });

  it('reads errors by name, so a copy of the package elsewhere in the process agrees', () => {
    const foreign = Object.assign(new Error('busy'), { name: 'ConcurrentCallError', retryAfterMs: 20 });
    expect(decideRetry(issueRefund, { error: foreign, attempt: 1 })).toMatchObject({ action: 'retry', delayMs: 20 });
  });

  it('handles thrown non-errors and rejects a nonsense attempt count', () => {
    expect(decideRetry(searchOrders, { error: 'timeout', attempt: 1 })).toMatchObject({ action: 'retry' });
    expect(decideRetry(searchOrders, { error: undefined, attempt: 1 })).toMatchObject({ action: 'retry' });
    expect(() => decideRetry(searchOrders, { error: toolError, attempt: 0 })).toThrow(TypeError);
    expect(() => decideRetry(searchOrders, { error: toolError, attempt: 1.5 })).toThrow(TypeError);
  });

  it('returns plain data', () => {
    const decision = decideRetry(issueRefund, { error: toolError, attempt: 1 });
    expect(JSON.parse(JSON.stringify(decision))).toEqual(decision);
  });
});
