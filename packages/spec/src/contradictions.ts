/**
 * The contradictions a retry policy can hold, stated once: their messages (`CONTRADICTIONS`) and
 * the type-level check (`PolicyContradictions`) that `defineTool` and `declarePolicy` apply, so
 * that `tsc` rejects a contradictory declaration with the message a user also reads at runtime.
 *
 * Imports nothing: policy.ts and tool.ts both build on it.
 *
 * @packageDocumentation
 */

/**
 * The message of every contradiction. The type level shows them as `Contradiction<"...">` in the
 * compiler's error; the runtime check (`toToolPolicy` in policy.ts) throws them in a `ToolPolicyError`.
 */
export const CONTRADICTIONS = {
  keyRequired:
    "idempotent: 'with_key' needs a key function, key: ({ run, input }) => key`${run.id}:${input.id}:action`, built from durable state so that a retry reuses the key",
  notRepeatableRetried:
    "idempotent: false (not safely repeatable) allows only retry: 'never': an automatic retry could repeat the side effect",
  keyedRetrySafe:
    "idempotent: 'with_key' is retried only with the same key: declare retry: 'safe_with_same_key' (or 'never')",
  sameKeyWithoutKey:
    "retry: 'safe_with_same_key' needs idempotent: 'with_key' and a key: declare retry: 'safe' if the tool is naturally idempotent, 'never' if it is not",
  noSideEffectsNotRepeatable:
    "side effects 'none' make a tool naturally idempotent: declare idempotent: true (if calling it twice does harm, declare its side effects)",
  keyOnNaturallyIdempotent:
    "idempotent: true (naturally idempotent) takes no key: remove key, or declare idempotent: 'with_key' if the tool creates or accumulates",
  keyOnNotRepeatable:
    "idempotent: false (not safely repeatable) takes no key: if the key makes a repeat safe, declare idempotent: 'with_key' and retry: 'safe_with_same_key'",
  neverRetriedMaxAttempts:
    "retry: 'never' allows exactly one attempt: max attempts must be 1 or left out",
  maxAttemptsNotPositiveInteger:
    'max attempts counts every attempt, the first included: it must be a positive integer',
} as const;

declare const contradictionBrand: unique symbol;

/**
 * The type a declaration property gets when it contradicts another one. No value has this type, so
 * the compiler reports the property, and its error names the contradiction:
 * `Type '"safe"' is not assignable to type '"safe" & Contradiction<"idempotent: false (not safely
 * repeatable) allows only retry: 'never': ...">'`.
 */
export interface Contradiction<Message extends string> {
  readonly [contradictionBrand]: Message;
}

/**
 * The contradiction rules at the type level (the runtime twin is `findContradiction` in policy.ts,
 * with the same messages). Each property is intersected with the declaration's property of the same name: it is
 * `unknown` when the declaration is consistent and a {@link Contradiction} when it is not.
 * `HasKey` is `'unknown'` for framework tools, which bring their own key.
 */
export type PolicyContradictions<SE, I, R, M, HasKey extends boolean | 'unknown'> = {
  readonly idempotent?: [I] extends ['with_key']
    ? [HasKey] extends [false]
      ? Contradiction<(typeof CONTRADICTIONS)['keyRequired']>
      : unknown
    : [I] extends [false]
      ? [SE] extends ['none']
        ? Contradiction<(typeof CONTRADICTIONS)['noSideEffectsNotRepeatable']>
        : unknown
      : unknown;
  readonly retry?: [I] extends [false]
    ? [R] extends ['never']
      ? unknown
      : Contradiction<(typeof CONTRADICTIONS)['notRepeatableRetried']>
    : [I] extends ['with_key']
      ? [R] extends ['safe']
        ? Contradiction<(typeof CONTRADICTIONS)['keyedRetrySafe']>
        : unknown
      : [R] extends ['safe_with_same_key']
        ? Contradiction<(typeof CONTRADICTIONS)['sameKeyWithoutKey']>
        : unknown;
  readonly key?: [HasKey] extends [true]
    ? [I] extends [true]
      ? Contradiction<(typeof CONTRADICTIONS)['keyOnNaturallyIdempotent']>
      : [I] extends [false]
        ? Contradiction<(typeof CONTRADICTIONS)['keyOnNotRepeatable']>
        : unknown
    : unknown;
  readonly maxAttempts?: [M] extends [never]
    ? unknown
    : number extends M
      ? unknown // not a literal: checked at runtime
      : `${M & number}` extends `-${string}` | '0' | `${string}.${string}`
        ? Contradiction<(typeof CONTRADICTIONS)['maxAttemptsNotPositiveInteger']>
        : [R] extends ['never']
          ? [M] extends [1]
            ? unknown
            : Contradiction<(typeof CONTRADICTIONS)['neverRetriedMaxAttempts']>
          : unknown;
};
