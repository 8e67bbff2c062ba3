import { RuleTester } from '@typescript-eslint/rule-tester';

import rule from '../../src/rules/no-unsafe-retry-policy.js';
import { readCase } from '../support/cases.js';
import { POLICY_CONTRADICTIONS } from '../../src/tools/index.js';

/** The spec's message for a contradiction (POLICY_CONTRADICTIONS, checked against the spec in packages/spec/tests). */
const contradiction = (id: string): string => POLICY_CONTRADICTIONS.find((entry) => entry.id === id)?.message ?? id;
const contradicts = (tool: string, id: string, line: number, column: number) =>
  ({ messageId: 'policyContradiction', line, column, data: { tool, contradiction: contradiction(id) } }) as const;

// Sources are flush left so that the line and column in each case read straight off the code.
// Cases B08, B10, B11, B12, B13 and B15 are the files in /work/shared/cases, read from tests/cases.
const ruleTester = new RuleTester();
const B08 = readCase('B08.ts');
const B10 = readCase('B10.ts');
const B11 = readCase('B11.ts');
const B12 = readCase('B12.ts');
const B13 = readCase('B13.ts');

// B13 with @retrysafe/spec's real fields, as the cases README asks; the retry line stays line 16.
const B13_SPEC = B13.replace("import { defineTool } from '@idem/dsl'; // placeholder: express this with @retrysafe/spec's defineTool", "import { defineTool } from '@retrysafe/spec';")
  .replace("sideEffects: 'external'", "sideEffects: 'message_out'")
  .replace('retry: { maxAttempts: 3, backoffMs: 500 }, // EXPECT: R2', "retry: 'safe', // EXPECT: R2")
  .replace('async run(', 'async execute(');
const B15 = readCase('B15.ts');

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
    // --- a policy read through a const, judged as if written inline ---
    {
      name: 'const spread, overridden inline with retry: never',
      code: `import { defineTool } from '@retrysafe/spec';
const SEND = { sideEffects: 'message_out', idempotent: false, retry: 'safe' } as const;
export const t = defineTool({ name: 'send_email', ...SEND, retry: 'never', execute: async () => 1 });`,
    },
    {
      name: 'const spread, then a spread nobody can see that may set retry',
      code: `import { declarePolicy } from '@retrysafe/spec';
declare const tool: object; declare const overrides: object;
const SEND = { side_effects: 'message_out', idempotent: false, retry: 'safe' } as const;
export const t = declarePolicy(tool, { ...SEND, ...overrides });`,
    },
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
export const t = defineTool({ name: 'issue_refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', key: ({ run }) => run.id, execute: refund });`,
    },
    {
      name: 'with_key: an execute imported from elsewhere is not judged',
      code: `import { defineTool } from '@retrysafe/spec';
import { refund } from './handlers';
export const t = defineTool({ name: 'issue_refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', key: ({ run }) => run.id, execute: refund });`,
    },
    {
      name: '.js: a consistent defineTool in plain JavaScript',
      filename: 'tools.js',
      code: `const { defineTool } = require('@retrysafe/spec');
module.exports = defineTool({ name: 'get_order', sideEffects: 'none', idempotent: true, retry: 'safe', execute: async (input) => input });`,
    },
    {
      name: "contradiction look-alikes: the spec's accepted pairs, a policy a hidden spread completes, a declarePolicy with_key (its key is the caller's), values not static",
      code: `import { declarePolicy, defineTool, key } from '@retrysafe/spec';
import { SHARED } from './policies';
export const a = defineTool({ name: 'a', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', key: ({ run }) => key\`\${run.id}\`, execute });
export const b = defineTool({ name: 'b', sideEffects: 'none', idempotent: true, retry: 'safe', maxAttempts: 5, execute });
export const c = defineTool({ name: 'c', sideEffects: 'message_out', idempotent: false, retry: 'never', maxAttempts: 1, execute });
export const d = defineTool({ name: 'd', sideEffects: 'money_out', idempotent: 'with_key', retry: 'never', ...SHARED, execute });
export const e = declarePolicy(refund, { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' });
export const g = defineTool({ name: 'g', sideEffects: 'none', idempotent: true, retry: process.env.RETRY, maxAttempts: 0n ? 1 : 2, execute });`,
    },
  ],
  invalid: [
    {
      name: "contradictions the spec rejects: with_key retried 'safe', side effects 'none' not repeatable, idempotent: true with safe_with_same_key (defineTool, declarePolicy, LangChain metadata, MCP _meta)",
      code: `import { declarePolicy, defineTool, key } from '@retrysafe/spec';
import { tool } from '@langchain/core/tools';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
export const a = defineTool({ name: 'a', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe', key: ({ run }) => key\`\${run.id}\`, execute });
export const b = declarePolicy(lookup, { side_effects: 'none', idempotent: false, retry: 'never' });
export const c = tool(async () => 1, { name: 'c', metadata: { retrysafe: { side_effects: 'internal_write', idempotent: true, retry: 'safe_with_same_key' } } });
server.registerTool('d', { _meta: { 'io.github.retrysafe/policy': { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe' } } }, async () => ({ content: [] }));`,
      errors: [
        contradicts('Tool `a`', 'keyedRetrySafe', 5, 92),
        contradicts('Tool `lookup`', 'noSideEffectsNotRepeatable', 6, 64),
        contradicts('Tool `c`', 'sameKeyWithoutKey', 7, 126),
        contradicts('Tool `d`', 'keyedRetrySafe', 8, 120),
      ],
    },
    {
      name: "contradictions of a defineTool's key and attempts: with_key without a key, a key on idempotent: true / false, 'never' with 3 attempts, 0 attempts, through a const spread",
      code: `import { defineTool, key } from '@retrysafe/spec';
const KEYED = { sideEffects: 'money_out', idempotent: 'with_key' } as const;
export const a = defineTool({ name: 'a', ...KEYED, retry: 'safe_with_same_key', execute });
export const b = defineTool({ name: 'b', sideEffects: 'internal_write', idempotent: true, retry: 'safe', key: ({ run }) => key\`\${run.id}\`, execute });
export const c = defineTool({ name: 'c', sideEffects: 'none', idempotent: true, retry: 'never', maxAttempts: 3, execute });
export const d = defineTool({ name: 'd', sideEffects: 'none', idempotent: true, retry: 'safe', maxAttempts: 0, execute });`,
      errors: [
        contradicts('Tool `a`', 'keyRequired', 2, 43),
        contradicts('Tool `b`', 'keyOnNaturallyIdempotent', 4, 106),
        contradicts('Tool `c`', 'neverRetriedMaxAttempts', 5, 97),
        contradicts('Tool `d`', 'maxAttemptsNotPositiveInteger', 6, 96),
      ],
    },
    {
      name: ".js: plain JavaScript defineTool with_key retried 'safe' (the trial's scripts/plain.mjs)",
      filename: 'plain.mjs',
      code: `import { defineTool } from '@retrysafe/spec';
export const pay = defineTool({ name: 'pay', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe', maxAttempts: 2, key: ({ run }) => run.id, execute: async (input, { key }) => charge(input, key) });`,
      errors: [contradicts('Tool `pay`', 'keyedRetrySafe', 2, 96)],
    },
    // --- a policy read through a const (trial: app/src/probe/spread.ts), judged as if written inline ---
    {
      name: 'declarePolicy: the policy spreads a const that is not repeatable but retries; two tools, one report',
      code: `import { declarePolicy } from '@retrysafe/spec';
declare const a: object; declare const b: object;
const SEND = { side_effects: 'message_out', idempotent: false, retry: 'safe' } as const;
export const ta = declarePolicy(a, { ...SEND });
export const tb = declarePolicy(b, { ...SEND, max_attempts: 2 });`,
      errors: [{ messageId: 'retriesNotRepeatable', line: 3, column: 64, data: { tool: 'Tool `a`', retry: "`retry: 'safe'`" } }],
    },
    {
      name: 'defineTool: fields spread from nested consts with satisfies',
      code: `import { defineTool } from '@retrysafe/spec';
const BASE = { idempotent: false };
const SEND = { ...BASE, sideEffects: 'message_out', retry: 'safe' } satisfies object;
export const t = defineTool({ name: 'send_email', ...SEND, execute: async () => 1 });`,
      errors: [{ messageId: 'retriesNotRepeatable', line: 3, column: 53, data: { tool: 'Tool `send_email`', retry: "`retry: 'safe'`" } }],
    },
    {
      name: 'MCP: readOnlyHint and destructiveHint both true through a const spread',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
const HINTS = { readOnlyHint: true } as const;
server.registerTool('wipe', { annotations: { ...HINTS, destructiveHint: true } }, async () => ({ content: [] }));`,
      errors: [{ messageId: 'readOnlyAndDestructive', line: 4, column: 56 }],
    },
    // --- cases from real failures ---
    {
      name: 'B13.ts: placeholder DSL tool, not idempotent, with automatic retries (R2 on the retry line)',
      code: B13,
      errors: [{ messageId: 'retriesNotRepeatable', line: 16, column: 3, endLine: 16, endColumn: 44, data: { tool: 'Tool `send_email`', retry: '`retry: { maxAttempts: 3, backoffMs: 500 }`' } }],
    },
    {
      name: 'B13.ts (as @retrysafe/spec defineTool): the same contradiction',
      code: B13_SPEC,
      errors: [{ messageId: 'retriesNotRepeatable', line: 16, column: 3, data: { tool: 'Tool `send_email`', retry: "`retry: 'safe'`" } }],
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
      errors: [{ messageId: 'retriesNotRepeatable', line: 7, column: 3, data: { tool: 'Tool `append_note`', retry: '`maxAttempts: 3`' } }],
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
      errors: [{ messageId: 'retriesNotRepeatable', line: 6, column: 3, data: { tool: 'Tool `sendSms`', retry: "`retry: 'safe'`" } }],
    },
    {
      name: 'declarePolicy on a tool imported from elsewhere, policy held in a const',
      code: `import { declarePolicy } from '@retrysafe/spec';
import { chargeCard } from './tools';
const POLICY = { side_effects: 'money_out', idempotent: false, retry: 'never', max_attempts: 2 } as const;
declarePolicy(chargeCard, POLICY);`,
      errors: [{ messageId: 'retriesNotRepeatable', line: 3, column: 80, data: { tool: 'Tool `chargeCard`', retry: '`max_attempts: 2`' } }],
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
      name: 'LangChain tool class: a metadata.retrysafe field, not idempotent, retried',
      code: `import { StructuredTool } from '@langchain/core/tools';
export class PostTweet extends StructuredTool {
  name = 'post_tweet';
  metadata = { retrysafe: { side_effects: 'message_out', idempotent: false, retry: 'safe' } };
}`,
      errors: [{ messageId: 'retriesNotRepeatable', line: 4, column: 77, data: { tool: 'Tool `post_tweet`', retry: "`retry: 'safe'`" } }],
    },
    {
      name: 'FastMCP: _meta.retrysafe, not idempotent, retried',
      code: `import { FastMCP } from 'fastmcp';
const server = new FastMCP({ name: 'pay', version: '1.0.0' });
server.addTool({ name: 'charge_card', _meta: { retrysafe: { side_effects: 'money_out', idempotent: false, retry: 'safe' } }, execute: charge });`,
      errors: [{ messageId: 'retriesNotRepeatable', line: 3, column: 107, data: { tool: 'Tool `charge_card`', retry: "`retry: 'safe'`" } }],
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
      name: 'FastMCP: readOnlyHint and destructiveHint both true',
      code: `import { FastMCP } from 'fastmcp';
const server = new FastMCP({ name: 'cache', version: '1.0.0' });
server.addTool({ name: 'purge_cache', annotations: { readOnlyHint: true, destructiveHint: true }, execute: purge });`,
      errors: [{ messageId: 'readOnlyAndDestructive', line: 3, column: 74, data: { tool: 'Tool `purge_cache`' } }],
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
      errors: [{ messageId: 'withKeyUnused', line: 8, column: 3, endColumn: 10, data: { tool: 'Tool `issue_refund`', handler: '`execute`' } }],
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
export const t = defineTool({ name: 'issue_refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', key: ({ run }) => run.id, execute: refund });`,
      errors: [{ messageId: 'withKeyUnused', line: 3, column: 158 }],
    },
    {
      name: '.js: with_key in plain JavaScript, CommonJS',
      filename: 'tools.js',
      code: `const spec = require('@retrysafe/spec');
module.exports = spec.defineTool({ name: 'send_invoice', sideEffects: 'message_out', idempotent: 'with_key', retry: 'safe_with_same_key', key: ({ run }) => run.id, execute: async (input) => mail(input) });`,
      errors: [{ messageId: 'withKeyUnused', line: 2, column: 165 }],
    },
  ],
});


// Trial 3 (app/src/reconcile.ts): a with_key tool for a provider that takes no key declares a
// `reconcile` hook (defineTool's TSDoc pattern); the runner asks it before a lost attempt runs again,
// so an execute that never reads `key` is not reported. `idempotent: false` would make the hook a
// TypeError, so the message offers the hook first.
const RECONCILE = 'reconcile: async ({ to }, { since }) => ((await findSent(to, since)) ? { status: \'done\', result: 1 } : { status: \'not_done\' }),';
ruleTester.run('no-unsafe-retry-policy: a reconcile hook answers the crash window', rule, {
  valid: [
    { name: 'execute never reads key, reconcile looks the effect up (trial R1)', code: withKeyTool(`execute: async ({ to, orderId }) => smtpSend(to, orderId),\n  ${RECONCILE}`) },
    { name: 'the hook is a function of the file', code: `async function findReceipt(input: { to: string }) { return { status: 'not_done' as const }; }\n${withKeyTool('execute: async ({ to, orderId }) => smtpSend(to, orderId),\n  reconcile: findReceipt,')}` },
    { name: 'the hook comes from a spread const', code: `const HOOKS = { ${RECONCILE} };\n${withKeyTool('execute: async ({ to, orderId }) => smtpSend(to, orderId),\n  ...HOOKS,')}` },
    { name: 'a spread the analysis cannot see may bring the hook', code: `declare const hooks: object;\n${withKeyTool('execute: async ({ to, orderId }) => smtpSend(to, orderId),\n  ...hooks,')}` },
  ],
  invalid: [
    {
      name: 'reconcile: undefined is no hook',
      code: withKeyTool('execute: async ({ to, orderId }) => smtpSend(to, orderId),\n  reconcile: undefined,'),
      errors: [{ messageId: 'withKeyUnused', line: 8, column: 3 }],
    },
    {
      name: 'a reconcile nested in another option is not the hook',
      code: withKeyTool(`execute: async ({ to, orderId }) => smtpSend(to, orderId),\n  options: { ${RECONCILE} },`),
      errors: [{ messageId: 'withKeyUnused', line: 8, column: 3 }],
    },
    {
      name: 'a spread const without a hook',
      code: `const EXTRA = { description: 'send a receipt' };\n${withKeyTool('execute: async ({ to, orderId }) => smtpSend(to, orderId),\n  ...EXTRA,')}`,
      errors: [{ messageId: 'withKeyUnused', line: 9, column: 3 }],
    },
  ],
});

// New-user trial: `sideEffects: 'moneyout'` and `retry: 'always'` (in JavaScript, or past `as any`)
// were reported by no rule and read by the audit as declared. The values are the spec's (ACCEPTED).
const SIDE_EFFECT_VALUES = "`'none'`, `'internal_write'`, `'external_write'`, `'money_out'` or `'message_out'`";
const RETRY_VALUES = "`'safe'`, `'safe_with_same_key'` or `'never'`";
const unknownValue = (tool: string, declared: string, field: string, known: string, nearMiss: string, line: number, column: number) =>
  ({ messageId: 'unknownPolicyValue', line, column, data: { tool, declared, field, known, nearMiss } }) as const;

ruleTester.run('no-unsafe-retry-policy: a value the spec does not know', rule, {
  valid: [
    {
      name: "a home-grown defineTool DSL's own values are its own",
      code: `import { defineTool } from '@idem/dsl';
export const t = defineTool({ name: 'refund', sideEffects: 'moneyout', idempotent: 'yes', retry: 'always', run: async () => 1 });`,
    },
    {
      name: 'a value that is not static is not judged',
      code: `import { defineTool } from '@retrysafe/spec';
declare const mode: any;
export const t = defineTool({ name: 'refund', sideEffects: mode, idempotent: true, retry: 'safe', execute: async () => 1 });`,
    },
  ],
  invalid: [
    {
      name: "defineTool past `as any`: 'moneyout', with the near miss 'money_out'",
      code: `import { defineTool } from '@retrysafe/spec';
export const t = defineTool({ name: 'refund', sideEffects: 'moneyout' as any, idempotent: true, retry: 'safe', execute: async () => 1 });`,
      errors: [
        {
          ...unknownValue('Tool `refund`', "`sideEffects: 'moneyout' as any`", '`sideEffects`', SIDE_EFFECT_VALUES, " (did you mean `'money_out'`?)", 2, 47),
          suggestions: [
            {
              messageId: 'useKnownValue',
              data: { value: "`'money_out'`" },
              output: `import { defineTool } from '@retrysafe/spec';
export const t = defineTool({ name: 'refund', sideEffects: 'money_out' as any, idempotent: true, retry: 'safe', execute: async () => 1 });`,
            },
          ],
        },
      ],
    },
    {
      name: "JavaScript: retry: 'always' on a tool not safely repeatable is reported once, as the unknown value (no near miss)",
      code: `import { defineTool } from '@retrysafe/spec';
export const t = defineTool({ name: 'send', sideEffects: 'message_out', idempotent: false, retry: 'always', execute: async () => 1 });`,
      errors: [unknownValue('Tool `send`', "`retry: 'always'`", '`retry`', RETRY_VALUES, '', 2, 92)],
    },
    {
      // Was a valid case ("values no spec uses": not judged as a contradiction); the first unknown value is the report.
      name: "defineTool with sideEffects: 'external' and idempotent: 'maybe': the first unknown value, no contradiction judged",
      code: `import { defineTool } from '@retrysafe/spec';
export const f = defineTool({ name: 'f', sideEffects: 'external', idempotent: 'maybe', retry: 'safe_with_same_key', execute });`,
      errors: [unknownValue('Tool `f`', "`sideEffects: 'external'`", '`sideEffects`', SIDE_EFFECT_VALUES, '', 2, 42)],
    },
    {
      name: "declarePolicy with idempotent: 'true' (a string), through a spread const",
      code: `import { declarePolicy } from '@retrysafe/spec';
declare const t: object;
const BASE = { side_effects: 'none', idempotent: 'true' } as const;
export const d = declarePolicy(t, { ...BASE, retry: 'safe' });`,
      errors: [
        {
          ...unknownValue('Tool `t`', "`idempotent: 'true'`", '`idempotent`', "`true`, `'with_key'` or `false`", ' (did you mean `true`?)', 3, 38),
          suggestions: [
            {
              messageId: 'useKnownValue',
              data: { value: '`true`' },
              output: `import { declarePolicy } from '@retrysafe/spec';
declare const t: object;
const BASE = { side_effects: 'none', idempotent: true } as const;
export const d = declarePolicy(t, { ...BASE, retry: 'safe' });`,
            },
          ],
        },
      ],
    },
  ],
});
