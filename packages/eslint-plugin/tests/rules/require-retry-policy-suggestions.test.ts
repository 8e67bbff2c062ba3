import { RuleTester } from '@typescript-eslint/rule-tester';

import rule from '../../src/rules/require-retry-policy.js';
import { trialRefundTool } from '../support/trialTools.js';

// The declaration require-retry-policy suggests from what a tool's handler does, in each
// framework's vocabulary. Offered only with evidence: every call known for "only reads" and
// "absolute", one relative change or unkeyed create for "not safely repeatable".
const ruleTester = new RuleTester();

const PG = "import { Pool } from 'pg';\nconst pool = new Pool();";
/** The report at the first occurrence of `marker` in `code`, with the suggestion's output if one is offered. */
function missing(code: string, marker: string, output?: string, messageId: 'incompletePolicy' | 'missingPolicy' = 'missingPolicy') {
  const index = code.indexOf(marker);
  if (index === -1) throw new Error(`no ${marker}`);
  const before = code.slice(0, index).split('\n');
  return {
    messageId,
    line: before.length,
    column: (before.at(-1)?.length ?? 0) + 1,
    suggestions: output === undefined ? [] : [{ messageId: 'declareInferred' as const, output }],
  };
}

const mcpRead = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
${PG}
declare const server: McpServer;
server.registerTool('get_points', { description: 'Points of a customer', inputSchema: { id: z.string() } }, async ({ id }) => {
  const { rows } = await pool.query('SELECT points FROM customers WHERE id = $1', [id]);
  return { content: [{ type: 'text', text: JSON.stringify(rows) }] };
});`;

const mcpRelative = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
${PG}
declare const server: McpServer;
server.registerTool('add_points', {
  description: 'Add points',
  inputSchema: { id: z.string(), n: z.number() },
}, async ({ id, n }) => {
  await pool.query('UPDATE customers SET points = points + $1 WHERE id = $2', [n, id]);
  return { content: [] };
});`;

const aiSdkAbsolute = `import { tool } from 'ai';
import { z } from 'zod';
${PG}
export const setTier = tool({
  description: 'Set a tier',
  inputSchema: z.object({ id: z.string(), tier: z.string() }),
  execute: async ({ id, tier }) => pool.query('UPDATE customers SET tier = $1 WHERE id = $2', [tier, id]),
});`;

const agentsWithImport = `import { tool } from '@openai/agents';
import { declarePolicy as policy } from '@retrysafe/spec';
import { z } from 'zod';
${PG}
export const getTier = tool({
  name: 'get_tier',
  description: 'Get a tier',
  parameters: z.object({ id: z.string() }),
  execute: async ({ id }) => pool.query('SELECT tier FROM customers WHERE id = $1', [id]),
});`;

const langchain = `import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import Stripe from 'stripe';
const stripe = new Stripe('sk');
export const charge = tool(async ({ amount }) => stripe.paymentIntents.create({ amount, currency: 'usd' }), {
  name: 'charge',
  description: 'Charge a card',
  schema: z.object({ amount: z.number() }),
});`;

const defineToolJs = `import { defineTool } from '@retrysafe/spec';
import { readFile } from 'node:fs/promises';
export const readNotes = defineTool({
  name: 'read_notes',
  description: 'Read the notes',
  execute: async () => readFile('/notes.txt', 'utf8'),
});`;

const mcpMkdir = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { mkdir } from 'node:fs/promises';
import { z } from 'zod';
declare const server: McpServer;
server.registerTool('create_directory', { description: 'Make a directory', inputSchema: { path: z.string() } }, async ({ path }) => {
  await mkdir(path, { recursive: true });
  return { content: [] };
});`;

const NO_SUGGESTION_UNKNOWN = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { audit } from './audit';
${PG}
declare const server: McpServer;
server.registerTool('get_points', { description: 'Points', inputSchema: { id: z.string() } }, async ({ id }) => {
  await audit(id);
  return { content: [{ type: 'text', text: String(await pool.query('SELECT 1')) }] };
});`;

const NO_SUGGESTION_PURE = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
server.registerTool('ping', { description: 'Ping' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));`;

ruleTester.run('require-retry-policy (suggestions)', rule, {
  valid: [],
  invalid: [
    {
      name: 'MCP: a handler that only reads gets readOnlyHint: true',
      code: mcpRead,
      errors: [
        missing(mcpRead, 'server.registerTool', mcpRead.replace("inputSchema: { id: z.string() } }", "inputSchema: { id: z.string() }, annotations: { readOnlyHint: true } }")),
      ],
    },
    {
      name: 'MCP: a relative UPDATE gets idempotentHint: false (on its own line in a multi-line config)',
      code: mcpRelative,
      errors: [
        missing(
          mcpRelative,
          'server.registerTool',
          mcpRelative.replace(
            "  inputSchema: { id: z.string(), n: z.number() },\n}",
            "  inputSchema: { id: z.string(), n: z.number() },\n  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },\n}",
          ),
        ),
      ],
    },
    {
      name: 'AI SDK: an absolute UPDATE gets declarePolicy(…, idempotent: true), and the import',
      code: aiSdkAbsolute,
      errors: [
        missing(
          aiSdkAbsolute,
          'tool({',
          aiSdkAbsolute
            .replace("import { Pool } from 'pg';\n", "import { Pool } from 'pg';\nimport { declarePolicy } from '@retrysafe/spec';\n")
            .replace("export const setTier = tool({", 'export const setTier = declarePolicy(tool({')
            .replace(/\}\);$/, "}), { side_effects: 'internal_write', idempotent: true, retry: 'safe' });"),
        ),
      ],
    },
    {
      name: 'OpenAI Agents: declarePolicy already imported under another name',
      code: agentsWithImport,
      errors: [
        missing(
          agentsWithImport,
          'tool({',
          agentsWithImport
            .replace('export const getTier = tool({', 'export const getTier = policy(tool({')
            .replace(/\}\);$/, "}), { side_effects: 'none', idempotent: true, retry: 'safe' });"),
        ),
      ],
    },
    {
      name: 'LangChain: a Stripe create with no key gets metadata.retrysafe, not repeatable',
      code: langchain,
      errors: [
        missing(
          langchain,
          'tool(async',
          langchain.replace(
            "  schema: z.object({ amount: z.number() }),\n}",
            "  schema: z.object({ amount: z.number() }),\n  metadata: { retrysafe: { side_effects: 'money_out', idempotent: false, retry: 'never' } },\n}",
          ),
        ),
      ],
    },
    {
      name: 'defineTool (JavaScript, where tsc does not insist): a file read gets the defineTool fields',
      code: defineToolJs,
      errors: [
        missing(
          defineToolJs,
          'defineTool({',
          defineToolJs.replace(
            "  execute: async () => readFile('/notes.txt', 'utf8'),\n}",
            "  execute: async () => readFile('/notes.txt', 'utf8'),\n  sideEffects: 'none', idempotent: true, retry: 'safe',\n}",
          ),
          'incompletePolicy',
        ),
      ],
    },
    {
      name: 'MCP: making a directory is absolute and only adds: idempotentHint: true, destructiveHint: false',
      code: mcpMkdir,
      errors: [
        missing(
          mcpMkdir,
          'server.registerTool',
          mcpMkdir.replace("inputSchema: { path: z.string() } }", "inputSchema: { path: z.string() }, annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true } }"),
        ),
      ],
    },
    { name: 'no suggestion when a call the handler makes is not known (reads, and an imported helper)', code: NO_SUGGESTION_UNKNOWN, errors: [missing(NO_SUGGESTION_UNKNOWN, 'server.registerTool')] },
    { name: 'no suggestion for a handler that reaches no effect at all', code: NO_SUGGESTION_PURE, errors: [missing(NO_SUGGESTION_PURE, 'server.registerTool')] },
  ],
});

// New-user trial (project-a, src/ai-tools.ts): the money-out refund was the one tool with no
// suggestion. Its create passes a key, so it was not "creates without a key"; but the key is
// `randomUUID()`, new on every call (no-random-key's judgement), which deduplicates nothing.
const trialRefund = (key: string, imports?: string) => trialRefundTool(key, { imports });
const refundRandomKey = trialRefund('randomUUID()');
const refundClockKey = trialRefund('`refund-${Date.now()}`', '');
const refundConstKey = `import { tool } from 'ai';
import { z } from 'zod';
import { randomUUID } from 'node:crypto';
export const issueRefund = tool({
  description: 'Refund an order',
  inputSchema: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => {
    const refundKey = randomUUID();
    const res = await fetch('https://api.stripe.com/v1/refunds', { method: 'POST', headers: { 'Idempotency-Key': refundKey }, body: orderId });
    return res.json();
  },
});`;
const refundModuleKey = trialRefund('refundKey', "import { randomUUID } from 'node:crypto';\nconst refundKey = randomUUID();\n");
const refundDurableKey = trialRefund('`${orderId}:${amountCents}:refund`', '');

ruleTester.run('require-retry-policy (suggestions): a create whose key is new on every call (new-user trial)', rule, {
  valid: [],
  invalid: [
    {
      // A `fetch` is an external write whatever its URL: the effects catalogue does not read URLs.
      name: 'AI SDK: a Stripe refund sent with a randomUUID() key: not safely repeatable',
      code: refundRandomKey,
      errors: [
        {
          ...missing(
            refundRandomKey,
            'tool({',
            refundRandomKey
              .replace("import { randomUUID } from 'node:crypto';\n", "import { randomUUID } from 'node:crypto';\nimport { declarePolicy } from '@retrysafe/spec';\n")
              .replace('export const issueRefund = tool({', 'export const issueRefund = declarePolicy(tool({')
              .replace(/\}\);$/, "}), { side_effects: 'external_write', idempotent: false, retry: 'never' });"),
          ),
          suggestions: [
            {
              messageId: 'declareInferred' as const,
              data: {
                reason: '`fetch` (line 9) sends a key from `randomUUID()` (line 11), new on every call',
                declaration: "`declarePolicy(…, { side_effects: 'external_write', idempotent: false, retry: 'never' })`",
              },
              output: refundRandomKey
                .replace("import { randomUUID } from 'node:crypto';\n", "import { randomUUID } from 'node:crypto';\nimport { declarePolicy } from '@retrysafe/spec';\n")
                .replace('export const issueRefund = tool({', 'export const issueRefund = declarePolicy(tool({')
                .replace(/\}\);$/, "}), { side_effects: 'external_write', idempotent: false, retry: 'never' });"),
            },
          ],
        },
      ],
    },
    {
      name: 'AI SDK: a key from the clock is new on every call too',
      code: refundClockKey,
      errors: [
        missing(
          refundClockKey,
          'tool({',
          refundClockKey
            .replace("import { z } from 'zod';\n", "import { z } from 'zod';\nimport { declarePolicy } from '@retrysafe/spec';\n")
            .replace('export const issueRefund = tool({', 'export const issueRefund = declarePolicy(tool({')
            .replace(/\}\);$/, "}), { side_effects: 'external_write', idempotent: false, retry: 'never' });"),
        ),
      ],
    },
    {
      name: 'AI SDK: the random key held in a const of the handler, read in the call',
      code: refundConstKey,
      errors: [
        {
          ...missing(refundConstKey, 'tool({'),
          suggestions: [
            {
              messageId: 'declareInferred' as const,
              data: {
                reason: '`fetch` (line 9) sends a key from `randomUUID()` (line 8), new on every call',
                declaration: "`declarePolicy(…, { side_effects: 'external_write', idempotent: false, retry: 'never' })`",
              },
              output: refundConstKey
                .replace("import { randomUUID } from 'node:crypto';\n", "import { randomUUID } from 'node:crypto';\nimport { declarePolicy } from '@retrysafe/spec';\n")
                .replace('export const issueRefund = tool({', 'export const issueRefund = declarePolicy(tool({')
                .replace(/\}\);$/, "}), { side_effects: 'external_write', idempotent: false, retry: 'never' });"),
            },
          ],
        },
      ],
    },
    {
      // Minted once per process: the same key on every call until a restart, not new on every call.
      name: 'AI SDK: the random key minted at module level: no suggestion',
      code: refundModuleKey,
      errors: [missing(refundModuleKey, 'tool({')],
    },
    {
      // `idempotent: 'with_key'` needs a key function from the run and the input, which the handler's
      // effects do not give: nothing is suggested, the message says what to declare.
      name: 'AI SDK: the same refund with a durable key: no suggestion',
      code: refundDurableKey,
      errors: [missing(refundDurableKey, 'tool({')],
    },
  ],
});
