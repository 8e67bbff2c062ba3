import { RuleTester } from '@typescript-eslint/rule-tester';

import rule from '../../src/rules/no-unsafe-retry-policy.js';

// Sources are flush left so that the line and column in each case read straight off the code.
// Cases B08, B10, B11, B12, B13 and B15 are the files in /work/shared/cases, verbatim.
const ruleTester = new RuleTester();

const B08 = `// B08 (a failure pattern reported publicly; rewritten from scratch)
// Pattern: the tool call id looks like a natural dedup key, but the model issues a new one on every
// turn, so a re-planned or retried call arrives with a fresh id and the refund runs again.
// (Reported against the Python SDK; reproduced here with the JS SDK's equivalent field.)
// VERDICT: R1 flags the idempotencyKey line (per-call id from details.toolCall.callId).
//          R2 flags tool({...}): a refund tool with no side-effect / idempotency / retry declaration.
import { tool } from '@openai/agents';
import { z } from 'zod';

declare function refundOrder(orderId: string, cents: number, opts: { idempotencyKey: string }): Promise<string>;

export const refundTool = tool({ // EXPECT: R2
  name: 'refund_order',
  description: 'Refund part of an order',
  parameters: z.object({ orderId: z.string(), cents: z.number().int() }),
  async execute({ orderId, cents }, _ctx, details) {
    const callId = details!.toolCall!.callId;
    return refundOrder(orderId, cents, { idempotencyKey: callId }); // EXPECT: R1
  },
});
`;

const B10 = `// B10 (a failure pattern reported publicly; rewritten from scratch)
// Pattern: a retried send_message tool call delivered two emails. The proposed fix adds an optional
// idempotencyKey input and generates one when the caller leaves it out. A key generated inside the
// handler is new on every agent-level re-call, so the case the issue reports is still not covered.
// VERDICT: R1 flags the header line (source: \`?? randomUUID()\` fallback inside the tool handler).
//          R2 passes: annotations are declared.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

declare const server: McpServer;
declare function sendMessage(inbox: string, to: string[], text: string, headers: Record<string, string>): Promise<{ messageId: string }>;

server.registerTool('send_message', {
  description: 'Send an email from an inbox',
  inputSchema: { inboxId: z.string(), to: z.array(z.string()), text: z.string(), idempotencyKey: z.string().optional() },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
}, async ({ inboxId, to, text, idempotencyKey }) => {
  const key = idempotencyKey ?? randomUUID();
  const res = await sendMessage(inboxId, to, text, { 'Idempotency-Key': key }); // EXPECT: R1
  return { content: [{ type: 'text', text: res.messageId }] };
});
`;

const B11 = `// B11 (a failure pattern reported publicly; rewritten from scratch)
// Pattern: send_email takes no input that could mark two attempts as the same send, and the mailer
// is called without a Message-ID, so it generates a random one per attempt. A client timeout plus a
// retry delivers two identical emails, and the audit log, written after the send, records both.
// VERDICT: R2 flags registerTool(...): a tool that sends mail declares no annotations / side effects /
//          retry policy. (R1 has nothing to flag: no key is built at all.)
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import nodemailer from 'nodemailer';
import { z } from 'zod';

const server = new McpServer({ name: 'email', version: '1.0.0' });
const smtp = nodemailer.createTransport({ host: 'smtp.example.test', port: 587 });

server.registerTool( // EXPECT: R2
  'send_email',
  { description: 'Send an email', inputSchema: { to: z.string(), subject: z.string(), body: z.string() } },
  async ({ to, subject, body }) => {
    const info = await smtp.sendMail({ from: 'agent@example.test', to, subject, text: body });
    return { content: [{ type: 'text', text: \`sent \${info.messageId}\` }] };
  },
);
`;

const B12 = `// B12 (a failure pattern reported publicly; rewritten from scratch)
// Pattern: MCP annotations were applied in bulk and a create tool was marked idempotentHint: true.
// The reviewer pointed out that the server assigns the id, so each call creates another automation,
// unlike update_automation, which takes an id. A client that trusts the hint and retries makes duplicates.
// VERDICT: R2 flags the create_automation annotations (claims idempotent, but the tool creates a
//          server-assigned resource and takes no key/id input). Heuristic: warn level.
//          update_automation (keyed by automationId) must NOT be flagged.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

declare const server: McpServer;
declare function createAutomation(config: unknown): Promise<{ id: string }>;
declare function replaceAutomation(id: string, config: unknown): Promise<void>;

server.registerTool('create_automation', {
  description: 'Create an automation; the id is assigned by the server',
  inputSchema: { config: z.record(z.unknown()) },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true }, // EXPECT: R2
}, async ({ config }) => ({ content: [{ type: 'text', text: (await createAutomation(config)).id }] }));

server.registerTool('update_automation', {
  description: 'Replace an automation by id',
  inputSchema: { automationId: z.string(), config: z.record(z.unknown()) },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true }, // EXPECT: none
}, async ({ automationId, config }) => { await replaceAutomation(automationId, config); return { content: [] }; });
`;

const B13 = `// B13 (a failure pattern reported publicly; rewritten from scratch)
// Pattern: a tool declared itself non-idempotent (send_email.idempotent = False), the agent even read
// that flag, but both retry loops ignored it; one failed send produced three delivered emails.
// Expressed here with the project's own defineTool (field names are placeholders for the real schema).
// VERDICT: R2 flags the retry line: a tool declared non-idempotent with an external side effect also
//          declares automatic retries and has no key input, so the declaration contradicts itself.
//          Runtime/DSL: the runner must refuse to auto-retry this tool.
import { defineTool } from '@idem/dsl'; // placeholder: express this with @retrysafe/spec's defineTool

declare function smtpSend(to: string, subject: string, body: string): Promise<void>;

export const sendEmail = defineTool({
  name: 'send_email',
  sideEffects: 'external',
  idempotent: false,
  retry: { maxAttempts: 3, backoffMs: 500 }, // EXPECT: R2
  async run({ to, subject, body }: { to: string; subject: string; body: string }) {
    await smtpSend(to, subject, body);
    return { sent: true };
  },
});
`;

// B13 with @retrysafe/spec's real fields, as the cases README asks; the retry line stays line 16.
const B13_SPEC = B13.replace("import { defineTool } from '@idem/dsl'; // placeholder: express this with @retrysafe/spec's defineTool", "import { defineTool } from '@retrysafe/spec';")
  .replace("sideEffects: 'external'", "sideEffects: 'message_out'")
  .replace('retry: { maxAttempts: 3, backoffMs: 500 }, // EXPECT: R2', "retry: 'safe', // EXPECT: R2")
  .replace('async run(', 'async execute(');

const B15 = `// B15 (a failure pattern reported publicly; rewritten from scratch)
// Pattern: Trigger.dev idempotency keys dedupe trigger() calls only. A Stripe call inside run()
// executes again on every retry unless Stripe gets its own key. The docs now key the provider call
// on ctx.run.id, which stays the same across every attempt of a run.
// VERDICT: must NOT flag. The key is derived from the durable run id. Per-attempt variants (randomUUID(),
//          Date.now(), ctx.attempt.number) in the same place would be R1.
import { task } from '@trigger.dev/sdk';
import Stripe from 'stripe';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');

export const refundOrder = task({
  id: 'refund-order',
  retry: { maxAttempts: 3 },
  run: async (payload: { paymentIntentId: string; amount: number }, { ctx }) => {
    const refund = await stripe.refunds.create(
      { payment_intent: payload.paymentIntentId, amount: payload.amount },
      { idempotencyKey: \`refund-\${ctx.run.id}\` }, // EXPECT: none
    );
    return { refundId: refund.id };
  },
});
`;

const withKeyTool = (execute: string): string => `import { defineTool, key } from '@retrysafe/spec';
export const issueRefund = defineTool({
  name: 'issue_refund',
  sideEffects: 'money_out',
  idempotent: 'with_key',
  retry: 'safe_with_same_key',
  key: ({ run, input }) => key\`\${run.id}:\${input.orderId}\`,
  ${execute}
});`;

ruleTester.run('no-unsafe-retry-policy', rule, {
  valid: [
    // --- cases from real failures ---
    { name: 'B08.ts: a missing policy is require-retry-policy’s business, not a contradiction', code: B08 },
    { name: 'B10.ts: idempotentHint: false and an idempotencyKey input', code: B10 },
    { name: 'B11.ts: no annotations is require-retry-policy’s business, not a contradiction', code: B11 },
    { name: 'B12.ts: a misleading idempotentHint is no-misleading-idempotent-hint’s business, not a contradiction', code: B12 },
    { name: 'B15.ts: trigger.dev task({ retry }) declares no idempotency', code: B15 },

    // --- consistent retry declarations ---
    {
      name: 'defineTool: not repeatable and never retried',
      code: `import { defineTool } from '@retrysafe/spec';
export const t = defineTool({ name: 'send_email', sideEffects: 'message_out', idempotent: false, retry: 'never', maxAttempts: 1, execute: async () => 1 });`,
    },
    {
      name: 'defineTool: naturally idempotent and safely retried',
      code: `import { defineTool } from '@retrysafe/spec';
export const t = defineTool({ name: 'get_order', sideEffects: 'none', idempotent: true, retry: 'safe', maxAttempts: 5, execute: async () => 1 });`,
    },
    {
      name: 'placeholder DSL: not repeatable, retry capped at one attempt',
      code: `import { defineTool } from '@idem/dsl';
export const t = defineTool({ name: 'send_email', idempotent: false, retry: { maxAttempts: 1 }, run: async () => 1 });`,
    },
    {
      name: 'placeholder DSL: retries: 0 and retry: false',
      code: `import { defineTool } from '@idem/dsl';
export const a = defineTool({ name: 'a', idempotent: false, retry: { retries: 0 } });
export const b = defineTool({ name: 'b', idempotent: false, retry: false });`,
    },
    {
      name: 'a retry count that is not static is not judged',
      code: `import { defineTool } from '@retrysafe/spec';
import { RETRY } from './config';
export const t = defineTool({ name: 'x', sideEffects: 'message_out', idempotent: false, retry: RETRY, execute: async () => 1 });`,
    },
    {
      name: 'declarePolicy: not repeatable and never retried',
      code: `import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
export const t = declarePolicy(tool({ description: 'Send', inputSchema: s, execute }), { side_effects: 'message_out', idempotent: false, retry: 'never', max_attempts: 1 });`,
    },
    {
      name: 'a retry option on something that is not a tool',
      code: `import got from 'got';
await got.post(url, { retry: { limit: 3 }, idempotent: false });`,
    },

    // --- MCP annotations ---
    {
      name: 'MCP: a read-only tool may be idempotent and not destructive',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
server.tool('list_orders', 'List orders', { readOnlyHint: true, destructiveHint: false, idempotentHint: true }, async () => ({ content: [] }));`,
    },
    {
      name: 'MCP: registerTool in a file with no MCP import is not a tool',
      code: `declare const registry: { registerTool(n: string, c: object, f: () => void): void };
registry.registerTool('create_user', { annotations: { idempotentHint: true, readOnlyHint: true, destructiveHint: true } }, () => {});`,
    },

    // --- with_key handlers that use their key ---
    { name: 'with_key: execute destructures key and passes it on', code: withKeyTool('execute: async (input, { key }) => payments.refund(input, { idempotencyKey: key }),') },
    { name: 'with_key: execute reads ctx.key', code: withKeyTool('async execute(input, ctx) { return payments.refund(input, { idempotencyKey: ctx.key }); },') },
    { name: 'with_key: execute hands the whole context on', code: withKeyTool('execute: (input, ctx) => refund(input, ctx),') },
    { name: 'with_key: execute destructures the context in its body', code: withKeyTool('execute: async (input, ctx) => { const { key: idem } = ctx; return refund(input, idem); },') },
    {
      name: 'with_key: execute is a function declared elsewhere in the file that reads key',
      code: `import { defineTool } from '@retrysafe/spec';
async function refund(input: unknown, { key }: { key: string }) { return pay(input, key); }
export const t = defineTool({ name: 'issue_refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', execute: refund });`,
    },
    {
      name: 'with_key: an execute imported from elsewhere is not judged',
      code: `import { defineTool } from '@retrysafe/spec';
import { refund } from './handlers';
export const t = defineTool({ name: 'issue_refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', execute: refund });`,
    },
    {
      name: '.js: a consistent defineTool in plain JavaScript',
      filename: 'tools.js',
      code: `const { defineTool } = require('@retrysafe/spec');
module.exports = defineTool({ name: 'get_order', sideEffects: 'none', idempotent: true, retry: 'safe', execute: async (input) => input });`,
    },
  ],
  invalid: [
    // --- cases from real failures ---
    {
      name: 'B13.ts: placeholder DSL tool, not idempotent, with automatic retries (R2 on the retry line)',
      code: B13,
      errors: [{ messageId: 'retriesNotRepeatable', line: 16, column: 3, endLine: 16, endColumn: 44, data: { tool: 'Tool `send_email`', retry: 'retry: { maxAttempts: 3, backoffMs: 500 }' } }],
    },
    {
      name: 'B13.ts (as @retrysafe/spec defineTool): the same contradiction',
      code: B13_SPEC,
      errors: [{ messageId: 'retriesNotRepeatable', line: 16, column: 3, data: { tool: 'Tool `send_email`', retry: "retry: 'safe'" } }],
    },

    // --- retries declared on a tool that is not safely repeatable ---
    {
      name: 'defineTool: retry never, but more than one attempt',
      code: `import { defineTool } from '@retrysafe/spec';
export const t = defineTool({
  name: 'append_note',
  sideEffects: 'internal_write',
  idempotent: false,
  retry: 'never',
  maxAttempts: 3,
  execute: async () => 1,
});`,
      errors: [{ messageId: 'retriesNotRepeatable', line: 7, column: 3, data: { tool: 'Tool `append_note`', retry: 'maxAttempts: 3' } }],
    },
    {
      name: 'placeholder DSL: retry: true, a retry count, and a retry object with defaults',
      code: `import * as dsl from '@idem/dsl';
const RETRIES = 2;
export const a = dsl.defineTool({ name: 'a', idempotent: false, retry: true });
export const b = dsl.defineTool({ name: 'b', idempotent: false, retry: { retries: RETRIES } });
export const c = dsl.defineTool({ name: 'c', idempotent: false, retry: { backoffMs: 100 } });`,
      errors: [
        { messageId: 'retriesNotRepeatable', line: 3, column: 65 },
        { messageId: 'retriesNotRepeatable', line: 4, column: 65 },
        { messageId: 'retriesNotRepeatable', line: 5, column: 65 },
      ],
    },
    {
      name: 'declarePolicy: snake_case policy, not idempotent, retried safely',
      code: `import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
export const sendSms = declarePolicy(tool({ description: 'Send an SMS', inputSchema: s, execute }), {
  side_effects: 'message_out',
  idempotent: false,
  retry: 'safe',
});`,
      errors: [{ messageId: 'retriesNotRepeatable', line: 6, column: 3, data: { tool: 'Tool `sendSms`', retry: "retry: 'safe'" } }],
    },
    {
      name: 'declarePolicy on a tool imported from elsewhere, policy held in a const',
      code: `import { declarePolicy } from '@retrysafe/spec';
import { chargeCard } from './tools';
const POLICY = { side_effects: 'money_out', idempotent: false, retry: 'never', max_attempts: 2 } as const;
declarePolicy(chargeCard, POLICY);`,
      errors: [{ messageId: 'retriesNotRepeatable', line: 3, column: 80, data: { tool: 'Tool `chargeCard`', retry: 'max_attempts: 2' } }],
    },
    {
      name: 'MCP _meta.retrysafe: not idempotent, retried',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
server.registerTool('charge_card', {
  _meta: { retrysafe: { side_effects: 'money_out', idempotent: false, retry: 'safe' } },
}, async () => ({ content: [] }));`,
      errors: [{ messageId: 'retriesNotRepeatable', line: 4, column: 71 }],
    },
    {
      name: 'LangChain metadata.retrysafe: not idempotent, retried',
      code: `import { DynamicStructuredTool } from '@langchain/core/tools';
export const t = new DynamicStructuredTool({
  name: 'post_tweet', description: 'Post', schema: s, func,
  metadata: { retrysafe: { sideEffects: 'message_out', idempotent: false, retry: { maxAttempts: 4 } } },
});`,
      errors: [{ messageId: 'retriesNotRepeatable', line: 4, column: 75 }],
    },
    {
      name: 'toolFactories: a custom factory with defineTool fields',
      options: [{ toolFactories: [{ name: 'createTool', from: 'my-lib' }] }],
      code: `import { createTool } from 'my-lib';
export const t = createTool({ name: 'x', idempotent: false, retry: 'safe' });`,
      errors: [{ messageId: 'retriesNotRepeatable', line: 2, column: 61 }],
    },

    // --- MCP annotations that contradict themselves ---
    {
      name: 'MCP: readOnlyHint and destructiveHint both true',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
server.registerTool('purge_cache', {
  annotations: {
    readOnlyHint: true,
    destructiveHint: true,
  },
}, async () => ({ content: [] }));`,
      errors: [{ messageId: 'readOnlyAndDestructive', line: 6, column: 5, data: { tool: 'Tool `purge_cache`' } }],
    },
    {
      name: 'MCP server.tool(name, schema.shape, annotations, cb): a schema that is not visible is not judged, the annotations are',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Schema } from './schemas';
declare const server: McpServer;
server.tool('create_note', Schema.shape, { readOnlyHint: true, destructiveHint: true }, async () => ({ content: [] }));`,
      errors: [{ messageId: 'readOnlyAndDestructive', line: 4, column: 64 }],
    },

    // --- with_key declarations whose handler never uses the key ---
    {
      name: 'with_key: execute takes no context',
      code: withKeyTool('execute: async (input) => payments.refund(input),'),
      errors: [{ messageId: 'withKeyUnused', line: 8, column: 3, endColumn: 10, data: { tool: 'Tool `issue_refund`', handler: 'execute' } }],
    },
    {
      name: 'with_key: execute destructures only run',
      code: withKeyTool('async execute(input, { run }) { return payments.refund(input, { idempotencyKey: run.id }); },'),
      errors: [{ messageId: 'withKeyUnused', line: 8, column: 9 }],
    },
    {
      name: 'with_key: execute reads other context fields only',
      code: withKeyTool('execute: async (input, ctx) => payments.refund(input, { idempotencyKey: ctx.run.id }),'),
      errors: [{ messageId: 'withKeyUnused', line: 8, column: 3 }],
    },
    {
      name: 'with_key: execute destructures key and ignores it',
      code: withKeyTool('execute: async (input, { key }) => payments.refund(input),'),
      errors: [{ messageId: 'withKeyUnused', line: 8, column: 3 }],
    },
    {
      name: 'with_key: execute is a function declared elsewhere in the file that ignores key',
      code: `import { defineTool } from '@retrysafe/spec';
const refund = async (input: unknown) => pay(input);
export const t = defineTool({ name: 'issue_refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', execute: refund });`,
      errors: [{ messageId: 'withKeyUnused', line: 3, column: 132 }],
    },
    {
      name: '.js: with_key in plain JavaScript, CommonJS',
      filename: 'tools.js',
      code: `const spec = require('@retrysafe/spec');
module.exports = spec.defineTool({ name: 'send_invoice', sideEffects: 'message_out', idempotent: 'with_key', retry: 'safe_with_same_key', execute: async (input) => mail(input) });`,
      errors: [{ messageId: 'withKeyUnused', line: 2, column: 139 }],
    },
  ],
});
