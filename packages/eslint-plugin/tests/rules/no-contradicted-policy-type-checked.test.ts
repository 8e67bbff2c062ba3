import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type InvalidTestCase, RuleTester, type ValidTestCase } from '@typescript-eslint/rule-tester';

import rule, { type MessageIds, type Options } from '../../src/rules/no-contradicted-policy-type-checked.js';

// The linted code is tests/fixtures/cross-file/file.ts; what its handlers import sits next to it:
// clients.ts (`export const db = new Pool()`, `stripe`, `resend`), points.ts (helpers over them),
// ledger.ts (a third file, reached from points.ts) and effects-reexports.ts (a barrel, one helper
// renamed). The project service gives every case a program with those files in it. Reports sit at
// the declaration the code contradicts, found by its text (`at`).
const crossFile = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/cross-file');

const ruleTester = new RuleTester({
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: crossFile } },
});

type Valid = ValidTestCase<Options>;
type Invalid = InvalidTestCase<MessageIds, Options>;
type Expected = NonNullable<Invalid['errors']>[number];

function at(code: string, marker: string): { line: number; column: number } {
  const index = code.indexOf(marker);
  if (index === -1 || code.indexOf(marker, index + 1) !== -1) throw new Error(`expected exactly one ${JSON.stringify(marker)}`);
  const before = code.slice(0, index).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/** An invalid case with one report at `marker`; `data`, when given, pins the whole message. */
function invalid(name: string, code: string, messageId: MessageIds, marker: string, data?: Record<string, string>): Invalid {
  const expected: Expected = { messageId, ...at(code, marker), ...(data ? { data } : {}) };
  return { name, code, errors: [expected] };
}

const SPEC = `import { defineTool, declarePolicy } from '@retrysafe/spec';
import { z } from 'zod';`;
const MCP = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
declare const server: McpServer;`;

const NATURALLY_IDEMPOTENT = "sideEffects: 'internal_write', idempotent: true, retry: 'safe'";

/** The trial's repro (app/src/probe/spread.ts): an MCP tool that inserts, its policy or hints written as given. */
const insertingTool = (imports: string, declaration: string): string => `${MCP}
import { db } from './clients.js';
${imports}
server.registerTool('fb_imported', { inputSchema: { text: z.string() }, ${declaration} },
  async ({ text }) => { await db.query('INSERT INTO rs_trial_feedback (text) VALUES ($1)', [text]); return { content: [] }; });`;
const META = "'io.github.retrysafe/policy'";

/** A defineTool tool whose handler body is `body`, after `imports`. */
const defineTool = (imports: string, policy: string, body: string): string => `${SPEC}
${imports}
export const tool = defineTool({
  name: 'add_loyalty_points',
  description: 'Add loyalty points to a customer',
  ${policy},
  input: z.object({ customerId: z.string(), points: z.number() }),
  execute: async ({ customerId, points }) => {
${body}
  },
});`;

/** An MCP registerTool tool with the given annotations and handler body, after `imports`. */
const mcpTool = (imports: string, name: string, annotations: string, body: string): string => `${MCP}
${imports}
server.registerTool('${name}', {
  description: '${name}',
  inputSchema: { id: z.string(), amount: z.number(), email: z.string() },
  annotations: { ${annotations} },
}, async ({ id, amount, email }) => {
${body}
  return { content: [] };
});`;

const valid: Valid[] = [
  // --- honest look-alikes across files ---
  {
    name: 'idempotent: true over an imported helper that runs an absolute UPDATE',
    code: defineTool("import { setPoints } from './points.js';", NATURALLY_IDEMPOTENT, '    await setPoints(customerId, points);'),
  },
  {
    name: 'idempotent: true over an imported helper whose create passes a key (Stripe idempotencyKey)',
    code: defineTool("import { refundOrder } from './points.js';", NATURALLY_IDEMPOTENT, '    await refundOrder(customerId, points, `refund:${customerId}`);'),
  },
  {
    name: 'readOnlyHint: true over an imported helper that only reads',
    code: mcpTool("import { getPoints } from './points.js';", 'get_points', 'readOnlyHint: true', '  await getPoints(id);'),
  },
  {
    name: 'a shared helper in another file, called with the action whose branch only sets values',
    code: defineTool("import { changePoints } from './points.js';", NATURALLY_IDEMPOTENT, "    await changePoints('set', customerId, points);"),
  },
  {
    name: 'idempotent: true over a keyed create on a client constructed in another module',
    code: mcpTool(
      "import { stripe } from './clients.js';",
      'charge',
      'readOnlyHint: false, destructiveHint: true, idempotentHint: true',
      "  await stripe.paymentIntents.create({ amount, currency: 'usd' }, { idempotencyKey: `charge:${id}` });",
    ),
  },
  {
    name: 'a re-exported helper that runs an absolute UPDATE',
    code: defineTool("import { setPoints } from './effects-reexports.js';", NATURALLY_IDEMPOTENT, '    await setPoints(customerId, points);'),
  },
  {
    name: 'honest: idempotent: false, retry: never over an imported relative UPDATE',
    code: defineTool("import { addPoints } from './points.js';", "sideEffects: 'internal_write', idempotent: false, retry: 'never'", '    await addPoints(customerId, points);'),
  },
  // --- what cannot be resolved stays unreported ---
  {
    name: 'an import that does not resolve',
    code: defineTool("import { addPoints } from './missing.js';", NATURALLY_IDEMPOTENT, '    await addPoints(customerId, points);'),
  },
  {
    name: 'a package function (declared in a .d.ts, no body to read)',
    code: mcpTool("import { tool } from 'ai';", 'wrap', 'readOnlyHint: true', '  tool({ description: id } as never);'),
  },
  {
    name: 'an imported object with a create method that is no catalogued client',
    code: mcpTool("import { registry } from './clients.js';", 'register', 'readOnlyHint: false, destructiveHint: false, idempotentHint: true', '  registry.create(id);'),
  },
  // --- left to no-contradicted-policy, which reports it in the linted file ---
  {
    name: 'SQL text on an imported client, which the syntactic rule reads from the statement',
    code: defineTool(
      "import { db } from './clients.js';",
      NATURALLY_IDEMPOTENT,
      "    await db.query('UPDATE customers SET points = points + $1 WHERE id = $2', [points, customerId]);",
    ),
  },
  {
    name: 'a relative UPDATE in the handler itself, beside an imported helper (one report, the syntactic rule’s)',
    code: defineTool(
      "import { Pool } from 'pg';\nimport { addPoints } from './points.js';\nconst pool = new Pool();",
      NATURALLY_IDEMPOTENT,
      "    await pool.query('UPDATE customers SET visits = visits + 1 WHERE id = $1', [customerId]);\n    await addPoints(customerId, points);",
    ),
  },
  // --- nothing to judge ---
  {
    name: 'a file that defines no tool (no listeners)',
    code: "import { addPoints } from './points.js';\nexport const idempotent = true;\nexport async function run() { await addPoints('a', 1); }",
  },
  {
    name: 'a tool that makes no claim',
    code: defineTool("import { addPoints } from './points.js';", "sideEffects: 'internal_write'", '    await addPoints(customerId, points);'),
  },
  // --- an imported policy const is read only when it is a visible object literal ---
  { name: 'imported policy built by a call: not visible, silent', code: insertingTool("import { BUILT } from './policies.js';", `_meta: { ${META}: BUILT }`) },
  { name: 'imported read-only const overridden inline after its spread', code: insertingTool("import { READ_ONLY } from './policies.js';", `_meta: { ${META}: { ...READ_ONLY, side_effects: 'internal_write', idempotent: false, retry: 'never' } }`) },
];

const ADD_POINTS = 'UPDATE customers SET points = points + $1';

const invalidCases: Invalid[] = [
  // --- the cases, with the helper or client in another file ---
  invalid(
    'issue: idempotent: true, retry: safe over an imported helper that runs points = points + $1',
    defineTool("import { addPoints } from './points.js';", NATURALLY_IDEMPOTENT, '    await addPoints(customerId, points);'),
    'notIdempotent',
    'idempotent: true',
    {
      tool: '`add_loyalty_points`',
      claim: '`idempotent: true`',
      operation: `\`${ADD_POINTS}\` (points.ts line 6, through \`addPoints(…)\` at line 10)`,
      consequence: 'a second call adds to `points` again',
      fix: "Declare it `idempotent: false, retry: 'never'`, or make it idempotent with a key (`idempotent: 'with_key'` and a `key`).",
    },
  ),
  invalid(
    'issue: an MCP tool with idempotentHint: true that creates a Stripe payment on an imported client, with no key',
    mcpTool(
      "import { stripe } from './clients.js';",
      'charge',
      'readOnlyHint: false, destructiveHint: true, idempotentHint: true',
      "  await stripe.paymentIntents.create({ amount, currency: 'usd', customer: id });",
    ),
    'notIdempotent',
    'idempotentHint: true',
  ),
  invalid(
    'issue: readOnlyHint: true over a Stripe payment created on an imported client',
    mcpTool("import { stripe } from './clients.js';", 'get_checkout', 'readOnlyHint: true', "  await stripe.paymentIntents.create({ amount, currency: 'usd', customer: id });"),
    'notReadOnly',
    'readOnlyHint: true',
  ),
  invalid(
    'issue: a read-only tool whose imported helper sends an email',
    mcpTool("import { getPoints, sendReceipt } from './points.js';", 'get_receipt', 'readOnlyHint: true', '  await getPoints(id);\n  await sendReceipt(email, id);'),
    'notReadOnly',
    'readOnlyHint: true',
  ),
  invalid(
    "issue: side_effects: 'none' on an AI SDK tool whose imported helper sends an email",
    `${SPEC}
import { tool } from 'ai';
import { sendReceipt } from './points.js';
export const receipt = declarePolicy(tool({
  description: 'Look up a receipt',
  inputSchema: z.object({ email: z.string(), orderId: z.string() }),
  execute: async ({ email, orderId }) => sendReceipt(email, orderId),
}), { side_effects: 'none', idempotent: true, retry: 'safe' });`,
    'notReadOnly',
    "side_effects: 'none'",
  ),
  // --- the ways across a file boundary ---
  invalid(
    'a re-exported, renamed helper (export { addPoints as creditPoints } from …)',
    defineTool("import { creditPoints } from './effects-reexports.js';", NATURALLY_IDEMPOTENT, '    await creditPoints(customerId, points);'),
    'notIdempotent',
    'idempotent: true',
  ),
  invalid(
    'three files deep: a helper, its local helper, a helper of a third file on a client re-exported by a barrel',
    defineTool("import { awardBonus } from './points.js';", NATURALLY_IDEMPOTENT, '    await awardBonus(customerId);'),
    'notIdempotent',
    'idempotent: true',
    {
      tool: '`add_loyalty_points`',
      claim: '`idempotent: true`',
      operation: '`UPDATE customers SET points = points + 2` (ledger.ts line 5, through `awardBonus(…)` at line 10)',
      consequence: 'a second call adds to `points` again',
      fix: "Declare it `idempotent: false, retry: 'never'`, or make it idempotent with a key (`idempotent: 'with_key'` and a `key`).",
    },
  ),
  invalid(
    'a shared helper in another file, called with the action whose branch adds',
    defineTool("import { changePoints } from './points.js';", NATURALLY_IDEMPOTENT, "    await changePoints('add', customerId, points);"),
    'notIdempotent',
    'idempotent: true',
  ),
  invalid(
    'a local helper of the linted file that calls the imported one',
    defineTool(
      "import { addPoints } from './points.js';\nasync function award(id: string, n: number) { await addPoints(id, n); }",
      NATURALLY_IDEMPOTENT,
      '    await award(customerId, points);',
    ),
    'notIdempotent',
    'idempotent: true',
  ),
  invalid(
    'with_key on a framework tool whose imported helper sends with no key, and nothing looks one up',
    `${SPEC}
import { tool } from 'ai';
import { sendReceipt } from './points.js';
export const receipt = declarePolicy(tool({
  description: 'Email a receipt',
  inputSchema: z.object({ email: z.string(), orderId: z.string() }),
  execute: async ({ email, orderId }) => sendReceipt(email, orderId),
}), { side_effects: 'message_out', idempotent: 'with_key', retry: 'safe_with_same_key' });`,
    'keyNotUsed',
    "idempotent: 'with_key'",
  ),
  // --- an imported const policy or hints (trial: app/src/probe/spread.ts) ---
  invalid('trial repro: _meta policy is an imported const', insertingTool("import { READ_ONLY } from './policies.js';", `_meta: { ${META}: READ_ONLY }`), 'notReadOnly', 'READ_ONLY } }', {
    tool: '`fb_imported`',
    claim: "`side_effects: 'none'` (in `READ_ONLY`, policies.ts line 3)",
    operation: '`INSERT INTO rs_trial_feedback` (line 7)',
    does: 'inserts into `rs_trial_feedback` and takes no deduplication key',
    fix: "Declare the side effects it has (`side_effects: 'internal_write'`, `'external_write'`, `'money_out'` or `'message_out'`) and whether a retry is safe.",
  }),
  invalid('trial repro: annotations spread an imported const', insertingTool("import { READ_ONLY_HINTS } from './policies.js';", 'annotations: { ...READ_ONLY_HINTS }'), 'notReadOnly', '{ ...READ_ONLY_HINTS }'),
  invalid('a member of an imported const, itself a spread', insertingTool("import { presets } from './policies.js';", `_meta: { ${META}: presets.read }`), 'notReadOnly', 'presets.read'),
];

ruleTester.run('no-contradicted-policy-type-checked', rule, { valid, invalid: invalidCases });
