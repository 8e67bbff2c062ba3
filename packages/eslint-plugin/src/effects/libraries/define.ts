import type { EffectKind, EffectOperation, KeySlot } from './catalogue.js';

// Shorthands for the data modules: each returns plain catalogue data, so a library reads as a list
// of what its calls do rather than as a page of object literals.

/** Operations of one kind, one per call pattern. */
export function calls(kind: EffectKind, ...patterns: string[]): EffectOperation[] {
  return patterns.map((call) => ({ call, kind }));
}

/** Creates that take their deduplication key at `key` (`'none'` when the provider offers none). */
export function creates(key: KeySlot, does: string, ...patterns: string[]): EffectOperation[] {
  return patterns.map((call) => ({ call, kind: 'create', key, does }));
}

/** Calls whose kind is read from the SQL text at `argument`. */
export function sqlCalls(argument: number, ...patterns: string[]): EffectOperation[] {
  return patterns.map((call) => ({ call, kind: 'unknown', from: { from: 'sql', argument } }));
}

/** A call whose kind comes from a command at `argument`: `client.send(new SendEmailCommand(...))`. */
export function commandCall(call = 'send', argument = 0): EffectOperation {
  return { call, kind: 'unknown', from: { from: 'command', argument } };
}
