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

export function inferPolicy(handler: HandlerEffects): InferredPolicy | undefined {
  const { effects, complete } = handler;
  const writes = effects.filter((effect) => WRITES.has(effect.kind));
  const sideEffects = SEVERITY.find((kind) => writes.some((effect) => effect.sideEffects === kind)) ?? 'none';
  const destructive = writes.some((effect) => effect.kind !== 'create' && !effect.additive);
  // A handler that looks a key up may deduplicate its creates: nothing to say about them.
  const repeated = handler.keyLookup
    ? undefined
    : effects.find((effect) => effect.kind === 'relative') ?? effects.find((effect) => effect.kind === 'create' && effect.keyPassed === 'no');
  if (repeated) {
    const reason = `\`${repeated.text}\` (line ${repeated.line}) ${repeated.kind === 'relative' ? 'changes state relatively' : 'creates without a key'}`;
    return { sideEffects: sideEffects === 'none' ? 'internal_write' : sideEffects, idempotent: false, retry: 'never', destructive, evidence: repeated, reason };
  }
  if (!complete || effects.some((effect) => effect.kind === 'unknown' || effect.kind === 'write' || effect.kind === 'create')) return undefined;
  // A handler that reaches no effect at all gives nothing to infer from (a stub, a pure computation).
  const [first] = effects;
  if (!first) return undefined;
  if (writes.length === 0) {
    return { sideEffects: 'none', idempotent: true, retry: 'safe', destructive: false, evidence: first, reason: `it only reads: \`${first.text}\`, line ${first.line}` };
  }
  const [write] = writes;
  const reason = `its writes are absolute: \`${write?.text ?? ''}\`, line ${write?.line ?? 0}`;
  return { sideEffects, idempotent: true, retry: 'safe', destructive, evidence: write, reason };
}
