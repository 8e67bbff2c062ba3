/**
 * The runtime's typed errors, all under one base class, {@link RetrysafeError}, with a stable
 * snake_case `code`, so that an agent loop can tell retrysafe's errors from a tool's own errors
 * (`isRetrysafeError(e)`) and switch on what happened (`e.code`). Each error says what happened to
 * the effect (ran, did not run, may have run) and what to do next; `decideRetry` reads them by
 * `name`, and `isRetrysafeError` by a registered symbol, so two copies of this package in one
 * process still agree.
 *
 * Status codes follow the IETF Idempotency-Key draft (draft-ietf-httpapi-idempotency-key-header):
 * 409 Conflict for a request still being processed under the same key, 422 Unprocessable Content
 * for a key reused with a different payload.
 *
 * @module
 */
import type { AttemptError, StoreInfo } from './stores/types.js';

/**
 * Every `code` a {@link RetrysafeError} can carry: the class name without `Error`, in snake_case.
 * Codes are stable: a code is never renamed or reused for another meaning (new errors add codes).
 *
 * | code | error | the effect |
 * |---|---|---|
 * | `concurrent_call` | `ConcurrentCallError` (409) | did not run: another call holds the key |
 * | `key_reuse` | `KeyReuseError` (422) | did not run: the key was first used with another input |
 * | `attempts_exhausted` | `AttemptsExhaustedError` | did not run: `max_attempts` per key used up |
 * | `store_unavailable` | `StoreUnavailableError` | did not run (fail closed) |
 * | `unserializable_result` | `UnserializableResultError` | ran once; its result is not JSON |
 * | `input_not_fingerprintable` | `InputNotFingerprintableError` | did not run |
 * | `input_validation` | `InputValidationError` | did not run: the input does not match the schema |
 * | `tool_policy` | `ToolPolicyError` | not a call: the declared policy contradicts itself (or, for `@retrysafe/spec/testing`, a framework tool declares none) |
 * | `invalid_key` | `InvalidKeyError` | did not run: the derived key is empty, too long or not durable |
 * | `guarded_call` | `GuardedCallError` | a framework guard's failed call; `cause` says what happened, `decision` what to do |
 * | `answer_lost` | `AnswerLostError` (adapters/mcp) | unknown: the answer to an MCP `tools/call` never arrived |
 * | `mcp_tool` | `McpToolError` (adapters/mcp) | ran and failed: the MCP server answered with an `isError` result |
 * | `mcp_request` | `McpRequestError` (adapters/mcp) | did not run: the MCP server refused the request (a JSON-RPC error) |
 * | `lease_lost` | `LeaseLostError` | the abort reason of a running effect whose lease was lost; another call may run it |
 * | `invalid_identifier` | `InvalidIdentifierError` | did not run: a namespace, tool name, key or run origin holds text a store cannot keep exactly |
 * | `durability_config` | `DurabilityConfigError` | did not run: the configuration would let records vanish before a retry (volatile Redis, run TTL below the dedup TTL) |
 * | `indeterminate_outcome` | `IndeterminateOutcomeError` | unknown: an earlier attempt may have run, and the tool's `reconcile` hook could not tell |
 */
export type RetrysafeErrorCode =
  | 'concurrent_call'
  | 'key_reuse'
  | 'attempts_exhausted'
  | 'store_unavailable'
  | 'unserializable_result'
  | 'input_not_fingerprintable'
  | 'input_validation'
  | 'tool_policy'
  | 'invalid_key'
  | 'guarded_call'
  | 'answer_lost'
  | 'mcp_tool'
  | 'mcp_request'
  | 'lease_lost'
  | 'invalid_identifier'
  | 'durability_config'
  | 'indeterminate_outcome';

// `Symbol.for`, so that an error made by another copy of this package in the process is
// recognised too (`instanceof` holds only within one copy).
const RETRYSAFE_ERROR = Symbol.for('retrysafe.error');

/**
 * The base class of every error retrysafe throws for a call or a declaration. Catch it to tell
 * retrysafe's own errors from the tool's (a tool's error reaches the caller unchanged), then
 * switch on `code`. Arguments of the wrong type (a `defineTool` config without `execute`, an
 * `openRun` origin without an id, `createRunner` with a negative `lockMs`) are a bug where the call
 * is written and throw the built-in `TypeError` or `RangeError` instead.
 *
 * Within one copy of the package `error instanceof RetrysafeError` works; across copies (two
 * versions installed side by side) use {@link isRetrysafeError}.
 */
export abstract class RetrysafeError extends Error {
  /** What happened, stable across versions; see {@link RetrysafeErrorCode}. */
  abstract readonly code: RetrysafeErrorCode;
}
Object.defineProperty(RetrysafeError.prototype, RETRYSAFE_ERROR, { value: true });

/**
 * True when `value` is an error retrysafe threw, from this copy of the package or any other in
 * the process (it checks a `Symbol.for('retrysafe.error')` brand, not the class).
 */
export function isRetrysafeError(value: unknown): value is RetrysafeError {
  return typeof value === 'object' && value !== null && (value as { [RETRYSAFE_ERROR]?: unknown })[RETRYSAFE_ERROR] === true;
}

/** Fields every dedup error carries. */
interface CallIdentity {
  /** The tool's name. */
  readonly tool: string;
  /** The deterministic key. */
  readonly key: string;
  /** The namespace (tenant) the key is scoped to; `''` for none. */
  readonly namespace: string;
}

const scope = (id: CallIdentity) =>
  `${id.tool} with key ${JSON.stringify(id.key)}${id.namespace ? ` in namespace ${JSON.stringify(id.namespace)}` : ''}`;

/**
 * Default `ConcurrentCallError.retryAfterMs`, ms: a short backoff, not the remaining lock (a
 * 50 ms effect under a 30 s lock should not make its loser wait 30 s). Retrying sooner than the
 * lock only costs a read: a call still in flight answers `ConcurrentCallError` again, a completed
 * one replays its result.
 */
export const CONCURRENT_RETRY_AFTER_MS = 100;

/**
 * Another call holds the lock on this key and has not finished (its lock has not expired). No
 * second effect ran. Retry later with the same key: it replays the first call's result once it
 * completes. The IETF draft answers 409 Conflict here. With `RunnerOptions.waitForInFlightMs` the
 * runner first waits that long for the other call to complete and replays its result; this error
 * means it did not complete in time.
 */
export class ConcurrentCallError extends RetrysafeError implements CallIdentity {
  override readonly name = 'ConcurrentCallError';
  readonly code = 'concurrent_call';
  /** The draft's status for this case. */
  readonly httpStatus = 409;
  readonly tool: string;
  readonly key: string;
  readonly namespace: string;
  /** The attempt in progress, from the record. */
  readonly attempt: number;
  /** When the other call's lock lapses unless renewed, epoch ms. */
  readonly lockExpiresAt: number;
  /**
   * A hint for the retry, ms (at least 1): a short backoff (`retryAfterMs` given, else
   * {@link CONCURRENT_RETRY_AFTER_MS}), never more than the time until the lock lapses. The other
   * call usually completes well before its lock would lapse, and the retry then replays it.
   */
  readonly retryAfterMs: number;

  constructor(id: CallIdentity & { attempt: number; lockExpiresAt: number; now: number; retryAfterMs?: number }) {
    const lockLeftMs = Math.max(1, id.lockExpiresAt - id.now);
    const retryAfterMs = Math.max(1, Math.min(lockLeftMs, Math.round(id.retryAfterMs ?? CONCURRENT_RETRY_AFTER_MS)));
    super(
      `${scope(id)} is already running (attempt ${id.attempt}, locked for up to another ${lockLeftMs} ms unless it completes). ` +
        `This call did not run the effect. Retry in about ${retryAfterMs} ms with the same key: once the first call ` +
        `completes, its result is replayed. If the first call's process died, nothing completes it: its lock lapses in ` +
        `${lockLeftMs} ms, and a retry after that reclaims the key as attempt ${id.attempt + 1} if the tool's max_attempts allows.`,
    );
    this.tool = id.tool;
    this.key = id.key;
    this.namespace = id.namespace;
    this.attempt = id.attempt;
    this.lockExpiresAt = id.lockExpiresAt;
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * The key was first used with a different input (fingerprints differ). Nothing ran. Either a
 * repeat of the same work came with changed arguments (escalate it: running it would act twice,
 * replaying would hide the change), or two different pieces of work share a key (a bug in how the
 * key is derived), and replaying the first one's result would be wrong. The IETF draft answers 422 here; Stripe answers 400 with
 * "Keys for idempotent requests can only be used with the same parameters they were first used with".
 */
export class KeyReuseError extends RetrysafeError implements CallIdentity {
  override readonly name = 'KeyReuseError';
  readonly code = 'key_reuse';
  /** The draft's status for this case. */
  readonly httpStatus = 422;
  readonly tool: string;
  readonly key: string;
  readonly namespace: string;
  /** Fingerprint of this call's validated input. */
  readonly fingerprint: string;
  /** Fingerprint the key was first used with. */
  readonly storedFingerprint: string;

  constructor(id: CallIdentity & { fingerprint: string; storedFingerprint: string }) {
    super(
      `${scope(id)} was first used with a different input (fingerprint ${id.storedFingerprint.slice(0, 12)}…, ` +
        `this call ${id.fingerprint.slice(0, 12)}…). Nothing ran. Either this is a repeat of that work with changed ` +
        'arguments (the model retried with another amount, say), which must not run as new work: escalate it; or two ' +
        'different pieces of work derive the same key: include the input field that tells them apart (such as the ' +
        'item id) in the key, never a field a retry may change, such as the amount.',
    );
    this.tool = id.tool;
    this.key = id.key;
    this.namespace = id.namespace;
    this.fingerprint = id.fingerprint;
    this.storedFingerprint = id.storedFingerprint;
  }
}

/**
 * The key has used every attempt its tool allows (`max_attempts`, counted per key in the record,
 * so the limit holds across processes) without completing. Nothing ran this time. The last
 * attempt failed or its process died mid-effect: check the downstream system for this key before
 * anyone runs the work again.
 */
export class AttemptsExhaustedError extends RetrysafeError implements CallIdentity {
  override readonly name = 'AttemptsExhaustedError';
  readonly code = 'attempts_exhausted';
  readonly tool: string;
  readonly key: string;
  readonly namespace: string;
  /** Attempts made under this key. */
  readonly attempts: number;
  /** The tool's `max_attempts`. */
  readonly maxAttempts: number;
  /** The record's error history, oldest first. */
  readonly errors: readonly AttemptError[];

  constructor(id: CallIdentity & { attempts: number; maxAttempts: number; errors: readonly AttemptError[] }) {
    const last = id.errors.at(-1);
    super(
      `${scope(id)} has used ${id.attempts} of ${id.maxAttempts} attempt(s) (max_attempts, per key) ` +
        `without completing${last ? `; last: ${last.name}: ${last.message}` : ''}. This call did not run ` +
        'the effect. Escalate: check the downstream system for this key before running the work again.',
    );
    this.tool = id.tool;
    this.key = id.key;
    this.namespace = id.namespace;
    this.attempts = id.attempts;
    this.maxAttempts = id.maxAttempts;
    this.errors = id.errors;
  }
}

/** Which store step failed; the effect ran only if the step came after it. */
export type StoreOperation = 'ready' | 'claim' | 'read' | 'purge' | 'openRun';

/**
 * The dedup store could not be reached or failed. The runner fails closed: when this is thrown
 * the effect did not run, and retrying the same call once the store is back is safe. The message
 * names the store (file path, URL without password, table or key prefix) and what to check.
 */
export class StoreUnavailableError extends RetrysafeError {
  override readonly name = 'StoreUnavailableError';
  readonly code = 'store_unavailable';
  /** The store, as it describes itself. */
  readonly store: StoreInfo;
  /** The step that failed. */
  readonly operation: StoreOperation;

  constructor(store: StoreInfo, operation: StoreOperation, cause: unknown, subject: string) {
    // One full stop: the reason is followed by one (a driver's message may end with its own).
    const reason = (cause instanceof Error ? cause.message : String(cause)).replace(/\.+$/, '');
    super(
      `Dedup store unavailable (${store.kind} at ${store.location}) during ${operation}: ${reason}. ` +
        `${subject} ${store.checkHint}`,
      { cause },
    );
    this.store = store;
    this.operation = operation;
  }
}

/**
 * The effect completed but its result is not plain JSON data (a `Date`, a `Map`, a class
 * instance, a `bigint`, `NaN`, a cycle, a function...), so it cannot be stored for replay without
 * changing it. Detected right after the effect returns, before the record is written. Nothing is
 * lost: the effect ran once, the record is marked completed so no retry runs it again, and the
 * first call's error carries the live value in `result`. A replay throws this error too
 * (`replayed: true`, no `result`). Fix the tool to return JSON data (e.g. an ISO string for a date).
 */
export class UnserializableResultError extends RetrysafeError implements CallIdentity {
  override readonly name = 'UnserializableResultError';
  readonly code = 'unserializable_result';
  readonly tool: string;
  readonly key: string;
  readonly namespace: string;
  /** What is not JSON, e.g. `$.createdAt is a Date`. */
  readonly reason: string;
  /** True when this call replayed the record rather than running the effect. */
  readonly replayed: boolean;
  /** The value the effect returned (first call only). */
  readonly result: unknown;

  constructor(id: CallIdentity & { reason: string; replayed: boolean; result?: unknown }) {
    super(
      `${scope(id)} returned a result that cannot be stored as JSON: ${id.reason}. ` +
        (id.replayed
          ? 'The effect ran once earlier and was not repeated; its result was not stored. '
          : 'The effect ran once and will not run again under this key; the value is on error.result. ') +
        'Return plain JSON data from execute (strings, finite numbers, booleans, null, arrays, plain objects).',
    );
    this.tool = id.tool;
    this.key = id.key;
    this.namespace = id.namespace;
    this.reason = id.reason;
    this.replayed = id.replayed;
    this.result = id.result;
  }
}

/**
 * The validated input cannot be fingerprinted: it holds a value RFC 8785 canonical JSON cannot
 * represent faithfully (a `Map`, a `bigint`, `NaN`, a cycle...). Nothing ran. Make the schema's
 * output plain JSON data (zod: transform such values to strings or arrays).
 */
export class InputNotFingerprintableError extends RetrysafeError {
  override readonly name = 'InputNotFingerprintableError';
  readonly code = 'input_not_fingerprintable';
  readonly tool: string;
  /** What is not JSON, e.g. `$.tags is a Set`. */
  readonly reason: string;

  constructor(tool: string, reason: string) {
    super(
      `The validated input of ${tool} cannot be fingerprinted: ${reason}. Nothing ran. The fingerprint ` +
        '(SHA-256 of RFC 8785 canonical JSON) needs plain JSON data; transform such values in the schema.',
    );
    this.tool = tool;
    this.reason = reason;
  }
}

/**
 * The reason of the `AbortSignal` a with_key tool's effect gets (`KeyedExecuteContext.signal`)
 * when the runner lost the lease on its key while the effect ran: a renewal found another holder
 * (`cause: 'reclaimed'`), or `lockMs` passed by this process's clock since the last renewal the
 * store confirmed (`cause: 'expired'`: the store unreachable, or the event loop blocked), so the
 * store may hand the key to another call at any moment. Stop the effect if you can; whatever it
 * does now, its completion is refused if another call holds the key, and only the key passed
 * downstream (a provider that dedupes by key) keeps a second effect from happening twice. See
 * docs/runtime.md ("Leases, not locks").
 */
export class LeaseLostError extends RetrysafeError implements CallIdentity {
  override readonly name = 'LeaseLostError';
  readonly code = 'lease_lost';
  readonly tool: string;
  readonly key: string;
  readonly namespace: string;
  /** The attempt whose lease was lost. */
  readonly attempt: number;
  /** Why: another holder reclaimed the key, or the lease ran out without a confirmed renewal. */
  readonly reason: 'reclaimed' | 'expired';

  constructor(id: CallIdentity & { attempt: number; reason: 'reclaimed' | 'expired'; lockMs: number }) {
    super(
      `${scope(id)} lost its lease during attempt ${id.attempt}: ` +
        (id.reason === 'reclaimed'
          ? 'a renewal found that another call holds the key now. '
          : `no renewal was confirmed by the store for ${id.lockMs} ms (lockMs), so another call may hold the key now. `) +
        'Stop the effect if you can; its completion will not be recorded if another call took over.',
    );
    this.tool = id.tool;
    this.key = id.key;
    this.namespace = id.namespace;
    this.attempt = id.attempt;
    this.reason = id.reason;
  }
}

/** Which identifier {@link InvalidIdentifierError} rejected. */
export type IdentifierField = 'namespace' | 'tool' | 'key' | 'origin';

/**
 * A namespace, tool name, key or run origin holds text that some store cannot keep exactly: an
 * unpaired UTF-16 surrogate (PostgreSQL's driver and Redis values turn it into U+FFFD, so
 * `"acme\uDC00"` and `"acme\uFFFD"` would be one tenant there; SQLite reads it back as three
 * U+FFFD; the Redis store's key encoding throws on it) or U+0000 (PostgreSQL's `text`
 * refuses it). Rejected before the store is touched, on every store alike, so a record id means
 * the same thing everywhere. Nothing ran; this is not an outage. Fix where the identifier comes
 * from (for a key: the input field it is built from).
 */
export class InvalidIdentifierError extends RetrysafeError {
  override readonly name = 'InvalidIdentifierError';
  readonly code = 'invalid_identifier';
  /** Which identifier. */
  readonly field: IdentifierField;
  /** The rejected text. */
  readonly value: string;
  /** What is wrong with it, e.g. `an unpaired UTF-16 surrogate (U+DC00) at index 4`. */
  readonly reason: string;

  constructor(field: IdentifierField, value: string, reason: string) {
    super(
      `The ${field} ${JSON.stringify(value)} holds ${reason}, which a dedup store cannot keep exactly ` +
        '(PostgreSQL and Redis turn an unpaired surrogate into U+FFFD, SQLite into three, PostgreSQL refuses U+0000), so two ' +
        `different ${field === 'namespace' ? 'tenants' : `${field}s`} could share a record. Nothing ran. ` +
        'Use well-formed Unicode text without U+0000.',
    );
    this.field = field;
    this.value = value;
    this.reason = reason;
  }
}

/** Which durability trap {@link DurabilityConfigError} refused. */
export type DurabilityConfigReason = 'volatile_store' | 'run_ttl_below_dedup_ttl';

/**
 * The configuration would let records vanish while a retry can still come, so a retry would run
 * the effect again: a Redis server with no persistence (`save ""` and `appendonly no`: a restart
 * forgets every record), or a run record (`openRun`) kept for less time than the dedup records
 * built on it (a redelivery after the run expired gets a new run id, so new keys). Refused before
 * anything ran. The message says how to fix it or, for a volatile store, how to opt in.
 */
export class DurabilityConfigError extends RetrysafeError {
  override readonly name = 'DurabilityConfigError';
  readonly code = 'durability_config';
  /** Which trap. */
  readonly reason: DurabilityConfigReason;
  /** The store, where the trap is a store's (`volatile_store`), with `durable: false`: what the persistence check found. */
  readonly store: StoreInfo | undefined;

  constructor(reason: DurabilityConfigReason, message: string, store?: StoreInfo) {
    super(message);
    this.reason = reason;
    this.store = store;
  }
}

/**
 * An earlier attempt's outcome is unknown (its holder's lock lapsed without a recorded outcome:
 * it may have crashed after the provider call and before the record), the tool has a `reconcile`
 * hook, and the hook answered `unknown` (or threw). Nothing ran this time, and nothing will run
 * under this key until a person checks the downstream system: the record stays indeterminate
 * (`describeRecord(record).state === 'indeterminate'`). `decideRetry` escalates.
 */
export class IndeterminateOutcomeError extends RetrysafeError implements CallIdentity {
  override readonly name = 'IndeterminateOutcomeError';
  readonly code = 'indeterminate_outcome';
  readonly tool: string;
  readonly key: string;
  readonly namespace: string;
  /** The attempt whose outcome is unknown. */
  readonly attempt: number;
  /** What the hook said (its `reason`, or the error it threw). */
  readonly detail: string;

  constructor(id: CallIdentity & { attempt: number; detail: string; cause?: unknown }) {
    super(
      `${scope(id)}: attempt ${id.attempt} stopped without a recorded outcome, and the tool's reconcile hook could not tell ` +
        `whether its effect happened (${id.detail}). This call did not run the effect. Escalate: check the downstream system ` +
        'for this work before running it again.',
      id.cause === undefined ? undefined : { cause: id.cause },
    );
    this.tool = id.tool;
    this.key = id.key;
    this.namespace = id.namespace;
    this.attempt = id.attempt;
    this.detail = id.detail;
  }
}
