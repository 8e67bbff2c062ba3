import { type InvalidTestCase, RuleTester, type ValidTestCase } from '@typescript-eslint/rule-tester';

import rule, { type MessageIds, type Options } from '../../src/rules/require-key-passthrough-type-checked.js';
import syntacticRule from '../../src/rules/require-key-passthrough.js';
import { createCrossFileTester } from '../support/crossFileTester.js';

// The linted code is tests/fixtures/cross-file/file.ts; the policies its tools import are in
// policies.ts (`keyed`, `KEYED_POLICY`, the look-alike `notKeyed`) and re-exported, renamed, by
// policies-barrel.ts. The twin judges only the with_key tools whose policy is read in another file:
// require-key-passthrough stays silent on them (a spread it cannot see), and judges the rest.
const typedTester = createCrossFileTester();
const syntacticTester = new RuleTester();

type Valid = ValidTestCase<Options>;
type Invalid = InvalidTestCase<MessageIds, Options>;

const HEADER = `import { declarePolicy, defineTool } from '@retrysafe/spec';
import { tool } from 'ai';
import Stripe from 'stripe';
import { z } from 'zod';
declare const stripe: Stripe;
const input = z.object({ charge: z.string() });`;

/** A `defineTool` refund tool whose config starts with `spread` and whose handler is `execute`. */
const refundTool = (imports: string, spread: string, execute: string): string => `${HEADER}
${imports}
export const refund = defineTool({ ...${spread}, name: 'refund', input, execute: ${execute} });`;

const NO_KEY = 'async ({ charge }) => stripe.refunds.create({ charge })';

const valid: Valid[] = [
  {
    name: 'look-alike: an imported policy const that is not with_key',
    code: refundTool("import { notKeyed } from './policies.js';", 'notKeyed', NO_KEY),
  },
  {
    name: 'look-alike: an imported with_key policy, and the handler passes the key',
    code: refundTool("import { keyed } from './policies.js';", 'keyed', 'async ({ charge }, { key }) => stripe.refunds.create({ charge }, { idempotencyKey: key })'),
  },
  {
    name: 'look-alike: an imported with_key policy, and the config declares a reconcile hook (the runner asks it before a lost attempt runs again)',
    code: refundTool("import { keyed } from './policies.js';", 'keyed, reconcile: async () => undefined', NO_KEY),
  },
  {
    name: 'a with_key policy const of the linted file is require-key-passthrough’s to report, not this rule’s',
    code: `${HEADER}
const keyed = { sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' } as const;
export const refund = defineTool({ ...keyed, name: 'refund', input, execute: ${NO_KEY} });`,
  },
  {
    name: 'a tool that declares nothing is require-key-passthrough’s to report, not this rule’s',
    code: `${HEADER}
export const refund = tool({ description: 'Refund', inputSchema: input, execute: ${NO_KEY} });`,
  },
];

const invalid: Invalid[] = [
  {
    // export const keyed = { sideEffects: 'money_out', idempotent: 'with_key', ... } (policies.ts)
    name: 'an imported with_key const spread into the defineTool config: the Stripe call passes no key',
    code: refundTool("import { keyed } from './policies.js';", 'keyed', NO_KEY),
    errors: [
      {
        messageId: 'missingKey',
        line: 8,
        column: 100,
        suggestions: [
          {
            messageId: 'bindAndPassKey',
            output: refundTool("import { keyed } from './policies.js';", 'keyed', 'async ({ charge }, { key }) => stripe.refunds.create({ charge }, { idempotencyKey: key })'),
          },
        ],
      },
    ],
  },
  {
    name: 'the with_key const re-exported, renamed, through a barrel',
    code: refundTool("import { refundPolicy } from './policies-barrel.js';", 'refundPolicy', NO_KEY),
    errors: [
      {
        messageId: 'missingKey',
        line: 8,
        column: 107,
        suggestions: [
          {
            messageId: 'bindAndPassKey',
            output: refundTool("import { refundPolicy } from './policies-barrel.js';", 'refundPolicy', 'async ({ charge }, { key }) => stripe.refunds.create({ charge }, { idempotencyKey: key })'),
          },
        ],
      },
    ],
  },
  {
    name: 'an imported with_key policy given to declarePolicy around an AI SDK tool whose input names the key',
    code: `${HEADER}
import { keyedPolicy } from './policies-barrel.js';
export const refund = declarePolicy(
  tool({ description: 'Refund', inputSchema: input, execute: async ({ charge, idempotencyKey }) => stripe.refunds.create({ charge }) }),
  keyedPolicy,
);`,
    errors: [
      {
        messageId: 'missingKey',
        line: 9,
        column: 100,
        suggestions: [
          {
            messageId: 'passKey',
            output: `${HEADER}
import { keyedPolicy } from './policies-barrel.js';
export const refund = declarePolicy(
  tool({ description: 'Refund', inputSchema: input, execute: async ({ charge, idempotencyKey }) => stripe.refunds.create({ charge }, { idempotencyKey }) }),
  keyedPolicy,
);`,
          },
        ],
      },
    ],
  },
  {
    // A new-user trial: a constant key is one key for every call, as require-key-passthrough reports it.
    name: 'an imported with_key policy given to declarePolicy, and the handler passes a constant key',
    code: `${HEADER}
import { keyedPolicy } from './policies-barrel.js';
const KEY = 'refund-key';
export const refund = declarePolicy(
  tool({ description: 'Refund', inputSchema: input, execute: async ({ charge }) => stripe.refunds.create({ charge }, { idempotencyKey: KEY }) }),
  keyedPolicy,
);`,
    errors: [{ messageId: 'constantKey', line: 10, column: 136, data: { tool: 'Tool `refund`', call: '`stripe.refunds.create(...)`', where: 'the `idempotencyKey` request option', constant: "`KEY` (`'refund-key'`, line 8)" }, suggestions: [] }],
  },
];

typedTester.run('require-key-passthrough-type-checked', rule, { valid, invalid });

// Until the twin reads it, the syntactic rule stays silent on a policy it cannot see (STYLE.md: a
// rule never changes behaviour by whether types happen to be available).
syntacticTester.run('require-key-passthrough on a with_key policy imported from another file', syntacticRule, {
  valid: invalid.map(({ name, code }) => ({ name: `not judged without the twin: ${name}`, code })),
  invalid: [],
});
