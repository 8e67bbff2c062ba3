import { codeSpan } from '../ast/index.js';
import type { SideEffectClass } from './libraries/index.js';
import type { HandlerEffects } from './analysis.js';
import type { FoundEffect } from './effectsOfCall.js';

// The policy a handler's effects imply, when they are evidence enough for one: what
// require-retry-policy offers as a suggestion and the audit command reports as inferred. "Only
// reads" and "naturally idempotent" need every call the handler reaches to be known; "not safely
// repeatable" needs one relative change or one create that passes no key.

/** A policy in the seed's shape, with the effect that decided it. */
export interface InferredPolicy {
  readonly sideEffects: 'none' | SideEffectClass;
  readonly idempotent: boolean;
  readonly retry: 'never' | 'safe';
  /** For MCP annotations: whether it may overwrite or delete (an absolute write, a relative change). */
  readonly destructive: boolean;
  /** The effect that decided it (`undefined` for a handler that reaches no effect at all). */
  readonly evidence: FoundEffect | undefined;
  /** Why, for the suggestion's message: `it only reads`, `UPDATE … (line 3) adds to points`. */
  readonly reason: string;
}

const SEVERITY: readonly SideEffectClass[] = ['money_out', 'message_out', 'external_write', 'internal_write'];
const WRITES = new Set(['absolute', 'create', 'relative', 'write']);

/** What {@link inferPolicy} may be told beyond the effects. */
export interface InferPolicyOptions {
  /**
   * For a create that passes a key: the source of that key when the key is new on every call
   * (`` `randomUUID()` (line 17) ``, the keys layer's judgement), `undefined` when the file shows
   * none. Such a key deduplicates nothing: the create counts as one without a key.
   */
  readonly newKeyOf?: (effect: FoundEffect) => string | undefined;
}

/**
 * The policy `handler`'s effects imply, or `undefined` when they are not evidence enough for one.
 * A create that passes a key the keys layer finds new on every call ({@link InferPolicyOptions.newKeyOf})
 * is not safely repeatable; one that passes a durable key implies nothing here, since `idempotent:
 * 'with_key'` needs a key function built from the run and the input, which the effects do not give.
 */
export function inferPolicy(handler: HandlerEffects, options: InferPolicyOptions = {}): InferredPolicy | undefined {
  const { effects, complete } = handler;
  const writes = effects.filter((effect) => WRITES.has(effect.kind));
  const sideEffects = SEVERITY.find((kind) => writes.some((effect) => effect.sideEffects === kind)) ?? 'none';
  const destructive = writes.some((effect) => effect.kind !== 'create' && !effect.additive);
  // A handler that looks a key up may deduplicate its creates: nothing to say about them.
  const repeated = handler.keyLookup
    ? undefined
    : withReason(effects.find((effect) => effect.kind === 'relative'), 'changes state relatively') ??
      withReason(effects.find((effect) => effect.kind === 'create' && effect.keyPassed === 'no'), 'creates without a key') ??
      findCreateWithNewKey(effects, options.newKeyOf);
  if (repeated) {
    const reason = `${codeSpan(repeated.effect.text)} (line ${repeated.effect.line}) ${repeated.does}`;
    return { sideEffects: sideEffects === 'none' ? 'internal_write' : sideEffects, idempotent: false, retry: 'never', destructive, evidence: repeated.effect, reason };
  }
  if (!complete || effects.some((effect) => effect.kind === 'unknown' || effect.kind === 'write' || effect.kind === 'create')) return undefined;
  // A handler that reaches no effect at all gives nothing to infer from (a stub, a pure computation).
  const [first] = effects;
  if (!first) return undefined;
  if (writes.length === 0) {
    return { sideEffects: 'none', idempotent: true, retry: 'safe', destructive: false, evidence: first, reason: `it only reads: ${codeSpan(first.text)}, line ${first.line}` };
  }
  const [write] = writes;
  // A relative change its WHERE guards is not an absolute write: say what makes the repeat harmless
  // (new-user trial 6 read "absolute" of `completions = completions + 1 … WHERE status <> 'done'`).
  const guarded = writes.find((effect) => effect.guarded !== undefined);
  const reason = guarded
    ? `its writes are absolute or guarded by their WHERE: ${codeSpan(guarded.text)}, line ${guarded.line}, changes ${codeSpan(guarded.guarded ?? '')} relatively only in a row the WHERE no longer matches after the first run`
    : `its writes are absolute: ${codeSpan(write?.text ?? '')}, line ${write?.line ?? 0}`;
  return { sideEffects, idempotent: true, retry: 'safe', destructive, evidence: guarded ?? write, reason };
}

/** An effect that makes a repeat unsafe, and what it does, for the reason. */
interface RepeatedEffect {
  readonly effect: FoundEffect;
  readonly does: string;
}

function withReason(effect: FoundEffect | undefined, does: string): RepeatedEffect | undefined {
  return effect && { effect, does };
}

/** The first create whose key is new on every call: `fetch` with `'Idempotency-Key': randomUUID()`. */
function findCreateWithNewKey(effects: readonly FoundEffect[], newKeyOf: InferPolicyOptions['newKeyOf']): RepeatedEffect | undefined {
  if (!newKeyOf) return undefined;
  for (const effect of effects) {
    if (effect.kind !== 'create' || effect.keyPassed !== 'yes') continue;
    const source = newKeyOf(effect);
    if (source !== undefined) return { effect, does: `sends a key from ${source}, new on every call` };
  }
  return undefined;
}
