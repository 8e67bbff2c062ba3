// Inngest AgentKit (`@inngest/agent-kit`), added as docs/contributing.md's "Add a framework" says:
// its catalogue entry (src/tools/frameworks/inngest-agent-kit.ts), its stand-in
// (tests/fixtures/stand-ins/inngest-agent-kit), and these cases. The shape is AgentKit's
// `createTool({ name, description, parameters, handler })` with `handler(input, { agent, network, step })`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuleTester } from '@typescript-eslint/rule-tester';

import noRandomKey from '../../src/rules/no-random-key.js';
import requireKeyPassthrough from '../../src/rules/require-key-passthrough.js';
import requireRetryPolicy from '../../src/rules/require-retry-policy.js';
import requireRetryPolicyTypeChecked from '../../src/rules/require-retry-policy-type-checked.js';

const ruleTester = new RuleTester();
const crossFile = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/cross-file');
const typedTester = new RuleTester({ languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: crossFile } } });

const REMEDY = 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry.';
const POLICY = "{ side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' }";

ruleTester.run('require-retry-policy: Inngest AgentKit', requireRetryPolicy, {
  valid: [
    {
      name: 'createTool wrapped in declarePolicy',
      code: `import { createTool } from '@inngest/agent-kit';
import { declarePolicy } from '@retrysafe/spec';
export const refund = declarePolicy(createTool({ name: 'refund_order', description: 'Refund an order', handler: async () => ({}) }), ${POLICY});`,
    },
    {
      name: 'a createTool of another package is not an AgentKit tool',
      code: `import { createTool } from 'some-cli-kit';
export const build = createTool({ name: 'build', description: 'Build', handler: async () => ({}) });`,
    },
  ],
  invalid: [
    {
      name: 'createTool from @inngest/agent-kit with no policy',
      code: `import { createTool } from '@inngest/agent-kit';
import { z } from 'zod';
export const refund = createTool({
  name: 'refund_order',
  description: 'Refund an order',
  parameters: z.object({ orderId: z.string() }),
  handler: async ({ orderId }, { step }) => ({ refunded: orderId }),
});`,
      errors: [{ messageId: 'missingPolicy', line: 3, column: 23, endLine: 3, endColumn: 33, data: { tool: 'Tool `refund_order`', remedy: REMEDY } }],
    },
  ],
});

typedTester.run('require-retry-policy-type-checked: Inngest AgentKit', requireRetryPolicyTypeChecked, {
  valid: [
    {
      name: 'createTool imported under its own name is require-retry-policy’s',
      code: `import { createTool } from '@inngest/agent-kit';\nexport const refund = createTool({ name: 'refund', handler: async () => ({}) });`,
    },
  ],
  invalid: [
    {
      name: 'createTool re-exported under another name by a local module (tools.ts)',
      code: `import { defineAgentKitTool } from './tools.js';
export const refund = defineAgentKitTool({ name: 'refund', description: 'Refund', handler: async () => ({}) });`,
      errors: [{ messageId: 'missingPolicy', line: 2, column: 23, endLine: 2, endColumn: 41, data: { tool: 'Tool `refund`', remedy: REMEDY } }],
    },
  ],
});

ruleTester.run('no-random-key: on an AgentKit tool’s handler', noRandomKey, {
  valid: [
    {
      name: 'a key from the input and the action',
      code: `import { createTool } from '@inngest/agent-kit';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = createTool({
  name: 'refund_order',
  handler: async ({ orderId }) => stripe.refunds.create({ payment_intent: orderId }, { idempotencyKey: \`\${orderId}:refund\` }),
});`,
    },
  ],
  invalid: [
    {
      name: 'a random key in the handler',
      code: `import { createTool } from '@inngest/agent-kit';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = createTool({
  name: 'refund_order',
  handler: async ({ orderId }) => stripe.refunds.create({ payment_intent: orderId }, { idempotencyKey: randomUUID() }),
});`,
      // One id: `${orderId}:refund_order` would be one key for every refund of the order (new-user trial).
      errors: [{ messageId: 'randomKey', line: 7, column: 104, suggestions: [] }],
    },
  ],
});

ruleTester.run('require-key-passthrough: on an AgentKit tool’s handler', requireKeyPassthrough, {
  valid: [
    {
      name: 'a with_key tool passes the key it takes in its input',
      code: `import { createTool } from '@inngest/agent-kit';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = declarePolicy(createTool({
  name: 'refund_order',
  handler: async ({ orderId, idempotencyKey }) => stripe.refunds.create({ payment_intent: orderId }, { idempotencyKey }),
}), ${POLICY});`,
    },
  ],
  invalid: [
    {
      name: 'a with_key tool whose handler does not pass its key to Stripe',
      code: `import { createTool } from '@inngest/agent-kit';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = declarePolicy(createTool({
  name: 'refund_order',
  handler: async ({ orderId, idempotencyKey }) => stripe.refunds.create({ payment_intent: orderId }),
}), ${POLICY});`,
      errors: [{ messageId: 'missingKey', line: 7, column: 51, suggestions: [{ messageId: 'passKey', data: { key: '`idempotencyKey`', where: 'the `idempotencyKey` request option' }, output: `import { createTool } from '@inngest/agent-kit';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = declarePolicy(createTool({
  name: 'refund_order',
  handler: async ({ orderId, idempotencyKey }) => stripe.refunds.create({ payment_intent: orderId }, { idempotencyKey }),
}), ${POLICY});` }] }],
    },
  ],
});
