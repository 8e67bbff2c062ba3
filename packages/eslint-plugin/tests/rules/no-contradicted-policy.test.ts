import * as parser from '@typescript-eslint/parser';
import { type InvalidTestCase, RuleTester, type ValidTestCase } from '@typescript-eslint/rule-tester';
import { Linter, type Rule } from 'eslint';
import { describe, expect, it } from 'vitest';

import rule, { type MessageIds, type Options } from '../../src/rules/no-contradicted-policy.js';

// Sources are flush left. One report per tool, its most serious contradiction first (a read-only
// declaration over a write, then a naturally idempotent one over a create or a relative change,
// then a with_key one whose create nothing dedupes). Each report sits at the declaration the code contradicts; `at` finds the
// line and column of the first occurrence of that declaration's text in the case's code, so the
// expected position reads off the marker rather than off a count.
const ruleTester = new RuleTester();

type Valid = ValidTestCase<Options>;
type Invalid = InvalidTestCase<MessageIds, Options>;
type Expected = NonNullable<Invalid['errors']>[number];

function at(code: string, marker: string): { line: number; column: number } {
  const index = code.indexOf(marker);
  if (index === -1 || code.indexOf(marker, index + 1) !== -1) throw new Error(`expected exactly one ${JSON.stringify(marker)}`);
  const before = code.slice(0, index).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/** An invalid case whose reports are at the given declaration markers. */
function invalid(name: string, code: string, ...reports: [MessageIds, string][]): Invalid {
  return { name, code, errors: reports.map(([messageId, marker]): Expected => ({ messageId, ...at(code, marker) })) };
}

const MCP = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
declare const server: McpServer;`;
const SPEC = `import { defineTool, declarePolicy } from '@retrysafe/spec';
import { z } from 'zod';`;
const PG = `import { Pool } from 'pg';
const pool = new Pool();`;
const STRIPE = `import Stripe from 'stripe';
const stripe = new Stripe(process.env.STRIPE_KEY!);`;

/** A defineTool tool with the given policy fields and handler body. */
const defineTool = (policy: string, body: string, prelude = PG): string => `${SPEC}
${prelude}
export const tool = defineTool({
  name: 'add_loyalty_points',
  description: 'Add loyalty points to a customer',
  ${policy},
  input: z.object({ customerId: z.string(), points: z.number() }),
  execute: async ({ customerId, points }) => {
${body}
  },
});`;

/** An MCP registerTool tool with the given annotations and handler body. */
const mcpTool = (name: string, annotations: string, body: string, prelude = PG): string => `${MCP}
${prelude}
server.registerTool('${name}', {
  description: '${name}',
  inputSchema: { id: z.string(), amount: z.number() },
  annotations: { ${annotations} },
}, async ({ id, amount }) => {
${body}
  return { content: [] };
});`;

const NATURALLY_IDEMPOTENT = "sideEffects: 'internal_write', idempotent: true, retry: 'safe'";

/** The trial's repro (app/src/probe/spread.ts): an MCP tool whose handler inserts, with its policy or hints written as given. */
const insertingTool = (prelude: string, declaration: string): string => `${MCP}
${PG}
${prelude}
server.registerTool('fb_local', { inputSchema: { text: z.string() }, ${declaration} },
  async ({ text }) => { await pool.query('INSERT INTO rs_trial_feedback (text) VALUES ($1)', [text]); return { content: [] }; });`;
const META = "'io.github.retrysafe/policy'";
const LOCAL_READ_ONLY = "const LOCAL_READ_ONLY = { side_effects: 'none', idempotent: true, retry: 'safe' } as const;";
const RELATIVE_UPDATE = "    await pool.query('UPDATE customers SET points = points + $1 WHERE id = $2', [points, customerId]);";
const ABSOLUTE_UPDATE = "    await pool.query('UPDATE customers SET points = $1 WHERE id = $2', [points, customerId]);";

const valid: Valid[] = [
  // --- honest declarations: what the code does is what they say ---
  {
    name: 'defineTool: idempotent: true over a SELECT whose result is read at an index ((await pool.query(…)).rows[0])',
    code: defineTool(NATURALLY_IDEMPOTENT, "    return (await pool.query('SELECT points FROM customers WHERE id = $1', [customerId])).rows[0];"),
  },
  { name: 'defineTool: idempotent: true over an absolute UPDATE', code: defineTool(NATURALLY_IDEMPOTENT, ABSOLUTE_UPDATE) },
  {
    name: 'defineTool: idempotent: true over an upsert that sets values',
    code: defineTool(NATURALLY_IDEMPOTENT, "    await pool.query('INSERT INTO points (id, n) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET n = EXCLUDED.n', [customerId, points]);"),
  },
  { name: 'defineTool: idempotent: true over a DELETE', code: defineTool(NATURALLY_IDEMPOTENT, "    await pool.query('DELETE FROM points WHERE id = $1', [customerId]);") },
  {
    name: 'defineTool: idempotent: true over a PUT',
    code: defineTool(NATURALLY_IDEMPOTENT, "    await fetch(`https://api.example.com/points/${customerId}`, { method: 'PUT', body: JSON.stringify({ points }) });", ''),
  },
  {
    name: 'defineTool: idempotent: true over fs.writeFile',
    code: defineTool(NATURALLY_IDEMPOTENT, '    await writeFile(`/data/${customerId}.json`, JSON.stringify({ points }));', "import { writeFile } from 'node:fs/promises';"),
  },
  {
    name: 'defineTool: idempotent: true over a keyed create (the key makes the second call a replay)',
    code: defineTool(
      NATURALLY_IDEMPOTENT,
      '    await stripe.refunds.create({ payment_intent: customerId, amount: points }, { idempotencyKey: `refund:${customerId}` });',
      STRIPE,
    ),
  },
  {
    name: 'defineTool: idempotent: false, retry: never over a relative UPDATE (honest)',
    code: defineTool("sideEffects: 'internal_write', idempotent: false, retry: 'never'", RELATIVE_UPDATE),
  },
  {
    name: 'defineTool: a with_key tool run by the runner is deduplicated by it, whatever its handler creates',
    code: `${SPEC}
${PG}
import { key } from '@retrysafe/spec';
export const tool = defineTool({
  name: 'add_comment',
  description: 'Comment on a ticket',
  sideEffects: 'internal_write',
  idempotent: 'with_key',
  retry: 'safe_with_same_key',
  maxAttempts: 1,
  input: z.object({ ticketId: z.string(), body: z.string() }),
  key: ({ run, input }) => key\`\${run.id}:\${input.ticketId}:comment\`,
  execute: async ({ ticketId, body }) => pool.query('INSERT INTO comments (ticket_id, body) VALUES ($1, $2)', [ticketId, body]),
});`,
  },
  {
    name: 'MCP: a complete honest declaration (destructiveHint: true, idempotentHint: false) over a create',
    code: mcpTool('charge_card', 'readOnlyHint: false, destructiveHint: true, idempotentHint: false', "  await stripe.paymentIntents.create({ amount, currency: 'usd', customer: id });", STRIPE),
  },
  { name: 'MCP: readOnlyHint: true over reads', code: mcpTool('get_points', 'readOnlyHint: true', "  await pool.query('SELECT points FROM customers WHERE id = $1', [id]);") },
  {
    name: 'MCP: readOnlyHint: true over a GET, a file read and a Stripe retrieve',
    code: mcpTool(
      'get_order',
      'readOnlyHint: true',
      "  await fetch(`https://api.example.com/orders/${id}`);\n  await readFile('/tmp/x', 'utf8');\n  await stripe.paymentIntents.retrieve(id);",
      `${STRIPE}\nimport { readFile } from 'node:fs/promises';`,
    ),
  },
  {
    name: 'MCP: idempotentHint: true over a Redis HSET (absolute)',
    code: mcpTool('set_status', 'readOnlyHint: false, destructiveHint: false, idempotentHint: true', "  await redis.hset(`order:${id}`, 'status', 'shipped');", "import Redis from 'ioredis';\nconst redis = new Redis();"),
  },
  // --- what the analysis cannot see stays unreported ---
  {
    name: 'a receiver with no evidence (an imported helper object) is not judged',
    code: mcpTool('add_points', 'readOnlyHint: false, destructiveHint: false, idempotentHint: true', '  await db.addPoints(id, amount);', "import { db } from './db';"),
  },
  {
    name: 'SQL text that is not visible (a variable built elsewhere) is not judged',
    code: mcpTool('run_query', 'readOnlyHint: true', '  await pool.query(buildQuery(id));', `${PG}\nimport { buildQuery } from './queries';`),
  },
  {
    name: 'a create whose key is not visible (options built elsewhere) is not judged',
    code: mcpTool('charge', 'destructiveHint: true, idempotentHint: true', "  await stripe.paymentIntents.create({ amount, currency: 'usd' }, requestOptions(id));", `${STRIPE}\nimport { requestOptions } from './options';`),
  },
  {
    name: 'a framework tool that looks the key up before it creates is guarded (with_key)',
    code: `${SPEC}
import { tool } from 'ai';
${PG}
export const addComment = declarePolicy(tool({
  description: 'Comment on a ticket',
  inputSchema: z.object({ ticketId: z.string(), body: z.string(), idempotencyKey: z.string() }),
  execute: async ({ ticketId, body, idempotencyKey }) => {
    const seen = await pool.query('SELECT id FROM comments WHERE idempotency_key = $1', [idempotencyKey]);
    if (seen.rowCount) return seen.rows[0];
    return pool.query('INSERT INTO comments (ticket_id, body) VALUES ($1, $2)', [ticketId, body]);
  },
}), { side_effects: 'internal_write', idempotent: 'with_key', retry: 'safe_with_same_key' });`,
  },
  {
    name: 'a keyed provider of the `providers` option, with its key passed',
    code: mcpTool('charge', 'destructiveHint: true, idempotentHint: true', '  await payments.charge(id, amount, { idempotencyKey: `charge:${id}` });', "import { payments } from 'acme-payments';"),
    options: [{ providers: [{ from: 'acme-payments', methods: ['charge'], argument: 2 }] }],
  },
  {
    name: 'a file that defines no tool is not analysed',
    code: `${PG}\nexport async function addPoints(id: string, n: number) { await pool.query('UPDATE customers SET points = points + $1 WHERE id = $2', [n, id]); }`,
  },
  // --- a policy read through a const: a field a spread nobody can see may override is no claim ---
  { name: 'read-only const spread, then a spread of a parameter-like unknown value after it', code: insertingTool(`${LOCAL_READ_ONLY}\ndeclare const overrides: Record<string, unknown>;`, `_meta: { ${META}: { ...LOCAL_READ_ONLY, ...overrides } }`) },
  { name: 'read-only const spread, overridden inline after it', code: insertingTool(LOCAL_READ_ONLY, `_meta: { ${META}: { ...LOCAL_READ_ONLY, side_effects: 'internal_write', idempotent: false, retry: 'never' } }`) },
  { name: 'policy from a call result: not visible', code: insertingTool("declare function policyFor(name: string): object;", `_meta: { ${META}: { ...policyFor('x') } }`) },
  { name: 'imported policy const: the syntactic rule cannot see it (the type-aware twin reads it)', code: insertingTool("import { READ_ONLY } from './policies.js';", `_meta: { ${META}: READ_ONLY }`) },
  { name: 'honest write policy through a const', code: insertingTool("const WRITE = { side_effects: 'internal_write', idempotent: false, retry: 'never' } as const;", `_meta: { ${META}: { ...WRITE } }`) },
];

const invalidCases: Invalid[] = [
  // A query whose result is read by property and index, in an arrow's expression body or a return:
  // the call is the top of its chain (found by the audit's new-user trial: Q1 said unknown).
  invalid(
    'defineTool: idempotent: true over an UPDATE whose result is read at an index ((await pool.query(…)).rows[0])',
    defineTool(NATURALLY_IDEMPOTENT, "    return (await pool.query('UPDATE customers SET points = points + $1 WHERE id = $2 RETURNING points', [points, customerId])).rows[0];"),
    ['notIdempotent', 'idempotent: true'],
  ),
  invalid(
    'MCP: readOnlyHint: true, a one-expression handler whose INSERT result is read at an index',
    `${MCP}
${PG}
server.registerTool('add_note', { annotations: { readOnlyHint: true } }, async ({ text }: { text: string }) => (await pool.query('INSERT INTO notes (text) VALUES ($1) RETURNING id', [text])).rows[0]);`,
    ['notReadOnly', 'readOnlyHint: true'],
  ),
  // --- the four cases of the issue ---
  invalid(
    'issue: a defineTool declared idempotent: true, retry: safe whose handler runs UPDATE … SET points = points + $1',
    defineTool(NATURALLY_IDEMPOTENT, "    await pool.query('UPDATE accounts SET points = points + $1 WHERE id = $2', [points, customerId]);"),
    ['notIdempotent', 'idempotent: true'],
  ),
  invalid(
    'issue: an MCP tool annotated readOnlyHint: true whose handler creates a Stripe payment',
    mcpTool('get_checkout', 'readOnlyHint: true', "  await stripe.paymentIntents.create({ amount, currency: 'usd', customer: id });", STRIPE),
    ['notReadOnly', 'readOnlyHint: true'],
  ),
  invalid(
    'issue: an MCP add_ticket_comment with idempotentHint: true whose handler inserts a new comment row',
    `${MCP}
${PG}
server.registerTool('add_ticket_comment', {
  description: 'Add a comment to a ticket',
  inputSchema: { ticketId: z.string(), body: z.string() },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
}, async ({ ticketId, body }) => {
  await pool.query('INSERT INTO comments (ticket_id, body) VALUES ($1, $2)', [ticketId, body]);
  return { content: [{ type: 'text', text: 'ok' }] };
});`,
    ['notIdempotent', 'idempotentHint: true'],
  ),
  invalid(
    "issue: an AI SDK tool declared side_effects: 'none' that sends an email",
    `${SPEC}
import { tool } from 'ai';
import nodemailer from 'nodemailer';
const transport = nodemailer.createTransport({ host: 'smtp.example.com' });
export const notify = declarePolicy(tool({
  description: 'Look up a customer',
  inputSchema: z.object({ email: z.string() }),
  execute: async ({ email }) => transport.sendMail({ to: email, subject: 'Hello', text: 'Hi' }),
}), { side_effects: 'none', idempotent: true, retry: 'safe' });`,
    ['notReadOnly', "side_effects: 'none'"],
  ),

  // --- each reach: a helper in the same file, a constant client, a destructured client, a method chain ---
  invalid(
    'relative, through a helper function in the same file',
    `${SPEC}
${PG}
async function credit(customerId: string, points: number) {
  await pool.query('UPDATE customers SET points = points + $1 WHERE id = $2', [points, customerId]);
}
export const tool = defineTool({
  name: 'add_loyalty_points',
  description: 'Add loyalty points',
  sideEffects: 'internal_write',
  idempotent: true,
  retry: 'safe',
  input: z.object({ customerId: z.string(), points: z.number() }),
  execute: ({ customerId, points }) => credit(customerId, points),
});`,
    ['notIdempotent', 'idempotent: true'],
  ),
  invalid(
    'relative, the SQL in a constant',
    defineTool(NATURALLY_IDEMPOTENT, '    await pool.query(ADD_POINTS, [points, customerId]);', `${PG}\nconst ADD_POINTS = 'UPDATE customers SET points = points + $1 WHERE id = $2';`),
    ['notIdempotent', 'idempotent: true'],
  ),
  invalid(
    'relative, a Prisma increment through a client held in a constant',
    defineTool(
      NATURALLY_IDEMPOTENT,
      '    await prisma.customer.update({ where: { id: customerId }, data: { points: { increment: points } } });',
      "import { PrismaClient } from '@prisma/client';\nconst prisma = new PrismaClient();",
    ),
    ['notIdempotent', 'idempotent: true'],
  ),
  invalid(
    'create, through a destructured Stripe client',
    mcpTool('issue_refund', 'destructiveHint: true, idempotentHint: true', '  const { refunds } = stripe;\n  await refunds.create({ payment_intent: id, amount });', STRIPE),
    ['notIdempotent', 'idempotentHint: true'],
  ),
  invalid(
    'create, through a method chain (Drizzle insert … values)',
    defineTool(
      NATURALLY_IDEMPOTENT,
      '    await db.insert(ledger).values({ customerId, points }).returning();',
      "import { drizzle } from 'drizzle-orm/node-postgres';\nimport { ledger } from './schema';\nconst db = drizzle(process.env.DATABASE_URL!);",
    ),
    ['notIdempotent', 'idempotent: true'],
  ),
  invalid(
    'relative, Redis INCRBY',
    mcpTool('add_points', 'readOnlyHint: false, destructiveHint: false, idempotentHint: true', '  await redis.incrby(`points:${id}`, amount);', "import Redis from 'ioredis';\nconst redis = new Redis();"),
    ['notIdempotent', 'idempotentHint: true'],
  ),
  invalid(
    'relative, Mongo $inc',
    mcpTool('add_points', 'destructiveHint: false, idempotentHint: true', "  await client.db('shop').collection('customers').updateOne({ _id: id }, { $inc: { points: amount } });", "import { MongoClient } from 'mongodb';\nconst client = new MongoClient('mongodb://localhost');"),
    ['notIdempotent', 'idempotentHint: true'],
  ),
  invalid(
    'relative, fs.appendFile',
    mcpTool('append_note', 'readOnlyHint: false, destructiveHint: false, idempotentHint: true', '  await fs.appendFile(`/notes/${id}.txt`, String(amount));', "import fs from 'node:fs/promises';"),
    ['notIdempotent', 'idempotentHint: true'],
  ),
  invalid(
    'create, a POST with no Idempotency-Key',
    mcpTool('create_ticket', 'destructiveHint: false, idempotentHint: true', "  await fetch('https://api.example.com/tickets', { method: 'POST', body: JSON.stringify({ id, amount }) });", ''),
    ['notIdempotent', 'idempotentHint: true'],
  ),

  // --- read-only declarations contradicted by each kind of write ---
  invalid('read-only, but an absolute UPDATE', mcpTool('get_points', 'readOnlyHint: true', "  await pool.query('UPDATE customers SET seen = true WHERE id = $1', [id]);"), ['notReadOnly', 'readOnlyHint: true']),
  invalid('read-only, but a DELETE', mcpTool('get_points', 'readOnlyHint: true', "  await pool.query('DELETE FROM sessions WHERE id = $1', [id]);"), ['notReadOnly', 'readOnlyHint: true']),
  invalid(
    'read-only, but a file write',
    mcpTool('read_config', 'readOnlyHint: true', "  await writeFile('/tmp/cache.json', JSON.stringify({ id }));", "import { writeFile } from 'node:fs/promises';"),
    ['notReadOnly', 'readOnlyHint: true'],
  ),
  invalid(
    'read-only (declarePolicy side_effects: none) in OpenAI Agents, but sends a Slack message',
    `${SPEC}
import { tool } from '@openai/agents';
import { WebClient } from '@slack/web-api';
const slack = new WebClient(process.env.SLACK_TOKEN);
export const lookUp = declarePolicy(tool({
  name: 'look_up',
  description: 'Look up a channel',
  parameters: z.object({ channel: z.string() }),
  execute: async ({ channel }) => slack.chat.postMessage({ channel, text: 'looked up' }),
}), { side_effects: 'none', idempotent: true, retry: 'safe' });`,
    ['notReadOnly', "side_effects: 'none'"],
  ),
  invalid(
    'read-only (LangChain metadata.retrysafe), but inserts a row',
    `import { tool } from '@langchain/core/tools';
import { z } from 'zod';
${PG}
export const search = tool(async ({ q }) => pool.query('INSERT INTO searches (q) VALUES ($1)', [q]), {
  name: 'search',
  description: 'Search',
  schema: z.object({ q: z.string() }),
  metadata: { retrysafe: { side_effects: 'none', idempotent: true, retry: 'safe' } },
});`,
    ['notReadOnly', "side_effects: 'none'"],
  ),
  invalid(
    'naturally idempotent (MCP _meta.retrysafe), but sends an SMS',
    `${MCP}
import twilio from 'twilio';
const sms = twilio(process.env.SID, process.env.TOKEN);
server.registerTool('notify', {
  description: 'Notify a customer',
  inputSchema: { to: z.string() },
  _meta: { retrysafe: { side_effects: 'message_out', idempotent: true, retry: 'safe' } },
}, async ({ to }) => {
  await sms.messages.create({ to, from: '+15550000000', body: 'Your order shipped' });
  return { content: [] };
});`,
    ['notIdempotent', 'idempotent: true'],
  ),

  invalid(
    'a low-level MCP server: the tool listed with readOnlyHint: true, its case of the CallTool switch deletes a key',
    `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from 'redis';
const redis = createClient();
declare const server: Server;
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: 'get', description: 'Get a key', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    { name: 'forget', description: 'Forget a key', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  switch (name) {
    case 'get':
      return { content: [{ type: 'text', text: String(await redis.get(String(args?.key))) }] };
    case 'forget':
      await redis.del(String(args?.key));
      return { content: [] };
  }
  throw new Error('unknown tool');
});`,
    ['notReadOnly', "readOnlyHint: true } },\n  ],"],
  ),

  invalid(
    'a low-level MCP server: two tools share a case and a helper, and only the branch each tool runs counts',
    `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import nodemailer from 'nodemailer';
import { writeFile } from 'node:fs/promises';
const mail = nodemailer.createTransport({});
declare const server: Server;
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: 'send_email', inputSchema: { type: 'object' }, annotations: { destructiveHint: false, idempotentHint: true } },
    { name: 'draft_email', inputSchema: { type: 'object' }, annotations: { destructiveHint: true, idempotentHint: true } },
  ],
}));
async function act(action: string, message: { to: string }) {
  if (action === 'send') return mail.sendMail(message);
  return writeFile(\`/drafts/\${message.to}.eml\`, JSON.stringify(message));
}
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  switch (name) {
    case 'send_email':
    case 'draft_email': {
      const action = name === 'send_email' ? 'send' : 'draft';
      await act(action, args as { to: string });
      return { content: [] };
    }
  }
  throw new Error('unknown tool');
});`,
    ['notIdempotent', "idempotentHint: true } },\n    { name: 'draft_email'"],
  ),

  // --- with_key, but nothing dedupes the create ---
  invalid(
    'with_key (AI SDK declarePolicy), but the INSERT takes no key and the handler looks none up',
    `${SPEC}
import { tool } from 'ai';
${PG}
export const addComment = declarePolicy(tool({
  description: 'Comment on a ticket',
  inputSchema: z.object({ ticketId: z.string(), body: z.string() }),
  execute: async ({ ticketId, body }) => pool.query('INSERT INTO comments (ticket_id, body) VALUES ($1, $2)', [ticketId, body]),
}), { side_effects: 'internal_write', idempotent: 'with_key', retry: 'safe_with_same_key' });`,
    ['keyNotUsed', "idempotent: 'with_key'"],
  ),
  invalid(
    'with_key (MCP _meta), but SendGrid takes no key and the handler looks none up',
    `${MCP}
import sgMail from '@sendgrid/mail';
server.registerTool('send_receipt', {
  description: 'Email a receipt',
  inputSchema: { to: z.string() },
  _meta: { retrysafe: { side_effects: 'message_out', idempotent: 'with_key', retry: 'safe_with_same_key' } },
}, async ({ to }) => {
  await sgMail.send({ to, from: 'shop@example.com', subject: 'Receipt', text: 'Thanks' });
  return { content: [] };
});`,
    ['keyNotUsed', "idempotent: 'with_key'"],
  ),
  {
    ...invalid(
      "a keyed provider of the `providers` option (as require-key-passthrough's) is a create that takes a key",
      mcpTool('charge', 'destructiveHint: true, idempotentHint: true', '  await payments.charge(id, amount);', "import { payments } from 'acme-payments';"),
      ['notIdempotent', 'idempotentHint: true'],
    ),
    options: [{ providers: [{ from: 'acme-payments', methods: ['charge'], argument: 2 }] }],
  },
  // --- a policy or hints read through a same-file const (trial: app/src/probe/spread.ts) ---
  invalid('trial repro: _meta policy spreads a local `as const` object', insertingTool(LOCAL_READ_ONLY, `_meta: { ${META}: { ...LOCAL_READ_ONLY } }`), ['notReadOnly', '{ ...LOCAL_READ_ONLY }']),
  invalid('_meta policy is a local const identifier', insertingTool(LOCAL_READ_ONLY, `_meta: { ${META}: LOCAL_READ_ONLY }`), ['notReadOnly', 'LOCAL_READ_ONLY }']),
  invalid(
    'nested spreads and satisfies',
    insertingTool("const BASE = { side_effects: 'none' };\nconst READ = { ...BASE, idempotent: true, retry: 'safe' } satisfies Record<string, unknown>;", `_meta: { ${META}: { ...READ, max_attempts: 2 } }`),
    ['notReadOnly', '{ ...READ, max_attempts: 2 }'],
  ),
  invalid('annotations spread a local const', insertingTool('const HINTS = { readOnlyHint: true, openWorldHint: false } as const;', 'annotations: { ...HINTS }'), ['notReadOnly', '{ ...HINTS }']),
  invalid('annotations are a local const', insertingTool('const HINTS = { readOnlyHint: true } as const;', 'annotations: HINTS'), ['notReadOnly', 'HINTS }']),
  invalid(
    'declarePolicy second argument spreads a const',
    `${SPEC}\n${PG}\nconst READ_ONLY = { side_effects: 'none', idempotent: true, retry: 'safe' } as const;
import { tool } from 'ai';
export const t = declarePolicy(tool({ description: 'x', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => { await pool.query('INSERT INTO feedback (text) VALUES ($1)', [text]); } }), { ...READ_ONLY });`,
    ['notReadOnly', '{ ...READ_ONLY }'],
  ),
  invalid(
    'defineTool fields spread from a const',
    defineTool("...POINTS_POLICY", "    await pool.query('UPDATE customers SET points = points + $1 WHERE id = $2', [points, customerId]);", `${PG}\nconst POINTS_POLICY = { ${NATURALLY_IDEMPOTENT} } as const;`),
    ['notIdempotent', '{\n  name:'],
  ),
  invalid(
    'LangChain metadata.retrysafe spreads a const',
    `import { tool } from '@langchain/core/tools';\nimport { z } from 'zod';\n${PG}\nconst READ_ONLY = { side_effects: 'none', idempotent: true, retry: 'safe' } as const;
export const t = tool(async ({ text }) => { await pool.query('INSERT INTO feedback (text) VALUES ($1)', [text]); return 'ok'; }, { name: 'fb', description: 'x', schema: z.object({ text: z.string() }), metadata: { retrysafe: { ...READ_ONLY } } });`,
    ['notReadOnly', '{ ...READ_ONLY } }'],
  ),
];

ruleTester.run('no-contradicted-policy', rule, { valid, invalid: invalidCases });

// New-user trial (project-a, src/mcp-server.ts `lookup_order`): the read-only message said what the
// operation does in a `which` clause after the operation's own `which` about the key ("runs `INSERT
// INTO notes` (line 16), which takes no deduplication key, which inserts into `notes`"). The two
// join in one clause; the other messages keep the key clause after the operation.
const lookupOrder = `${MCP}
import { db } from './db.js';
server.registerTool(
  'lookup_order',
  {
    description: 'Look up an order',
    inputSchema: { orderId: z.string() },
    annotations: { readOnlyHint: true },
  },
  async ({ orderId }) => {
    db.prepare('INSERT INTO notes (order_id, body) VALUES (?, ?)').run(orderId, 'looked up by agent');
    const row = db.prepare('SELECT * FROM orders WHERE id = ?').get(orderId);
    return { content: [{ type: 'text', text: JSON.stringify(row) }] };
  },
);`;
const READ_ONLY_FIX = 'Set `readOnlyHint: false` and state `destructiveHint` and `idempotentHint` for what it does.';
const readOnlyStripe = mcpTool('get_refund', 'readOnlyHint: true', '  await stripe.refunds.create({ charge: id, amount });', STRIPE);
const idempotentInsert = mcpTool('add_note', 'readOnlyHint: false, destructiveHint: false, idempotentHint: true', "  await pool.query('INSERT INTO notes (id, n) VALUES ($1, $2)', [id, amount]);");
const idempotentPost = mcpTool('create_ticket', 'readOnlyHint: false, destructiveHint: false, idempotentHint: true', "  await fetch('https://tickets.example/api/tickets', { method: 'POST', body: id });");

ruleTester.run('no-contradicted-policy: the operation and what it does, in one sentence', rule, {
  valid: [],
  invalid: [
    {
      name: 'read-only over an INSERT, which takes no key: one which-clause says both (trial lookup_order)',
      code: lookupOrder,
      errors: [
        {
          messageId: 'notReadOnly',
          ...at(lookupOrder, 'readOnlyHint: true'),
          data: {
            tool: '`lookup_order`',
            claim: '`readOnlyHint: true`',
            operation: '`INSERT INTO notes` (line 13)',
            does: 'inserts into `notes` and takes no deduplication key',
            fix: READ_ONLY_FIX,
          },
        },
      ],
    },
    {
      name: 'read-only over a create from a provider that takes a key, passing none: the key after the operation',
      code: readOnlyStripe,
      errors: [
        {
          messageId: 'notReadOnly',
          ...at(readOnlyStripe, 'readOnlyHint: true'),
          data: {
            tool: '`get_refund`',
            claim: '`readOnlyHint: true`',
            operation: '`stripe.refunds.create` (line 11) with no deduplication key',
            does: 'creates a Stripe object',
            fix: READ_ONLY_FIX,
          },
        },
      ],
    },
    {
      name: 'naturally idempotent over an INSERT: the key clause stays after the operation',
      code: idempotentInsert,
      errors: [
        {
          messageId: 'notIdempotent',
          ...at(idempotentInsert, 'idempotentHint: true'),
          data: {
            tool: '`add_note`',
            claim: '`idempotentHint: true`',
            operation: '`INSERT INTO notes` (line 11), which takes no deduplication key',
            consequence: 'a second call inserts into `notes` again',
            fix: 'Set `idempotentHint: false`, or make it idempotent with a key the caller passes.',
          },
        },
      ],
    },
    {
      name: "naturally idempotent over a POST to an API the catalogue cannot name: the consequence says what is created again (new-user trial 8: 'creates another one again')",
      code: idempotentPost,
      errors: [
        {
          messageId: 'notIdempotent',
          ...at(idempotentPost, 'idempotentHint: true'),
          data: {
            tool: '`create_ticket`',
            claim: '`idempotentHint: true`',
            operation: '`fetch` (line 11) with no deduplication key',
            consequence: 'a second call creates a second copy of what the first one created',
            fix: 'Set `idempotentHint: false`, or make it idempotent with a key the caller passes.',
          },
        },
      ],
    },
  ],
});

// Issue 10's cost item: most files of a code base define no tool, and the rule (with its twin, which
// shares the gate in no-contradicted-policy-utils) must cost them nothing beyond the gate itself.
describe('listeners', () => {
  function listenerCount(code: string): number {
    let count = -1;
    const counted = {
      ...rule,
      create(context: Parameters<typeof rule.create>[0]) {
        const listeners = rule.create(context);
        count = Object.keys(listeners).length;
        return listeners;
      },
    };
    new Linter({ configType: 'flat' }).verify(code, [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: parser as unknown as Linter.Parser },
        plugins: { retrysafe: { rules: { 'no-contradicted-policy': counted as unknown as Rule.RuleModule } } },
        rules: { 'retrysafe/no-contradicted-policy': 'error' },
      },
    ], 'file.ts');
    return count;
  }

  it.each([
    ['a file that spells no claim', `${PG}\nexport async function addPoints(id: string) { await pool.query('UPDATE t SET n = n + 1 WHERE id = $1', [id]); }`],
    ['a file that spells a claim word but imports no tool module', `${PG}\nexport const idempotent = true;\nexport async function addPoints(id: string) { await pool.query('UPDATE t SET n = n + 1 WHERE id = $1', [id]); }`],
  ])('none for %s', (_name, code) => {
    expect(listenerCount(code)).toBe(0);
  });

  it('some for a file that defines a tool with a claim', () => {
    expect(listenerCount(defineTool(NATURALLY_IDEMPOTENT, ABSOLUTE_UPDATE))).toBeGreaterThan(0);
  });
});
