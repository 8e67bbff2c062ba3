import type { JSONSchema4 } from '@typescript-eslint/utils/json-schema';

import type { AllowedSource, SourceKind } from '../../keys/index.js';

/** The options `no-random-key` and `no-random-key-type-checked` share. */
export interface KeyRuleOptions {
  /** Extra property or header names that carry a deduplication key (added to the defaults). */
  keyNames?: string[];
  /** Extra replay-stable imports or globals, e.g. `{ from: 'my-workflow-sdk', name: 'uuid' }`. */
  allowedSources?: AllowedSource[];
}

/** JSON schema of {@link KeyRuleOptions}. */
export const keyRuleOptionsSchema: JSONSchema4 = {
  type: 'object',
  additionalProperties: false,
  properties: {
    keyNames: {
      type: 'array',
      description: 'Extra property or header names (any letter case) whose value is a deduplication key.',
      items: { type: 'string', minLength: 1 },
      uniqueItems: true,
    },
    allowedSources: {
      type: 'array',
      description: "Extra replay-stable sources: `from` is a module (or 'globalThis'), `name` the export path.",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['from', 'name'],
        properties: {
          from: { type: 'string', minLength: 1 },
          name: { type: 'string', minLength: 1 },
        },
      },
    },
  },
};

/** The defaults of {@link KeyRuleOptions}: no extra key names or sources. */
export const keyRuleDefaultOptions: [Required<KeyRuleOptions>] = [{ keyNames: [], allowedSources: [] }];

/** What every key rule tells the user to do instead. */
export const DURABLE_KEY_ADVICE = 'Derive it from durable fields such as the run id and the item id.';

/** The message each key rule reports a source of each kind with (both key rules use these ids). */
export const MESSAGE_ID_BY_SOURCE_KIND = {
  clock: 'clockKey',
  counter: 'counterKey',
  perAttempt: 'perAttemptKey',
  random: 'randomKey',
} as const satisfies Record<SourceKind, string>;
