import type { PolicyField } from './policyFields.js';

// The contradictions `@retrysafe/spec` rejects in a declared policy (its `findContradiction` in
// packages/spec/src/policy.ts, and tsc's `Contradiction<...>` from `PolicyContradictions` in tool.ts),
// as data: the plugin does not import the spec at runtime. packages/spec/tests/lint-contradictions.test.ts
// checks every combination of values against the spec's own answer and messages.

/** A policy's values as a rule could read them: `undefined` where a field is not stated or not known. */
export interface StaticPolicy {
  readonly sideEffects?: unknown;
  readonly idempotent?: unknown;
  readonly retry?: unknown;
  /** Only a stated value: a missing one defaults to one the spec accepts. */
  readonly maxAttempts?: unknown;
  /**
   * Whether a `defineTool` declares a `key` function; `undefined` where the declaration has none
   * (framework tools, `declarePolicy`) or where it is not known.
   */
  readonly hasKey?: boolean | undefined;
}

/** One contradiction: which value judges it, the field a report points at, and the spec's message. */
export interface PolicyContradiction {
  readonly id: string;
  /** The spec's message (`CONTRADICTIONS[id]`): what contradicts what, and the fix. */
  readonly message: string;
  /** The field (or `key`) that the message asks to change, where a report points. */
  readonly at: PolicyField | 'key';
  readonly applies: (policy: StaticPolicy) => boolean;
}

const known = (value: unknown): boolean => value !== undefined;

/** In the spec's order: the first that applies is the one its ToolPolicyError names. */
export const POLICY_CONTRADICTIONS: readonly PolicyContradiction[] = [
  {
    id: 'maxAttemptsNotPositiveInteger',
    message: 'max attempts counts every attempt, the first included: it must be a positive integer',
    at: 'maxAttempts',
    applies: (p) => known(p.maxAttempts) && !(typeof p.maxAttempts === 'number' && Number.isInteger(p.maxAttempts) && p.maxAttempts >= 1),
  },
  {
    id: 'keyRequired',
    message:
      "idempotent: 'with_key' needs a key function, key: ({ run, input }) => key`${run.id}:${input.id}:action`, built from durable state so that a retry reuses the key",
    at: 'idempotent',
    applies: (p) => p.idempotent === 'with_key' && p.hasKey === false,
  },
  {
    id: 'noSideEffectsNotRepeatable',
    message:
      "side effects 'none' make a tool naturally idempotent: declare idempotent: true (if calling it twice does harm, declare its side effects)",
    at: 'idempotent',
    applies: (p) => p.idempotent === false && p.sideEffects === 'none',
  },
  {
    id: 'notRepeatableRetried',
    message: "idempotent: false (not safely repeatable) allows only retry: 'never': an automatic retry could repeat the side effect",
    at: 'retry',
    applies: (p) => p.idempotent === false && known(p.retry) && p.retry !== 'never',
  },
  {
    id: 'keyedRetrySafe',
    message: "idempotent: 'with_key' is retried only with the same key: declare retry: 'safe_with_same_key' (or 'never')",
    at: 'retry',
    applies: (p) => p.idempotent === 'with_key' && p.retry === 'safe',
  },
  {
    id: 'sameKeyWithoutKey',
    message:
      "retry: 'safe_with_same_key' needs idempotent: 'with_key' and a key: declare retry: 'safe' if the tool is naturally idempotent, 'never' if it is not",
    at: 'retry',
    applies: (p) => known(p.idempotent) && p.idempotent !== 'with_key' && p.retry === 'safe_with_same_key',
  },
  {
    id: 'keyOnNaturallyIdempotent',
    message:
      "idempotent: true (naturally idempotent) takes no key: remove key, or declare idempotent: 'with_key' if the tool creates or accumulates",
    at: 'key',
    applies: (p) => p.idempotent === true && p.hasKey === true,
  },
  {
    id: 'keyOnNotRepeatable',
    message:
      "idempotent: false (not safely repeatable) takes no key: if the key makes a repeat safe, declare idempotent: 'with_key' and retry: 'safe_with_same_key'",
    at: 'key',
    applies: (p) => p.idempotent === false && p.hasKey === true,
  },
  {
    id: 'neverRetriedMaxAttempts',
    message: "retry: 'never' allows exactly one attempt: max attempts must be 1 or left out",
    at: 'maxAttempts',
    applies: (p) => p.retry === 'never' && known(p.maxAttempts) && p.maxAttempts !== 1,
  },
];

/**
 * Field values the spec accepts (its `SIDE_EFFECTS`, `IDEMPOTENCY` and retry modes): a policy with
 * any other stated value is not judged here; `findUnknownPolicyValue` names such a value.
 */
export const ACCEPTED: Readonly<Record<'sideEffects' | 'idempotent' | 'retry', readonly unknown[]>> = {
  sideEffects: ['none', 'internal_write', 'external_write', 'money_out', 'message_out'],
  idempotent: [true, 'with_key', false],
  retry: ['safe', 'safe_with_same_key', 'never'],
};

/**
 * The contradiction `@retrysafe/spec` rejects `policy` for (the first, as its ToolPolicyError names
 * it), judged only from the values given: a field that is `undefined` (not stated, not static) never
 * makes one. `undefined` when none applies, or when a stated value is not one the spec accepts (a
 * home-grown DSL with other values is not the spec's).
 */
export function findPolicyContradiction(policy: StaticPolicy): PolicyContradiction | undefined {
  for (const field of ['sideEffects', 'idempotent', 'retry'] as const) {
    if (known(policy[field]) && !ACCEPTED[field].includes(policy[field])) return undefined;
  }
  return POLICY_CONTRADICTIONS.find((contradiction) => contradiction.applies(policy));
}
