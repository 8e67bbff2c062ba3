import { findPolicyContradiction, findUnknownPolicyValue, POLICY_CONTRADICTIONS } from '@retrysafe/eslint-plugin/analysis';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { CONTRADICTIONS, declarePolicy, defineTool, key, type RunContext } from '../src/index.js';

// no-unsafe-retry-policy judges a policy from the plugin's own table (the plugin does not import the
// spec at runtime): for every combination of values, it must reject exactly what the spec rejects,
// with the spec's message.

const SIDE_EFFECTS = ['none', 'internal_write', 'external_write', 'money_out', 'message_out'] as const;
const IDEMPOTENT = [true, 'with_key', false] as const;
const RETRY = ['safe', 'safe_with_same_key', 'never'] as const;
const MAX_ATTEMPTS = [undefined, 1, 2, 0, 1.5] as const;
const HAS_KEY = [undefined, true, false] as const;

/** The spec's rejection of the policy (`undefined`: accepted), from `declarePolicy` or `defineTool`. */
function specRejection(policy: Record<string, unknown>, hasKey: boolean | undefined): string | undefined {
  try {
    if (hasKey === undefined) {
      declarePolicy({}, policy as never);
    } else {
      defineTool({
        name: 't',
        sideEffects: policy['side_effects'],
        idempotent: policy['idempotent'],
        retry: policy['retry'],
        maxAttempts: policy['max_attempts'],
        input: z.object({ id: z.string() }),
        ...(hasKey ? { key: ({ run }: { run: RunContext }) => key`${run.id}` } : {}),
        execute: async () => 1,
      } as never);
    }
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const combinations = SIDE_EFFECTS.flatMap((sideEffects) =>
  IDEMPOTENT.flatMap((idempotent) =>
    RETRY.flatMap((retry) => MAX_ATTEMPTS.flatMap((maxAttempts) => HAS_KEY.map((hasKey) => ({ sideEffects, idempotent, retry, maxAttempts, hasKey })))),
  ),
);

describe("the plugin's policy contradictions are the spec's", () => {
  it('has the spec’s message for each one', () => {
    for (const entry of POLICY_CONTRADICTIONS) expect(entry.message).toBe(CONTRADICTIONS[entry.id as keyof typeof CONTRADICTIONS]);
    expect(POLICY_CONTRADICTIONS.map((entry) => entry.id).sort()).toEqual(Object.keys(CONTRADICTIONS).sort());
  });

  it(`rejects what the spec rejects, with its message, in all ${combinations.length} combinations`, () => {
    const disagreements = combinations.filter((combination) => {
      const { sideEffects, idempotent, retry, maxAttempts, hasKey } = combination;
      const policy = { side_effects: sideEffects, idempotent, retry, ...(maxAttempts === undefined ? {} : { max_attempts: maxAttempts }) };
      const rejection = specRejection(policy, hasKey);
      const found = findPolicyContradiction(combination);
      if (rejection === undefined) return found !== undefined;
      return found === undefined || !rejection.includes(found.message);
    });
    expect(disagreements).toEqual([]);
  });
});

// no-unsafe-retry-policy's unknownPolicyValue and the audit list the values the plugin knows
// (`findUnknownPolicyValue`): they must be the spec's own, in its order, for each field.
describe("the plugin's values of each policy field are the spec's", () => {
  it.each([
    ['side_effects', 'sideEffects', 'side effects must be one of '],
    ['idempotent', 'idempotent', 'idempotent must be one of '],
    ['retry', 'retry', 'retry must be one of '],
  ] as const)('%s', (seedField, pluginField, prefix) => {
    const policy: Record<string, unknown> = { side_effects: 'none', idempotent: true, retry: 'safe', [seedField]: 'not_a_value' };
    const rejection = specRejection(policy, undefined) ?? '';
    const listed = rejection.slice(rejection.indexOf(prefix) + prefix.length, rejection.indexOf('; got'));
    const unknown = findUnknownPolicyValue({ [pluginField]: 'not_a_value' });
    expect(unknown?.known.map((value) => (typeof value === 'string' ? `'${value}'` : String(value))).join(', ')).toBe(listed);
  });
});
