// Mastra (`@mastra/core`), added as docs/contributing.md's "Add a framework" says: its catalogue
// entry (src/tools/frameworks/mastra.ts), its stand-in (tests/fixtures/stand-ins/mastra-core), and
// these cases. The shapes are Mastra 1.71's: `createTool({ id, description, inputSchema, execute })`
// from `@mastra/core/tools` (and from `@mastra/core` itself before 1.0), `new Tool({...})`, and
// `execute(inputData, context)` with `context.agent.toolCallId`.
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

const REMEDY =
  "Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry, or add `mcp: { _meta: { 'io.github.retrysafe/policy': {...} } }`.";
const POLICY = "{ side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' }";
/** What a key rule tells a Mastra tool: where its run id comes from (the catalogue's `runId`). */
const MASTRA_ADVICE =
  'Derive it from durable fields: the run id and the item id. In this Mastra tool, the run id is `context.agent.threadId` (the memory thread) or `context.workflow.runId` (a workflow run); not `context.agent.toolCallId`, which is new on every call.';

// Sources are flush left so that the line and column of each case read straight off the code.
ruleTester.run('require-retry-policy: Mastra', requireRetryPolicy, {
  valid: [
    {
      name: 'createTool wrapped in declarePolicy',
      code: `import { createTool } from '@mastra/core/tools';
import { declarePolicy } from '@retrysafe/spec';
export const refund = declarePolicy(createTool({ id: 'refund-order', description: 'Refund an order', execute: async () => ({}) }), ${POLICY});`,
    },
    {
      name: 'a const tool passed to declarePolicy',
      code: `import { createTool } from '@mastra/core/tools';
import { declarePolicy } from '@retrysafe/spec';
const getOrder = createTool({ id: 'get-order', description: 'Read an order', execute: async () => ({}) });
export const tools = { getOrder: declarePolicy(getOrder, { side_effects: 'none', idempotent: true, retry: 'safe' }) };`,
    },
    {
      name: 'a full policy in mcp._meta["io.github.retrysafe/policy"] (listed as the MCP tool’s _meta when served over MCP)',
      code: `import { createTool } from '@mastra/core/tools';
export const refund = createTool({
  id: 'refund-order',
  description: 'Refund an order',
  mcp: { _meta: { 'io.github.retrysafe/policy': ${POLICY} } },
  execute: async () => ({}),
});`,
    },
    {
      name: 'a full policy in the bare mcp._meta.retrysafe of earlier releases (still read)',
      code: `import { createTool } from '@mastra/core/tools';
export const refund = createTool({
  id: 'refund-order',
  description: 'Refund an order',
  mcp: { _meta: { retrysafe: ${POLICY} } },
  execute: async () => ({}),
});`,
    },
    {
      name: 'a config built elsewhere is not judged',
      code: `import { createTool } from '@mastra/core/tools';
import { refundConfig } from './configs';
export const refund = createTool(refundConfig);`,
    },
    {
      name: 'a createTool of another package is not a Mastra tool',
      code: `import { createTool } from 'some-cli-kit';
export const build = createTool({ id: 'build', description: 'Build', execute: async () => ({}) });`,
    },
  ],
  invalid: [
    {
      name: 'createTool from @mastra/core/tools with no policy, named by its id',
      code: `import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
export const refund = createTool({
  id: 'refund-order',
  description: 'Refund an order',
  inputSchema: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => ({ refunded: orderId }),
});`,
      errors: [{ messageId: 'missingPolicy', line: 3, column: 23, endLine: 3, endColumn: 33, data: { tool: 'Tool `refund-order`', remedy: REMEDY } }],
    },
    {
      name: 'createTool from @mastra/core (before 1.0)',
      code: `import { createTool } from '@mastra/core';
export const send = createTool({ id: 'send-email', description: 'Send an email', execute: async () => ({}) });`,
      errors: [{ messageId: 'missingPolicy', line: 2, column: 21, data: { tool: 'Tool `send-email`', remedy: REMEDY } }],
    },
    {
      name: 'new Tool({...})',
      code: `import { Tool } from '@mastra/core/tools';
export const charge = new Tool({ id: 'charge-card', description: 'Charge a card', execute: async () => ({}) });`,
      errors: [{ messageId: 'missingPolicy', line: 2, column: 23, endLine: 2, endColumn: 31, data: { tool: 'Tool `charge-card`', remedy: REMEDY } }],
    },
    {
      name: 'a look-alike key in mcp._meta declares nothing: the remedy names the reverse-DNS key',
      code: `import { createTool } from '@mastra/core/tools';
export const refund = createTool({ id: 'refund-order', description: 'Refund', mcp: { _meta: { 'io.github.retrysafe/policies': ${POLICY} } }, execute: async () => ({}) });`,
      errors: [{ messageId: 'missingPolicy', line: 2, column: 23, data: { tool: 'Tool `refund-order`', remedy: REMEDY } }],
    },
    {
      name: 'a policy in mcp._meta.retrysafe without retry',
      code: `import { createTool } from '@mastra/core/tools';
export const refund = createTool({
  id: 'refund-order',
  description: 'Refund an order',
  mcp: { _meta: { retrysafe: { side_effects: 'money_out', idempotent: 'with_key' } } },
  execute: async () => ({}),
});`,
      errors: [{ messageId: 'incompletePolicy', line: 5, column: 30, data: { tool: 'Tool `refund-order`', missing: '`retry`' } }],
    },
    {
      name: 'declarePolicy with no policy argument',
      code: `import { createTool } from '@mastra/core/tools';
import { declarePolicy } from '@retrysafe/spec';
export const refund = declarePolicy(createTool({ id: 'refund-order', description: 'Refund', execute: async () => ({}) }));`,
      errors: [{ messageId: 'incompletePolicy', line: 3, column: 23, data: { tool: 'Tool `refund-order`', missing: 'a policy argument' } }],
    },
  ],
});

typedTester.run('require-retry-policy-type-checked: Mastra', requireRetryPolicyTypeChecked, {
  valid: [
    {
      name: 'Mastra’s createTool imported under its own name is require-retry-policy’s',
      code: `import { createTool } from '@mastra/core/tools';\nexport const refund = createTool({ id: 'refund', description: 'Refund', execute: async () => ({}) });`,
    },
    {
      name: 'the renamed factory, declared',
      code: `import { declarePolicy } from '@retrysafe/spec';
import { defineMastraTool } from './tools.js';
export const refund = declarePolicy(defineMastraTool({ id: 'refund', description: 'Refund', execute: async () => ({}) }), ${POLICY});`,
    },
  ],
  invalid: [
    {
      name: 'createTool re-exported under another name by a local module (tools.ts)',
      code: `import { defineMastraTool } from './tools.js';
export const refund = defineMastraTool({ id: 'refund', description: 'Refund', execute: async () => ({}) });`,
      errors: [{ messageId: 'missingPolicy', line: 2, column: 23, endLine: 2, endColumn: 39, data: { tool: 'Tool `refund`', remedy: REMEDY } }],
    },
  ],
});

ruleTester.run('no-random-key: on a Mastra tool’s execute', noRandomKey, {
  valid: [
    {
      name: 'a key from the input and the action',
      code: `import { createTool } from '@mastra/core/tools';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = createTool({
  id: 'refund-order',
  description: 'Refund an order',
  execute: async ({ orderId }) => stripe.refunds.create({ payment_intent: orderId }, { idempotencyKey: \`\${orderId}:refund\` }),
});`,
    },
  ],
  invalid: [
    {
      name: 'the tool call id Mastra hands execute is new on every call',
      code: `import { createTool } from '@mastra/core/tools';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = createTool({
  id: 'refund-order',
  description: 'Refund an order',
  execute: async ({ orderId }, context) =>
    stripe.refunds.create({ payment_intent: orderId }, { idempotencyKey: context.agent.toolCallId }),
});`,
      errors: [
        {
          messageId: 'perAttemptKey',
          line: 8,
          column: 74,
          data: { source: '`context.agent.toolCallId`', line: 8, advice: MASTRA_ADVICE },
          // One id: `${orderId}:refund-order` would be one key for every refund of the order, the tool's
          // id at its end only keeps it apart from other tools. Not offered (new-user trial); the
          // advice says where Mastra's run id comes from.
          suggestions: [],
        },
      ],
    },
    {
      name: 'a random key beside one id: no suggestion, though the tool id could end it',
      code: `import { createTool } from '@mastra/core/tools';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = createTool({
  id: 'refund-order',
  description: 'Refund an order',
  execute: async ({ orderId }) => stripe.refunds.create({ payment_intent: orderId }, { idempotencyKey: randomUUID() }),
});`,
      errors: [{ messageId: 'randomKey', line: 8, data: { source: '`randomUUID()`', line: 8, advice: MASTRA_ADVICE }, suggestions: [] }],
    },
    {
      name: 'a random key beside a run id and an order id: the suggestion ends with the tool id as the action',
      code: `import { createTool } from '@mastra/core/tools';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = createTool({
  id: 'refund-order',
  description: 'Refund an order',
  execute: async ({ runId, orderId }) => stripe.refunds.create({ payment_intent: orderId }, { idempotencyKey: randomUUID() }),
});`,
      errors: [
        {
          messageId: 'randomKey',
          line: 8,
          data: { source: '`randomUUID()`', line: 8, advice: MASTRA_ADVICE },
          suggestions: [
            {
              messageId: 'suggestDurableParameters',
              data: { parameters: '`runId`, `orderId`', action: ', ending with the action `refund-order`' },
              output: `import { createTool } from '@mastra/core/tools';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = createTool({
  id: 'refund-order',
  description: 'Refund an order',
  execute: async ({ runId, orderId }) => stripe.refunds.create({ payment_intent: orderId }, { idempotencyKey: \`\${runId}:\${orderId}:refund-order\` }),
});`,
            },
          ],
        },
      ],
    },
    {
      name: 'a random key in execute',
      code: `import { createTool } from '@mastra/core/tools';
import { randomUUID } from 'node:crypto';
export const send = createTool({
  id: 'send-email',
  description: 'Send an email',
  execute: async ({ to }) => fetch('https://mail.example.com/send', { method: 'POST', headers: { 'Idempotency-Key': randomUUID() }, body: to }),
});`,
      errors: [{ messageId: 'randomKey', line: 6, column: 117, data: { source: '`randomUUID()`', line: 6, advice: MASTRA_ADVICE } }],
    },
  ],
});

ruleTester.run('require-key-passthrough: on a Mastra tool’s execute', requireKeyPassthrough, {
  valid: [
    {
      name: 'a with_key tool passes the key it takes in its input',
      code: `import { createTool } from '@mastra/core/tools';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = declarePolicy(createTool({
  id: 'refund-order',
  description: 'Refund an order',
  execute: async ({ orderId, idempotencyKey }) => stripe.refunds.create({ payment_intent: orderId }, { idempotencyKey }),
}), ${POLICY});`,
    },
  ],
  invalid: [
    {
      name: 'a with_key tool whose execute does not pass its key to Stripe',
      code: `import { createTool } from '@mastra/core/tools';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = declarePolicy(createTool({
  id: 'refund-order',
  description: 'Refund an order',
  execute: async ({ orderId, idempotencyKey }) => stripe.refunds.create({ payment_intent: orderId }),
}), ${POLICY});`,
      errors: [
        {
          messageId: 'missingKey',
          line: 8,
          column: 51,
          suggestions: [
            {
              messageId: 'passKey',
              data: { key: '`idempotencyKey`', where: 'the `idempotencyKey` request option' },
              output: `import { createTool } from '@mastra/core/tools';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = declarePolicy(createTool({
  id: 'refund-order',
  description: 'Refund an order',
  execute: async ({ orderId, idempotencyKey }) => stripe.refunds.create({ payment_intent: orderId }, { idempotencyKey }),
}), ${POLICY});`,
            },
          ],
        },
      ],
    },
  ],
});
