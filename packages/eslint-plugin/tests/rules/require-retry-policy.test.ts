import { RuleTester } from '@typescript-eslint/rule-tester';

import rule from '../../src/rules/require-retry-policy.js';
import { readCase } from '../support/cases.js';

// Sources are flush left so that the line and column in each case read straight off the code.
// Cases B08, B10, B11, B12, B13 and B15 are the files in /work/shared/cases, read from tests/cases.
const ruleTester = new RuleTester();
const B08 = readCase('B08.ts');
const B10 = readCase('B10.ts');
const B11 = readCase('B11.ts');
const B12 = readCase('B12.ts');
const B13 = readCase('B13.ts');

// B13 with @retrysafe/spec's real fields, as the cases README asks. Its policy is declared (and
// contradicts itself, which is no-unsafe-retry-policy's report and a tsc error), so nothing is missing.
const B13_SPEC = B13.replace("import { defineTool } from '@idem/dsl'; // placeholder: express this with @retrysafe/spec's defineTool", "import { defineTool } from '@retrysafe/spec';")
  .replace("sideEffects: 'external'", "sideEffects: 'message_out'")
  .replace('retry: { maxAttempts: 3, backoffMs: 500 }, // EXPECT: R2', "retry: 'safe', // EXPECT: R2")
  .replace('async run(', 'async execute(');
const B15 = readCase('B15.ts');

// The remedy names the reverse-DNS key @retrysafe/spec/adapters/mcp publishes (docs/mcp.md), never the bare key.
const MCP_REMEDY =
  "Add `annotations` with `readOnlyHint: true`, or with both `destructiveHint` and `idempotentHint`; or declare a full policy in `_meta: { 'io.github.retrysafe/policy': {...} }`.";
const TOOL_CLASS_REMEDY =
  'Add a field `metadata = { retrysafe: {...} }`, or wrap an instance in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry.';

ruleTester.run('require-retry-policy', rule, {
  valid: [
    {
      name: 'a spread after the annotations may replace them',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { FastMCP } from 'fastmcp';
import { shared } from './presets.js';
const server = new McpServer({ name: 's', version: '1' });
const readPreset = { annotations: { readOnlyHint: true } };
server.registerTool('get_2', { annotations: { title: 'Get' }, ...readPreset }, h);
const fm = new FastMCP({ name: 'f', version: '1.0.0' });
fm.addTool({ name: 'get_4', annotations: { title: 'x' }, ...shared, execute });`,
    },
    {
      // Found by a new-user trial: the rule doc promised this, the judgement only looked for
      // spreads inside annotations and policies.
      name: 'a tool config that spreads another object may bring its declaration along',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { FastMCP } from 'fastmcp';
import { tool } from '@langchain/core/tools';
import { shared } from './presets.js';
const server = new McpServer({ name: 's', version: '1' });
const local = { annotations: { readOnlyHint: true } };
server.registerTool('b', { ...local, description: 'x' }, h);
server.registerTool('a', { ...shared, description: 'x' }, h);
const fm = new FastMCP({ name: 'f', version: '1.0.0' });
fm.addTool({ name: 'fm', description: 'fm', ...shared, execute });
export const l = tool(fn, { name: 'l', description: 'l', schema, ...shared });`,
    },
    // --- cases from real failures ---
    { name: 'B10.ts: MCP annotations state every hint, so R2 passes', code: B10 },
    { name: 'B12.ts: both tools state destructiveHint and idempotentHint (the lie is no-unsafe-retry-policy’s)', code: B12 },
    { name: 'B13.ts: the placeholder DSL’s defineTool is not a recognised tool (its contradiction is no-unsafe-retry-policy’s)', code: B13 },
    { name: 'B13.ts (as @retrysafe/spec defineTool): the policy is declared', code: B13_SPEC },
    { name: 'B15.ts: trigger.dev task({ retry }) is not an agent tool', code: B15 },

    // --- @retrysafe/spec defineTool ---
    {
      name: 'defineTool with side effects, idempotency and retry',
      code: `import { defineTool, key } from '@retrysafe/spec';
export const issueRefund = defineTool({
  name: 'issue_refund',
  sideEffects: 'money_out',
  idempotent: 'with_key',
  retry: 'safe_with_same_key',
  maxAttempts: 1,
  key: ({ run, input }) => key\`\${run.id}:\${input.orderId}:refund\`,
  execute: async (input, { key }) => payments.refund(input, { idempotencyKey: key }),
});`,
    },
    {
      name: 'defineTool config spreading shared fields may declare them',
      code: `import { defineTool } from '@retrysafe/spec';
const base = makeBase();
export const t = defineTool({ ...base, name: 'search_orders', execute: async () => [] });`,
    },
    {
      name: 'defineTool config from another module is not judged',
      code: `import { defineTool } from '@retrysafe/spec';
import { searchOrdersConfig } from './config';
export const t = defineTool(searchOrdersConfig);`,
    },
    {
      name: 'defineTool config held in a const is followed',
      code: `import { defineTool } from '@retrysafe/spec';
const config = { name: 'search_orders', sideEffects: 'none', idempotent: true, retry: 'safe', execute: async () => [] } as const;
export const t = defineTool(config);`,
    },

    // --- MCP high-level server ---
    {
      name: 'MCP registerTool: readOnlyHint: true alone declares a read',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('get_order', { description: 'Get an order', annotations: { readOnlyHint: true } }, async () => ({ content: [] }));`,
    },
    {
      name: 'MCP registerTool: the bare _meta.retrysafe of earlier releases still declares a full policy (read for compatibility)',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
server.registerTool('issue_refund', {
  description: 'Refund an order',
  _meta: { retrysafe: { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 1 } },
}, async () => ({ content: [] }));`,
    },
    {
      // The key @retrysafe/spec/adapters/mcp publishes and docs/mcp.md recommends (MCP 2026-07-28 _meta rules).
      name: 'MCP registerTool: _meta["io.github.retrysafe/policy"] declares a full policy',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
server.registerTool('create_ticket', {
  _meta: { 'io.github.retrysafe/policy': { side_effects: 'internal_write', idempotent: 'with_key', retry: 'safe_with_same_key' } },
}, async () => ({ content: [] }));`,
    },
    {
      name: 'MCP registerTool: annotations held in a const',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: true };
declare const server: McpServer;
server.registerTool('set_status', { annotations: WRITE }, async () => ({ content: [] }));`,
    },
    {
      name: 'MCP registerTool: annotations imported from elsewhere are not judged',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WRITE } from './hints';
declare const server: McpServer;
server.registerTool('set_status', { annotations: WRITE }, async () => ({ content: [] }));`,
    },
    {
      name: 'MCP registerTool: a config imported from elsewhere is not judged',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { sendEmailConfig } from './configs';
declare const server: McpServer;
server.registerTool('send_email', sendEmailConfig, async () => ({ content: [] }));`,
    },
    {
      name: 'MCP v2 (@modelcontextprotocol/server) registerTool with hints',
      code: `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('set_status', {
  annotations: { destructiveHint: false, idempotentHint: true },
}, async () => ({ content: [] }));`,
    },
    {
      name: 'MCP server.tool(name, description, schema, annotations, cb)',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.tool('set_status', 'Set the status', { id: z.string() }, { destructiveHint: false, idempotentHint: true }, async () => ({ content: [] }));`,
    },
    {
      name: 'MCP server.tool(name, annotations, cb): a hints-only object is annotations',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.tool('list_orders', { readOnlyHint: true }, async () => ({ content: [] }));`,
    },
    {
      name: 'MCP server.tool(name, description, X, cb): an identifier that is not visible may be the annotations',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { HINTS } from './hints';
export function register(server: McpServer, toolName: string, toolDescription: string) {
  server.tool(toolName, toolDescription, HINTS, async () => ({ content: [] }));
}`,
    },
    {
      name: 'MCP registerTool wrapped in declarePolicy',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { declarePolicy } from '@retrysafe/spec';
declare const server: McpServer;
declarePolicy(server.registerTool('get_order', {}, async () => ({ content: [] })), { side_effects: 'none', idempotent: true, retry: 'safe' });`,
    },

    // --- MCP low-level server ---
    {
      name: 'MCP low-level: inline tool objects with hints',
      code: `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: 'search', description: 'Search', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    { name: 'archive', description: 'Archive', inputSchema: { type: 'object' }, annotations: { destructiveHint: true, idempotentHint: true } },
  ],
}));`,
    },
    {
      name: 'MCP low-level: const tool objects referenced from the handler, with hints',
      code: `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
const listChannelsTool: Tool = { name: 'list_channels', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } };
const TOOLS = [listChannelsTool];
declare const server: Server;
server.setRequestHandler(ListToolsRequestSchema, async () => {
  return { tools: TOOLS };
});`,
    },
    {
      name: 'a tools/list handler in a file without MCP imports is not recognised by its schema identifier',
      code: `declare const server: { setRequestHandler(a: unknown, b: unknown): void };
declare const ListToolsRequestSchema: unknown;
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'x', inputSchema: {} }] }));`,
    },

    // --- Vercel AI SDK ---
    {
      name: 'AI SDK tool wrapped in declarePolicy',
      code: `import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
import { z } from 'zod';
export const weather = declarePolicy(
  tool({ description: 'Get the weather', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => city }),
  { side_effects: 'none', idempotent: true, retry: 'safe' },
);`,
    },
    {
      name: 'AI SDK tool assigned to a const that is passed to declarePolicy later in the file',
      code: `import { tool as aiTool } from 'ai';
import * as retrysafe from '@retrysafe/spec';
const sendInvoice = aiTool({ description: 'Send an invoice', inputSchema: schema, execute: async () => 'ok' });
retrysafe.declarePolicy(sendInvoice, { side_effects: 'message_out', idempotent: 'with_key', retry: 'safe_with_same_key' });
export const tools = { sendInvoice };`,
    },
    {
      name: 'AI SDK tool whose policy is a shared const',
      code: `import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
import { READS } from './policies';
export const tools = { weather: declarePolicy(tool({ description: 'Weather', inputSchema: s, execute }), READS) };`,
    },

    // --- OpenAI Agents ---
    {
      name: 'OpenAI Agents tool wrapped in declarePolicy (agents-core)',
      code: `import { tool } from '@openai/agents-core';
import { declarePolicy } from '@retrysafe/spec';
export const refund = declarePolicy(tool({ name: 'refund_order', description: 'Refund', parameters: p, execute }), {
  side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 1,
} satisfies Record<string, unknown>);`,
    },

    // --- LangChain ---
    {
      name: 'LangChain tool(fn, { metadata: { retrysafe } })',
      code: `import { tool } from '@langchain/core/tools';
export const search = tool(async ({ q }) => q, {
  name: 'search_docs',
  description: 'Search the docs',
  schema: s,
  metadata: { retrysafe: { side_effects: 'none', idempotent: true, retry: 'safe' } },
});`,
    },
    {
      name: 'LangChain new DynamicStructuredTool with metadata.retrysafe',
      code: `import { DynamicStructuredTool } from '@langchain/core/tools';
export const t = new DynamicStructuredTool({
  name: 'search_docs', description: 'Search', schema: s, func: async () => '',
  metadata: { owner: 'docs', retrysafe: { side_effects: 'none', idempotent: true, retry: 'safe' } },
});`,
    },
    {
      name: 'LangChain: a config built elsewhere is not judged',
      code: `import { tool } from '@langchain/core/tools';
export const search = tool(async ({ q }) => q, buildConfig('search_docs'));`,
    },
    {
      name: 'LangChain DynamicTool wrapped in declarePolicy',
      code: `import { DynamicTool } from 'langchain/tools';
import { declarePolicy } from '@retrysafe/spec';
export const t = declarePolicy(new DynamicTool({ name: 'now', description: 'Time', func: async () => '' }), POLICY);`,
    },

    // --- LangChain tool classes ---
    {
      name: 'LangChain class: a metadata field with retrysafe',
      code: `import { StructuredTool } from '@langchain/core/tools';
import { z } from 'zod';
export class RefundTool extends StructuredTool {
  name = 'issue_refund';
  description = 'Refund part of an order';
  schema = z.object({ orderId: z.string() });
  metadata = { retrysafe: { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 1 } };
  async _call({ orderId }: { orderId: string }) { return refund(orderId); }
}`,
    },
    {
      name: 'LangChain class: an instance wrapped in declarePolicy',
      code: `import { StructuredTool } from '@langchain/core/tools';
import { declarePolicy } from '@retrysafe/spec';
class RefundTool extends StructuredTool {
  name = 'issue_refund';
  description = 'Refund';
  schema = s;
  async _call() { return 'ok'; }
}
export const refundTool = declarePolicy(new RefundTool(), { side_effects: 'money_out', idempotent: false, retry: 'never' });`,
    },
    {
      name: 'LangChain class: an instance held in a const and passed to declarePolicy later',
      code: `import { Tool } from 'langchain/tools';
import * as retrysafe from '@retrysafe/spec';
class ClockTool extends Tool {
  name = 'now';
  description = 'The time';
  async _call() { return new Date().toISOString(); }
}
const clock = new ClockTool();
retrysafe.declarePolicy(clock, { side_effects: 'none', idempotent: true, retry: 'safe' });
export const tools = [clock];`,
    },
    {
      name: 'LangChain class: metadata given to an instance, as StructuredTool’s constructor takes it',
      code: `import { StructuredTool } from '@langchain/core/tools';
class SearchTool extends StructuredTool {
  name = 'search_docs';
  description = 'Search';
  schema = s;
  async _call() { return ''; }
}
export const search = new SearchTool({ metadata: { retrysafe: { side_effects: 'none', idempotent: true, retry: 'safe' } } });`,
    },
    {
      name: 'LangChain class: metadata set in the constructor (this.metadata = ..., super({ metadata }))',
      code: `import { StructuredTool, DynamicStructuredTool } from '@langchain/core/tools';
const READS = { side_effects: 'none', idempotent: true, retry: 'safe' } as const;
export class SearchTool extends StructuredTool {
  name = 'search_docs';
  constructor(fields?: object) {
    super(fields);
    this.metadata = { retrysafe: READS };
  }
}
export class LookupTool extends DynamicStructuredTool {
  constructor() {
    super({ name: 'lookup', description: 'Look up', schema: s, func: lookup, metadata: { retrysafe: READS } });
  }
}`,
    },
    {
      name: 'LangChain class: a class expression assigned to a const, declared on an instance',
      code: `import { StructuredTool } from '@langchain/core/tools';
import { declarePolicy } from '@retrysafe/spec';
const RefundTool = class extends StructuredTool {
  name = 'issue_refund';
  async _call() { return 'ok'; }
};
export const refund = declarePolicy(new RefundTool(), POLICY);`,
    },
    {
      name: 'LangChain class: a local class named StructuredTool is not LangChain’s',
      code: `import { tool } from '@langchain/core/tools';
class StructuredTool { name = 'base'; }
export class RefundTool extends StructuredTool { name = 'issue_refund'; }
export const search = tool(find, { name: 'search', metadata: { retrysafe: { side_effects: 'none', idempotent: true, retry: 'safe' } } });`,
    },
    {
      name: 'LangChain class: a StructuredTool from another package is not LangChain’s',
      code: `import { DynamicTool } from '@langchain/core/tools';
import { StructuredTool } from 'my-agent-lib';
export class RefundTool extends StructuredTool { name = 'issue_refund'; }
export const tools: DynamicTool[] = [];`,
    },
    {
      name: 'LangChain class: another LangChain class (BaseToolkit) is not a tool',
      code: `import { BaseToolkit } from '@langchain/core/tools';
export class PaymentsToolkit extends BaseToolkit { tools = []; }`,
    },
    {
      // A documented limit: an abstract base is not a tool, and a subclass of a local class is not followed.
      name: 'LangChain class: an abstract base is not a tool, and its subclasses are not followed',
      code: `import { StructuredTool } from '@langchain/core/tools';
export abstract class PaymentsTool extends StructuredTool {
  protected client = makeClient();
}
export class RefundTool extends PaymentsTool {
  name = 'issue_refund';
  async _call() { return this.client.refund(); }
}`,
    },

    // --- FastMCP ---
    {
      name: 'FastMCP addTool: readOnlyHint: true alone declares a read',
      code: `import { FastMCP } from 'fastmcp';
import { z } from 'zod';
const server = new FastMCP({ name: 'orders', version: '1.0.0' });
server.addTool({
  name: 'get_order',
  description: 'Get an order',
  parameters: z.object({ orderId: z.string() }),
  annotations: { readOnlyHint: true },
  execute: async ({ orderId }) => JSON.stringify(await getOrder(orderId)),
});`,
    },
    {
      name: 'FastMCP addTool: destructiveHint and idempotentHint both stated',
      code: `import { FastMCP } from 'fastmcp';
const server = new FastMCP({ name: 'mail', version: '1.0.0' });
server.addTool({
  name: 'send_email',
  parameters: schema,
  annotations: { title: 'Send', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  execute: send,
});`,
    },
    {
      name: 'FastMCP addTool: _meta["io.github.retrysafe/policy"] declares a full policy (FastMCP lists _meta as given)',
      code: `import { FastMCP } from 'fastmcp';
const server = new FastMCP({ name: 'pay', version: '1.0.0' });
server.addTool({
  name: 'issue_refund',
  _meta: { 'io.github.retrysafe/policy': { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' } },
  execute: refund,
});`,
    },
    {
      name: 'FastMCP addTool: the bare _meta.retrysafe still declares a full policy (FastMCP lists _meta as given)',
      code: `import { FastMCP } from 'fastmcp';
const server = new FastMCP({ name: 'pay', version: '1.0.0' });
server.addTool({
  name: 'issue_refund',
  _meta: { ui: { resourceUri: 'ui://refund' }, retrysafe: { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' } },
  execute: refund,
});`,
    },
    {
      name: 'FastMCP addTool: the tool object wrapped in declarePolicy, in place and through a const',
      code: `import { FastMCP } from 'fastmcp';
import { declarePolicy } from '@retrysafe/spec';
const server = new FastMCP({ name: 'pay', version: '1.0.0' });
server.addTool(declarePolicy({ name: 'issue_refund', execute: refund }, { side_effects: 'money_out', idempotent: false, retry: 'never' }));
const chargeTool = declarePolicy({ name: 'charge_card', execute: charge }, { side_effects: 'money_out', idempotent: false, retry: 'never' });
server.addTool(chargeTool);`,
    },
    {
      name: 'FastMCP addTool: a const tool object passed to declarePolicy elsewhere in the file',
      code: `import { FastMCP } from 'fastmcp';
import { declarePolicy } from '@retrysafe/spec';
const refundTool = { name: 'issue_refund', execute: refund };
declarePolicy(refundTool, { side_effects: 'money_out', idempotent: false, retry: 'never' });
const server = new FastMCP({ name: 'pay', version: '1.0.0' });
server.addTool(refundTool);`,
    },
    {
      name: 'FastMCP addTool: a tool object imported from elsewhere is not judged',
      code: `import { FastMCP } from 'fastmcp';
import { refundTool } from './tools';
const server = new FastMCP({ name: 'pay', version: '1.0.0' });
server.addTool(refundTool);`,
    },
    {
      name: 'FastMCP addTools: every tool object states its hints',
      code: `import { FastMCP } from 'fastmcp';
const server = new FastMCP({ name: 'notes', version: '1.0.0' });
const listNotes = { name: 'list_notes', annotations: { readOnlyHint: true }, execute: list };
server.addTools([listNotes, { name: 'delete_note', annotations: { destructiveHint: true, idempotentHint: true }, execute: remove }]);`,
    },
    {
      name: 'FastMCP: addTool on an object that is not a FastMCP server',
      code: `import { FastMCP } from 'fastmcp';
import { Toolbox } from 'my-agent-lib';
export const server = new FastMCP({ name: 's', version: '1.0.0' });
const box = new Toolbox();
box.addTool({ name: 'hammer', execute: hit });
export function wire(registry: Toolbox) { registry.addTool({ name: 'saw', execute: cut }); }`,
    },
    {
      name: 'FastMCP: a FastMCP class from another package is not FastMCP',
      code: `import type { Tool } from 'fastmcp';
import { FastMCP } from 'fast-mcp-lite';
const server = new FastMCP({ name: 's', version: '1.0.0' });
server.addTool({ name: 'send_email', execute: send });`,
    },
    {
      name: 'FastMCP: addTool in a file that does not import fastmcp',
      code: `import { server } from './server';
server.addTool({ name: 'send_email', execute: send });`,
    },

    // --- look-alikes that are not tool definitions ---
    { name: 'a tool() from another library', code: `import { tool } from 'some-other-lib';\nexport const t = tool({ name: 'x', execute: async () => 1 });` },
    { name: 'a local function named tool', code: `function tool(x: object) { return x; }\nexport const t = tool({ name: 'x' });` },
    { name: 'a defineTool from a placeholder DSL is not ours to require', code: `import { defineTool } from '@idem/dsl';\nexport const t = defineTool({ name: 'x', run: async () => 1 });` },
    { name: 'registerTool in a file that imports no MCP package', code: `declare const registry: { registerTool(n: string, c: object, f: () => void): void };\nregistry.registerTool('x', {}, () => {});` },
    { name: 'server.tool in an MCP file whose last argument is not a handler', code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\ndeclare const ui: { tool(n: string, o: object): void };\nui.tool('pen', { size: 2 });` },
    { name: 'new McpServer itself is not a tool', code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport const server = new McpServer({ name: 's', version: '1' });` },

    // --- plain JavaScript, no types ---
    {
      name: '.js: CommonJS AI SDK tool with declarePolicy',
      filename: 'tools.js',
      code: `const { tool } = require('ai');
const { declarePolicy } = require('@retrysafe/spec');
module.exports.search = declarePolicy(tool({ description: 'Search', execute: async () => [] }), { side_effects: 'none', idempotent: true, retry: 'safe' });`,
    },
    {
      name: '.js: defineTool with every field',
      filename: 'tools.js',
      code: `import { defineTool } from '@retrysafe/spec';
export const t = defineTool({ name: 'get_order', sideEffects: 'none', idempotent: true, retry: 'safe', execute: async () => ({}) });`,
    },

    // --- toolFactories ---
    {
      name: 'toolFactories: a custom factory with declarePolicy',
      options: [{ toolFactories: [{ name: 'createTool', from: 'my-lib' }] }],
      code: `import { createTool } from 'my-lib';
import { declarePolicy } from '@retrysafe/spec';
export const t = declarePolicy(createTool({ id: 'x' }), { side_effects: 'none', idempotent: true, retry: 'safe' });`,
    },
    {
      name: 'toolFactories: a custom factory whose config carries the policy fields',
      options: [{ toolFactories: [{ name: 'tools.create', from: 'my-lib', configArgument: 1 }] }],
      code: `import * as lib from 'my-lib';
export const t = lib.tools.create('x', { sideEffects: 'none', idempotent: true, retry: 'safe' });`,
    },
  ],
  invalid: [
    {
      name: 'annotations written after a spread replace what it brought, and are judged',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
const readPreset = { annotations: { readOnlyHint: true } };
server.registerTool('get_1', { ...readPreset, annotations: { title: 'Get' } }, h);`,
      errors: [{ messageId: 'incompleteAnnotations', line: 4, column: 60 }],
    },
    // --- cases from real failures ---
    {
      name: 'B08.ts: OpenAI Agents refund tool with no policy (R2 on the tool({ line)',
      code: B08,
      errors: [{ messageId: 'missingPolicy', line: 12, column: 27, endLine: 12, endColumn: 31, data: { tool: 'Tool `refund_order`', remedy: 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry.' } }],
    },
    {
      name: 'B11.ts: MCP send_email registered with no annotations (R2 on the registerTool( line)',
      code: B11,
      errors: [
        {
          messageId: 'missingPolicy',
          line: 14,
          column: 1,
          endLine: 14,
          endColumn: 20,
          data: { tool: 'Tool `send_email`', remedy: MCP_REMEDY },
          // Its handler sends mail with Nodemailer, which takes no deduplication key: not idempotent.
          suggestions: [
            {
              messageId: 'declareInferred',
              output: B11.replace(
                'inputSchema: { to: z.string(), subject: z.string(), body: z.string() } }',
                'inputSchema: { to: z.string(), subject: z.string(), body: z.string() }, annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false } }',
              ),
            },
          ],
        },
      ],
    },

    {
      // Found by a new-user trial: a schema with a field named like a hint (`title`) was read as the
      // annotations, and the advice to add hints there crashes the MCP SDK at registration.
      name: 'MCP server.tool(name, description, schema, cb): a schema field named title is not annotations',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 'x', version: '1' });
server.tool('create_issue', 'Create a GitHub issue', { title: z.string() }, async ({ title }) => ({ content: [] }));`,
      errors: [{ messageId: 'missingPolicy', line: 4, column: 1, endLine: 4, endColumn: 12 }],
    },

    // --- @retrysafe/spec defineTool (plain JS users get no tsc error) ---
    {
      name: 'defineTool without retry',
      filename: 'tools.js',
      code: `import { defineTool } from '@retrysafe/spec';
export const t = defineTool({ name: 'get_order', sideEffects: 'none', idempotent: true, execute: async () => ({}) });`,
      errors: [{ messageId: 'incompletePolicy', line: 2, column: 18, data: { tool: 'Tool `get_order`', missing: '`retry`' } }],
    },
    {
      name: 'defineTool with no policy fields at all',
      code: `import { defineTool as define } from '@retrysafe/spec';
export const t = define({ name: 'send_email', execute: async () => ({}) });`,
      errors: [{ messageId: 'incompletePolicy', line: 2, column: 18, data: { tool: 'Tool `send_email`', missing: '`sideEffects`, `idempotent` and `retry`' } }],
    },

    // --- MCP high-level server ---
    {
      name: 'MCP registerTool: annotations that state only idempotentHint',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
server.registerTool('charge_card', {
  annotations: { readOnlyHint: false, idempotentHint: false },
}, async () => ({ content: [] }));`,
      errors: [{ messageId: 'incompleteAnnotations', line: 4, column: 16, data: { tool: 'Tool `charge_card`', missing: '`destructiveHint`' } }],
    },
    {
      name: 'MCP registerTool: only a title in annotations',
      code: `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export function register(server: McpServer) {
  server.registerTool('append_note', { annotations: { title: 'Append a note' } }, async () => ({ content: [] }));
}`,
      errors: [{ messageId: 'incompleteAnnotations', line: 3, column: 53, data: { tool: 'Tool `append_note`', missing: '`destructiveHint` and `idempotentHint`' } }],
    },
    {
      name: 'MCP registerTool: an incomplete _meta.retrysafe policy',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
server.registerTool('issue_refund', { _meta: { retrysafe: { side_effects: 'money_out', idempotent: 'with_key' } } }, async () => ({ content: [] }));`,
      errors: [{ messageId: 'incompletePolicy', line: 3, column: 59, data: { tool: 'Tool `issue_refund`', missing: '`retry`' } }],
    },
    {
      // Look-alikes of the published key declare nothing: another namespace, no namespace, the key
      // spelt as a nested path. The remedy names the reverse-DNS key.
      name: 'MCP registerTool: _meta keys that only look like the policy key',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
server.registerTool('refund_a', { _meta: { 'io.github.other/policy': { side_effects: 'none', idempotent: true, retry: 'safe' } } }, async () => ({ content: [] }));
server.registerTool('refund_b', { _meta: { policy: { side_effects: 'none', idempotent: true, retry: 'safe' } } }, async () => ({ content: [] }));
server.registerTool('refund_c', { _meta: { io: { github: { retrysafe: { side_effects: 'none', idempotent: true, retry: 'safe' } } } } }, async () => ({ content: [] }));`,
      errors: [
        { messageId: 'missingPolicy', line: 3, column: 1, data: { tool: 'Tool `refund_a`', remedy: MCP_REMEDY } },
        { messageId: 'missingPolicy', line: 4, column: 1, data: { tool: 'Tool `refund_b`', remedy: MCP_REMEDY } },
        { messageId: 'missingPolicy', line: 5, column: 1, data: { tool: 'Tool `refund_c`', remedy: MCP_REMEDY } },
      ],
    },
    {
      name: 'MCP registerTool: an incomplete _meta["io.github.retrysafe/policy"]',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
server.registerTool('issue_refund', { _meta: { 'io.github.retrysafe/policy': { side_effects: 'money_out', retry: 'never' } } }, async () => ({ content: [] }));`,
      errors: [{ messageId: 'incompletePolicy', line: 3, column: 78, data: { tool: 'Tool `issue_refund`', missing: '`idempotent`' } }],
    },
    {
      name: 'MCP v2 (@modelcontextprotocol/server) registerTool without annotations',
      code: `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
server
  .registerTool('post_message', { description: 'Post a message' }, async () => ({ content: [] }));`,
      errors: [{ messageId: 'missingPolicy', line: 3, column: 1, endLine: 4, endColumn: 16 }],
    },
    {
      name: 'MCP server.tool(name, description, schema, cb): no annotations',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.tool('send_sms', 'Send an SMS', { to: z.string(), text: z.string() }, async () => ({ content: [] }));`,
      errors: [{ messageId: 'missingPolicy', line: 4, column: 1, data: { tool: 'Tool `send_sms`', remedy: MCP_REMEDY } }],
    },
    {
      name: 'MCP server.tool(name, cb) in a CommonJS .js file',
      filename: 'server.js',
      code: `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const server = new McpServer({ name: 's', version: '1' });
server.tool('ping', async () => ({ content: [] }));`,
      errors: [{ messageId: 'missingPolicy', line: 3, column: 1 }],
    },
    {
      name: 'MCP server.tool with a dynamic name and description and a visible schema (a proxy registration)',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
export class Proxy extends McpServer {
  registerProxyTool(remote: { name: string; description?: string }) {
    this.tool(remote.name, remote.description ?? remote.name, { q: z.string() }, async () => ({ content: [] }));
  }
}`,
      errors: [{ messageId: 'missingPolicy', line: 5, column: 5, endColumn: 14, data: { tool: 'This tool', remedy: MCP_REMEDY } }],
    },
    {
      name: 'MCP server.tool(name, schema.shape, cb): a member read is a schema, not annotations',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SendSchema } from './schemas';
declare const server: McpServer;
server.tool('send_sms', SendSchema.shape, async () => ({ content: [] }));`,
      errors: [{ messageId: 'missingPolicy', line: 4, column: 1 }],
    },
    {
      name: 'MCP server.tool(name, description, shape, cb) with the shape built by a call',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
const shape = toZodShape(remote.inputSchema);
server.tool(remote.name, remote.description || remote.name, shape, async () => ({ content: [] }));`,
      errors: [{ messageId: 'missingPolicy', line: 4, column: 1 }],
    },
    {
      name: 'MCP tool name held in a const',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const NAME = 'create_invoice';
declare const server: McpServer;
server.registerTool(NAME, {}, async () => ({ content: [] }));`,
      errors: [{ messageId: 'missingPolicy', line: 4, column: 1, data: { tool: 'Tool `create_invoice`', remedy: MCP_REMEDY } }],
    },

    // --- MCP low-level server ---
    {
      name: 'MCP low-level: inline tool objects without annotations (server-github shape)',
      code: `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => {
  return {
    tools: [
      {
        name: 'create_issue',
        description: 'Create an issue',
        inputSchema: zodToJsonSchema(CreateIssueSchema),
      },
      { name: 'get_issue', description: 'Get an issue', inputSchema: zodToJsonSchema(GetIssueSchema), annotations: { readOnlyHint: true } },
    ],
  };
});`,
      errors: [{ messageId: 'missingPolicy', line: 7, column: 7, endLine: 8, endColumn: 29, data: { tool: 'Tool `create_issue`', remedy: MCP_REMEDY } }],
    },
    {
      name: 'MCP low-level: const tool objects referenced from the handler (server-slack shape), reported where defined',
      code: `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import * as types from '@modelcontextprotocol/sdk/types.js';
const listChannelsTool = { name: 'slack_list_channels', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } };
const postMessageTool = {
  name: 'slack_post_message',
  inputSchema: { type: 'object', properties: { channel_id: { type: 'string' } } },
};
const extra = [{ name: 'slack_add_reaction', inputSchema: { type: 'object' } }];
async function main(server: Server) {
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: [listChannelsTool, postMessageTool, ...extra] }));
}`,
      errors: [
        { messageId: 'missingPolicy', line: 4, column: 25, endLine: 5, endColumn: 29 },
        { messageId: 'missingPolicy', line: 8, column: 16 },
      ],
    },
    {
      name: 'MCP low-level: tools from Object.values of a const map, listed by a function declaration handler',
      code: `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const TOOLS = {
  read: { name: 'read_graph', inputSchema: {}, annotations: { readOnlyHint: true } },
  add: { name: 'add_observations', inputSchema: {} },
};
async function listTools() { return { tools: Object.values(TOOLS) }; }
declare const server: Server;
server.setRequestHandler(ListToolsRequestSchema, listTools);
server.setRequestHandler(ListToolsRequestSchema, listTools);`,
      errors: [{ messageId: 'missingPolicy', line: 5, column: 8 }],
    },

    // --- Vercel AI SDK ---
    {
      name: 'AI SDK: tools record, named by its key',
      code: `import { generateText, tool } from 'ai';
import { z } from 'zod';
await generateText({
  model,
  tools: {
    sendInvoice: tool({ description: 'Send an invoice', inputSchema: z.object({ id: z.string() }), execute: async () => 'ok' }),
  },
});`,
      errors: [{ messageId: 'missingPolicy', line: 6, column: 18, endColumn: 22, data: { tool: 'Tool `sendInvoice`', remedy: 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry.' } }],
    },
    {
      name: 'AI SDK: aliased import',
      code: `import { tool as aiTool } from 'ai';
export const chargeCard = aiTool({ description: 'Charge a card', inputSchema: s, execute: async () => 'ok' });`,
      errors: [{ messageId: 'missingPolicy', line: 2, column: 27, endColumn: 33, data: { tool: 'Tool `chargeCard`', remedy: 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry.' } }],
    },
    {
      name: 'AI SDK: namespace import and an unnamed default export',
      code: `import * as ai from 'ai';
export default ai.tool({ description: 'Charge a card', inputSchema: s, execute: async () => 'ok' });`,
      errors: [{ messageId: 'missingPolicy', line: 2, column: 16, endColumn: 23, data: { tool: 'This tool', remedy: 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry.' } }],
    },
    {
      name: 'AI SDK: tool from @ai-sdk/provider-utils, which ai re-exports',
      code: `import { tool } from '@ai-sdk/provider-utils';
export const t = tool({ description: 'Run', inputSchema: s, execute });`,
      errors: [{ messageId: 'missingPolicy', line: 2, column: 18 }],
    },
    {
      name: 'AI SDK: dynamicTool',
      code: `import { dynamicTool } from 'ai';
export const t = dynamicTool({ description: 'Run', inputSchema: s, execute: async () => 'ok' });`,
      errors: [{ messageId: 'missingPolicy', line: 2, column: 18 }],
    },
    {
      name: 'AI SDK: a config from elsewhere does not matter, the policy is declared outside it',
      code: `import { tool } from 'ai';
import { weatherConfig } from './configs';
export const weather = tool(weatherConfig);`,
      errors: [{ messageId: 'missingPolicy', line: 3, column: 24 }],
    },
    {
      name: 'AI SDK: declarePolicy from another package does not count',
      code: `import { tool } from 'ai';
import { declarePolicy } from 'some-other-lib';
export const t = declarePolicy(tool({ description: 'Run', inputSchema: s, execute }), { idempotent: true });`,
      errors: [{ messageId: 'missingPolicy', line: 3, column: 32 }],
    },
    {
      name: 'AI SDK: declarePolicy with an incomplete policy',
      code: `import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
export const t = declarePolicy(tool({ description: 'Run', inputSchema: s, execute }), { idempotent: true });`,
      errors: [{ messageId: 'incompletePolicy', line: 3, column: 87, data: { tool: 'Tool `t`', missing: '`side_effects` and `retry`' } }],
    },
    {
      name: 'AI SDK: declarePolicy reads the seed’s snake_case, so a camelCase sideEffects is missing',
      code: `import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
export const t = declarePolicy(tool({ description: 'Run', inputSchema: s, execute }), { sideEffects: 'none', idempotent: true, retry: 'safe' });`,
      errors: [{ messageId: 'incompletePolicy', line: 3, column: 87, data: { tool: 'Tool `t`', missing: '`side_effects`' } }],
    },
    {
      name: 'AI SDK: declarePolicy with no policy',
      code: `import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
export const t = declarePolicy(tool({ description: 'Run', inputSchema: s, execute }));`,
      errors: [{ messageId: 'incompletePolicy', line: 3, column: 18 }],
    },
    {
      name: '.js: CommonJS AI SDK tool',
      filename: 'tools.js',
      code: `const ai = require('ai');
module.exports = { search: ai.tool({ description: 'Search', execute: async () => [] }) };`,
      errors: [{ messageId: 'missingPolicy', line: 2, column: 28, data: { tool: 'Tool `search`', remedy: 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry.' } }],
    },

    {
      // The rule skips files that import no tool module (docs/performance.md): a require inside a
      // function is still an import.
      name: '.js: a require inside a function still counts as importing the framework',
      filename: 'tools.js',
      code: `function makeTools() {
  const { tool } = require('ai');
  return { search: tool({ description: 'Search', execute: async () => [] }) };
}
module.exports = makeTools;`,
      errors: [{ messageId: 'missingPolicy', line: 3, column: 20 }],
    },

    // --- OpenAI Agents ---
    {
      name: 'OpenAI Agents: tool from @openai/agents-core, multi-line',
      code: `import { tool } from '@openai/agents-core';
export const t = tool(
  { name: 'send_email', description: 'Send', parameters: p, execute },
);`,
      errors: [{ messageId: 'missingPolicy', line: 2, column: 18, data: { tool: 'Tool `send_email`', remedy: 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry.' } }],
    },

    // --- LangChain ---
    {
      name: 'LangChain: tool(fn, config) without metadata.retrysafe',
      code: `import { tool } from '@langchain/core/tools';
export const t = tool(async () => 'ok', { name: 'post_tweet', description: 'Post', schema: s, metadata: { owner: 'x' } });`,
      errors: [{ messageId: 'missingPolicy', line: 2, column: 18, data: { tool: 'Tool `post_tweet`', remedy: 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry, or add `metadata: { retrysafe: {...} }`.' } }],
    },
    {
      name: 'LangChain: new DynamicStructuredTool and new DynamicTool (langchain root export)',
      code: `import { DynamicStructuredTool } from '@langchain/core/tools';
import { DynamicTool } from 'langchain';
export const a = new DynamicStructuredTool({ name: 'create_ticket', description: 'Create', schema: s, func: async () => '' });
export const b = new DynamicTool({ name: 'append_log', description: 'Append', func: async () => '' });`,
      errors: [
        { messageId: 'missingPolicy', line: 3, column: 18, endColumn: 43, data: { tool: 'Tool `create_ticket`', remedy: 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry, or add `metadata: { retrysafe: {...} }`.' } },
        { messageId: 'missingPolicy', line: 4, column: 18 },
      ],
    },
    {
      name: 'LangChain: incomplete metadata.retrysafe',
      code: `import { tool } from '@langchain/core/tools';
export const t = tool(fn, { name: 'x', metadata: { retrysafe: { idempotent: false, side_effects: 'external_write' } } });`,
      errors: [{ messageId: 'incompletePolicy', line: 2, column: 63, data: { tool: 'Tool `x`', missing: '`retry`' } }],
    },

    // --- LangChain tool classes ---
    {
      name: 'LangChain class: extends StructuredTool with no policy, reported at the class name',
      code: `import { StructuredTool } from '@langchain/core/tools';
import { z } from 'zod';
export class RefundTool extends StructuredTool {
  name = 'issue_refund';
  description = 'Refund part of an order';
  schema = z.object({ orderId: z.string(), cents: z.number() });
  async _call({ orderId, cents }: { orderId: string; cents: number }) { return refund(orderId, cents); }
}`,
      errors: [{ messageId: 'missingPolicy', line: 3, column: 14, endLine: 3, endColumn: 24, data: { tool: 'Tool `issue_refund`', remedy: TOOL_CLASS_REMEDY } }],
    },
    {
      name: 'LangChain class: extends Tool, DynamicTool and DynamicStructuredTool (langchain/tools, langchain); unnamed tools take the class name',
      code: `import { Tool, DynamicTool } from 'langchain/tools';
import { DynamicStructuredTool } from 'langchain';
export class PostTweet extends Tool { async _call(text: string) { return post(text); } }
export class AppendLog extends DynamicTool { name = 'append_log'; }
export class CreateTicket extends DynamicStructuredTool { name = 'create_ticket'; }`,
      errors: [
        { messageId: 'missingPolicy', line: 3, column: 14, endColumn: 23, data: { tool: 'Tool `PostTweet`', remedy: TOOL_CLASS_REMEDY } },
        { messageId: 'missingPolicy', line: 4, column: 14, data: { tool: 'Tool `append_log`', remedy: TOOL_CLASS_REMEDY } },
        { messageId: 'missingPolicy', line: 5, column: 14, data: { tool: 'Tool `create_ticket`', remedy: TOOL_CLASS_REMEDY } },
      ],
    },
    {
      name: 'LangChain class: anonymous classes are reported at their class keyword',
      code: `import * as tools from '@langchain/core/tools';
export const RefundTool = class extends tools.StructuredTool {
  name = 'issue_refund';
};
export default class extends tools.StructuredTool { name = 'charge_card'; }`,
      errors: [
        { messageId: 'missingPolicy', line: 2, column: 27, endLine: 2, endColumn: 32, data: { tool: 'Tool `issue_refund`', remedy: TOOL_CLASS_REMEDY } },
        { messageId: 'missingPolicy', line: 5, column: 16, endLine: 5, endColumn: 21, data: { tool: 'Tool `charge_card`', remedy: TOOL_CLASS_REMEDY } },
      ],
    },
    {
      name: 'LangChain class: metadata without retrysafe, and a static metadata (not the instance’s)',
      code: `import { StructuredTool } from '@langchain/core/tools';
export class SendEmail extends StructuredTool {
  name = 'send_email';
  metadata = { owner: 'mail' };
}
export class SendSms extends StructuredTool {
  name = 'send_sms';
  static metadata = { retrysafe: { side_effects: 'message_out', idempotent: false, retry: 'never' } };
}`,
      errors: [
        { messageId: 'missingPolicy', line: 2, column: 14 },
        { messageId: 'missingPolicy', line: 6, column: 14 },
      ],
    },
    {
      name: 'LangChain class: an incomplete metadata.retrysafe field',
      code: `import { StructuredTool } from '@langchain/core/tools';
export class PostTweet extends StructuredTool {
  name = 'post_tweet';
  metadata = { retrysafe: { side_effects: 'message_out', idempotent: false } };
}`,
      errors: [{ messageId: 'incompletePolicy', line: 4, column: 27, data: { tool: 'Tool `post_tweet`', missing: '`retry`' } }],
    },
    {
      name: 'LangChain class: declarePolicy of another package, or of another class’s instance, does not count',
      code: `import { StructuredTool } from '@langchain/core/tools';
import { declarePolicy as declare } from 'some-other-lib';
import { declarePolicy } from '@retrysafe/spec';
class RefundTool extends StructuredTool { name = 'issue_refund'; }
class Registry { constructor(readonly toolClass: unknown) {} }
export const refund = declare(new RefundTool(), { side_effects: 'money_out', idempotent: false, retry: 'never' });
export const registry = declarePolicy(new Registry(RefundTool), { side_effects: 'none', idempotent: true, retry: 'safe' });`,
      errors: [{ messageId: 'missingPolicy', line: 4, column: 7, data: { tool: 'Tool `issue_refund`', remedy: TOOL_CLASS_REMEDY } }],
    },
    {
      name: '.js: LangChain class from a CommonJS require',
      filename: 'tools.js',
      code: `const { StructuredTool } = require('@langchain/core/tools');
class RefundTool extends StructuredTool {
  constructor() { super(); this.name = 'issue_refund'; }
}
module.exports = { RefundTool };`,
      errors: [{ messageId: 'missingPolicy', line: 2, column: 7, data: { tool: 'Tool `RefundTool`', remedy: TOOL_CLASS_REMEDY } }],
    },

    // --- FastMCP ---
    {
      name: 'FastMCP addTool with no annotations (the FastMCP README shape)',
      code: `import { FastMCP } from 'fastmcp';
import { z } from 'zod';
const server = new FastMCP({ name: 'mail', version: '1.0.0' });
server.addTool({
  name: 'send_email',
  description: 'Send an email',
  parameters: z.object({ to: z.string(), body: z.string() }),
  execute: async ({ to, body }) => send(to, body),
});`,
      errors: [{ messageId: 'missingPolicy', line: 4, column: 1, endLine: 4, endColumn: 15, data: { tool: 'Tool `send_email`', remedy: MCP_REMEDY } }],
    },
    {
      name: 'FastMCP addTool: annotations that leave destructiveHint unstated',
      code: `import { FastMCP } from 'fastmcp';
const server = new FastMCP({ name: 'notes', version: '1.0.0' });
server.addTool({ name: 'append_note', annotations: { idempotentHint: false }, execute: append });`,
      errors: [{ messageId: 'incompleteAnnotations', line: 3, column: 52, data: { tool: 'Tool `append_note`', missing: '`destructiveHint`' } }],
    },
    {
      name: 'FastMCP addTool: a server typed FastMCP (parameter, declare const) and a class field server',
      code: `import type { FastMCP } from 'fastmcp';
import * as fastmcp from 'fastmcp';
export function registerMail(server: FastMCP<{ userId: string }>) {
  server.addTool({ name: 'send_email', execute: send });
}
declare const shared: FastMCP;
shared.addTool({ name: 'send_sms', execute: sms });
export class PaymentsServer {
  private readonly server = new fastmcp.FastMCP({ name: 'pay', version: '1.0.0' });
  register() {
    this.server.addTool({ name: 'charge_card', execute: charge });
  }
}`,
      errors: [
        { messageId: 'missingPolicy', line: 4, column: 3, data: { tool: 'Tool `send_email`', remedy: MCP_REMEDY } },
        { messageId: 'missingPolicy', line: 7, column: 1, data: { tool: 'Tool `send_sms`', remedy: MCP_REMEDY } },
        { messageId: 'missingPolicy', line: 11, column: 5, endColumn: 24, data: { tool: 'Tool `charge_card`', remedy: MCP_REMEDY } },
      ],
    },
    {
      name: 'FastMCP addTools: each tool object without hints is reported where it is written',
      code: `import { FastMCP } from 'fastmcp';
const server = new FastMCP({ name: 'notes', version: '1.0.0' });
const addNote = {
  name: 'add_note',
  execute: add,
};
server.addTools([addNote, { name: 'list_notes', annotations: { readOnlyHint: true }, execute: list }, { name: 'purge_notes', execute: purge }]);`,
      errors: [
        { messageId: 'missingPolicy', line: 3, column: 17, endLine: 4, endColumn: 19, data: { tool: 'Tool `add_note`', remedy: MCP_REMEDY } },
        { messageId: 'missingPolicy', line: 7, column: 103, endLine: 7, endColumn: 124, data: { tool: 'Tool `purge_notes`', remedy: MCP_REMEDY } },
      ],
    },
    {
      // addTool returns nothing, so declarePolicy(server.addTool(...)) throws at run time: it is the tool object that takes the policy.
      name: 'FastMCP: declarePolicy around server.addTool(...) does not count',
      code: `import { FastMCP } from 'fastmcp';
import { declarePolicy } from '@retrysafe/spec';
const server = new FastMCP({ name: 'pay', version: '1.0.0' });
declarePolicy(server.addTool({ name: 'issue_refund', execute: refund }), { side_effects: 'money_out', idempotent: false, retry: 'never' });`,
      errors: [{ messageId: 'missingPolicy', line: 4, column: 15, data: { tool: 'Tool `issue_refund`', remedy: MCP_REMEDY } }],
    },
    {
      name: 'FastMCP: declarePolicy on the tool object, in place and through a const, with incomplete policies',
      code: `import { FastMCP } from 'fastmcp';
import { declarePolicy } from '@retrysafe/spec';
const server = new FastMCP({ name: 'pay', version: '1.0.0' });
server.addTool(declarePolicy({ name: 'issue_refund', execute: refund }, { idempotent: false, retry: 'never' }));
const chargeTool = declarePolicy({ name: 'charge_card', execute: charge }, { side_effects: 'money_out', idempotent: false });
server.addTool(chargeTool);`,
      errors: [
        { messageId: 'incompletePolicy', line: 4, column: 73, data: { tool: 'Tool `issue_refund`', missing: '`side_effects`' } },
        { messageId: 'incompletePolicy', line: 5, column: 76, data: { tool: 'Tool `charge_card`', missing: '`retry`' } },
      ],
    },
    {
      name: 'FastMCP: _meta without retrysafe is no declaration',
      code: `import { FastMCP } from 'fastmcp';
const server = new FastMCP({ name: 'ui', version: '1.0.0' });
server.addTool({ name: 'open_dashboard', _meta: { ui: { resourceUri: 'ui://dashboard' } }, execute: open });`,
      errors: [{ messageId: 'missingPolicy', line: 3, column: 1 }],
    },
    {
      name: '.js: FastMCP from a CommonJS require',
      filename: 'server.js',
      code: `const { FastMCP } = require('fastmcp');
const server = new FastMCP({ name: 'mail', version: '1.0.0' });
server.addTool({ name: 'send_email', execute: send });`,
      errors: [{ messageId: 'missingPolicy', line: 3, column: 1, data: { tool: 'Tool `send_email`', remedy: MCP_REMEDY } }],
    },

    // --- toolFactories ---
    {
      name: 'toolFactories: a custom factory with no policy',
      options: [{ toolFactories: [{ name: 'createTool', from: 'my-lib' }] }],
      code: `import { createTool as make } from 'my-lib';
export const t = make({ id: 'send_fax' });`,
      errors: [{ messageId: 'missingPolicy', line: 2, column: 18 }],
    },
    {
      // Trial: a registration-shaped factory of the project, imported by a relative path.
      name: 'toolFactories: a relative `from`, config at index 2: named by its string argument, with a neutral remedy',
      options: [{ toolFactories: [{ name: 'addTool', from: '../register.js', configArgument: 2 }] }],
      code: `import { addTool } from '../register.js';
declare const server: unknown;
addTool(server, 'delete_account', { description: 'Delete a user account' }, async () => ({ content: [] }));`,
      errors: [
        {
          messageId: 'missingPolicy',
          line: 3,
          column: 1,
          data: { tool: 'Tool `delete_account`', remedy: 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry, or declare them where the factory takes them.' },
        },
      ],
    },

    // --- compiled CommonJS, as packages publish it (found by scripts/evaluate-real-code.mjs) ---
    {
      // @stripe/agent-toolkit 0.9.0 ai-sdk/index.js: esbuild calls an import as `(0, import_ai.tool)(...)`.
      name: '.js: esbuild output, (0, import_ai.tool)({...}) with __toESM(require("ai"))',
      filename: 'index.js',
      code: `"use strict";
var import_ai = __toESM(require("ai"));
function convertTools(client, remoteTools) {
  const tools = {};
  for (const remoteTool of remoteTools) {
    tools[remoteTool.name] = (0, import_ai.tool)({
      description: remoteTool.description,
      inputSchema: remoteTool.schema,
      execute: (args) => client.callTool(remoteTool.name, args),
    });
  }
  return tools;
}`,
      errors: [{ messageId: 'missingPolicy', line: 6, column: 30, data: { tool: 'This tool', remedy: 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry.' } }],
    },
    {
      name: '.js: TypeScript output, (0, agents_1.tool)({...}) with a plain require of @openai/agents',
      filename: 'index.js',
      code: `"use strict";
const agents_1 = require("@openai/agents");
exports.refundTool = (0, agents_1.tool)({ name: 'refund_order', parameters: schema, execute: refund });`,
      errors: [{ messageId: 'missingPolicy', line: 3, column: 22, data: { tool: 'Tool `refund_order`', remedy: 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry.' } }],
    },
    {
      name: '.js: esbuild output, the MCP SDK required through __toESM makes an MCP file',
      filename: 'index.js',
      code: `"use strict";
var import_mcp = __toESM(require("@modelcontextprotocol/sdk/server/mcp.js"));
var server = new import_mcp.McpServer({ name: "mail", version: "1.0.0" });
server.registerTool("send_email", { description: "Send an email" }, async () => ({ content: [] }));`,
      errors: [{ messageId: 'missingPolicy', line: 4, column: 1 }],
    },
  ],
});

// ---------------------------------------------------------------------------------------------
// Issue 14, class 3: registration through indirection. A config spread from a visible local const
// that declares nothing, and a project's own wrapper around registerTool / tool() / defineTool,
// judged where it is called.
// ---------------------------------------------------------------------------------------------
const AI_REMEDY = 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry.';

ruleTester.run('require-retry-policy: registration through indirection', rule, {
  valid: [
    {
      name: 'a spread of a local const that declares annotations passes',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
const readOnly = { annotations: { readOnlyHint: true } };
const base = { ...readOnly, description: 'Get' };
server.registerTool('get', { ...base }, h);`,
    },
    {
      name: 'a spread of a const that declares a policy in _meta passes',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
const declared = { _meta: { retrysafe: { side_effects: 'none', idempotent: true, retry: 'safe' } } };
server.registerTool('get', { description: 'Get', ...declared }, h);`,
    },
    {
      name: 'a spread of a parameter or a call’s result keeps the benefit of the doubt',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
export function add(preset: object) { server.registerTool('x', { ...preset }, h); }
server.registerTool('y', { ...makePreset() }, h);`,
    },
    {
      name: 'a local registerTool wrapper whose calls declare annotations',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
function addTool(name: string, config: object, handler: () => unknown) {
  server.registerTool(name, config, handler);
}
addTool('get_order', { description: 'Get', annotations: { readOnlyHint: true } }, async () => ({ content: [] }));`,
    },
    {
      name: 'registerAll(server, tools) over a list whose every tool declares',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
function registerAll(target: McpServer, tools: { name: string; config: object; handler: () => unknown }[]) {
  for (const t of tools) target.registerTool(t.name, t.config, t.handler);
}
const TOOLS = [{ name: 'get_order', config: { annotations: { readOnlyHint: true } }, handler: async () => ({ content: [] }) }];
registerAll(server, TOOLS);`,
    },
    {
      name: 'a local defineTool helper around the AI SDK’s tool(), each call wrapped in declarePolicy',
      code: `import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
const defineTool = (spec: { description: string; execute: () => unknown }) => tool({ ...spec });
export const getOrder = declarePolicy(defineTool({ description: 'Get', execute: async () => ({}) }), { side_effects: 'none', idempotent: true, retry: 'safe' });`,
    },
    {
      name: 'a wrapper that adds read-only annotations to every tool it registers: its calls are not tools of their own',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
function addReadTool(name: string, config: object, handler: () => unknown) {
  server.registerTool(name, { ...config, annotations: { readOnlyHint: true } }, handler);
}
addReadTool('get_order', { description: 'Get' }, async () => ({ content: [] }));`,
    },
    {
      name: 'a local defineTool helper that wraps every tool it makes in declarePolicy',
      code: `import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
const defineRead = (spec: { description: string; execute: () => unknown }) => declarePolicy(tool({ ...spec }), { side_effects: 'none', idempotent: true, retry: 'safe' });
export const getOrder = defineRead({ description: 'Get', execute: async () => ({}) });`,
    },
    {
      name: 'a wrapper the file never calls (exported) is judged where it is: its config is a parameter',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
export function addTool(name: string, config: object, handler: () => unknown) { server.registerTool(name, config, handler); }`,
    },
    {
      name: 'a local makeTool(name, description, execute) factory, each call wrapped in declarePolicy',
      code: `import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
function makeTool(name: string, description: string, execute: () => Promise<unknown>) { return tool({ description, inputSchema: s, execute }); }
export const getCart = declarePolicy(makeTool('get_cart', 'Get a cart', async () => ({})), { side_effects: 'none', idempotent: true, retry: 'safe' });`,
    },
    {
      name: 'registerAll with each element destructured, every tool declaring',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
function registerEach(target: McpServer, tools: { name: string; config: object; handler: () => unknown }[]) {
  tools.forEach(({ name, config, handler }) => target.registerTool(name, config, handler));
}
registerEach(server, [{ name: 'get_order', config: { annotations: { readOnlyHint: true } }, handler: async () => ({ content: [] }) }]);`,
    },
    // Trial (app/src/probe/factory.ts): an exported AI SDK factory whose config is, or spreads, a
    // parameter leaves the policy to its callers, as the MCP wrapper above does.
    ...[
      'export function makeToolA(config: Cfg) { return tool({ ...config, inputSchema: z.object({ q: z.string() }) }); }',
      'export function makeToolB(config: Cfg) { return tool({ ...config }); }',
      'export function makeToolC(config: Cfg) { return tool(config); }',
      'export const makeToolD = (config: Cfg) => tool({ description: config.description, ...config });',
      "import { tool as agentsTool } from '@openai/agents';\nexport function makeAgentsTool(config: Cfg & { name: string; parameters: any }) { return agentsTool({ ...config }); }",
    ].map((factory, index) => ({
      name: `an exported factory whose config is a parameter (${index + 1})`,
      code: `import { tool } from 'ai';\nimport { z } from 'zod';\ntype Cfg = { description: string; execute: (a: { q: string }) => Promise<string> };\n${factory}`,
    })),
  ],
  invalid: [
    {
      name: 'an AI SDK factory called in the file: the call that declares nothing is reported there',
      code: `import { tool } from 'ai';
import { z } from 'zod';
type Cfg = { description: string; execute: (a: { q: string }) => Promise<string> };
function makeTool(config: Cfg) { return tool({ ...config, inputSchema: z.object({ q: z.string() }) }); }
export const search = makeTool({ description: 'Search', execute: async () => '' });`,
      errors: [{ messageId: 'missingPolicy', line: 5, column: 23, data: { tool: 'Tool `search`', remedy: AI_REMEDY } }],
    },
    {
      name: 'an AI SDK tool whose config is a local object, not a parameter, in an exported function stays reported',
      code: `import { tool } from 'ai';
export function makeTool() { return tool({ description: 'Search', execute: async () => '' }); }`,
      errors: [{ messageId: 'missingPolicy', line: 2, column: 37, data: { tool: 'This tool', remedy: AI_REMEDY } }],
    },
    {
      name: 'a spread of a visible local const that declares nothing',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
const base = { description: 'Refund an order', inputSchema: {} };
server.registerTool('refund', { ...base }, h);`,
      errors: [{ messageId: 'missingPolicy', line: 4, column: 1, data: { tool: 'Tool `refund`', remedy: MCP_REMEDY } }],
    },
    {
      name: 'a local registerTool wrapper: each call that declares nothing is reported there',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
function addTool(name: string, config: object, handler: () => unknown) {
  server.registerTool(name, config, handler);
}
addTool('get_order', { description: 'Get', annotations: { readOnlyHint: true } }, async () => ({ content: [] }));
addTool('refund', { description: 'Refund' }, async () => ({ content: [] }));`,
      errors: [{ messageId: 'missingPolicy', line: 7, column: 1, data: { tool: 'Tool `refund`', remedy: MCP_REMEDY } }],
    },
    {
      name: 'registerAll(server, tools): the tool that declares nothing is reported at its entry',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
function registerAll(target: McpServer, tools: { name: string; config: object; handler: () => unknown }[]) {
  tools.forEach((t) => target.registerTool(t.name, t.config, t.handler));
}
registerAll(server, [
  { name: 'get_order', config: { annotations: { readOnlyHint: true } }, handler: async () => ({ content: [] }) },
  { name: 'refund', config: { description: 'Refund' }, handler: async () => ({ content: [] }) },
]);`,
      errors: [{ messageId: 'missingPolicy', line: 8, column: 3, data: { tool: 'Tool `refund`', remedy: MCP_REMEDY } }],
    },
    {
      name: 'registerAll with each element destructured: the entry that declares nothing is reported there, by its name',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
function registerEach(target: McpServer, tools: { name: string; config: object; handler: () => unknown }[]) {
  for (const { name, config, handler } of tools) target.registerTool(name, config, handler);
}
registerEach(server, [
  { name: 'get_order', config: { annotations: { readOnlyHint: true } }, handler: async () => ({ content: [] }) },
  { name: 'refund', config: { description: 'Refund' }, handler: async () => ({ content: [] }) },
]);`,
      errors: [{ messageId: 'missingPolicy', line: 8, column: 3, data: { tool: 'Tool `refund`', remedy: MCP_REMEDY } }],
    },
    {
      name: 'a local makeTool(name, ...) factory around tool(): each call that declares nothing is reported there, by its name argument',
      code: `import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
function makeTool(name: string, description: string, execute: () => Promise<unknown>) { return tool({ description, inputSchema: s, execute }); }
export const getCart = declarePolicy(makeTool('get_cart', 'Get a cart', async () => ({})), { side_effects: 'none', idempotent: true, retry: 'safe' });
export const refund = makeTool('refund_cart', 'Refund a cart', async () => ({}));`,
      errors: [{ messageId: 'missingPolicy', line: 5, column: 23, data: { tool: 'Tool `refund_cart`', remedy: AI_REMEDY } }],
    },
    {
      name: 'a local factory around Mastra createTool({ id }): named by the id argument',
      code: `import { createTool } from '@mastra/core/tools';
const makeMastraTool = (id: string, description: string) => createTool({ id, description, inputSchema: s, execute: async () => ({}) });
export const count = makeMastraTool('count_carts', 'Count carts');`,
      errors: [{ messageId: 'missingPolicy', line: 3, column: 22, data: { tool: 'Tool `count_carts`', remedy: "Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry, or add `mcp: { _meta: { 'io.github.retrysafe/policy': {...} } }`." } }],
    },
    {
      name: 'a wrapper that declares for its callers is judged where it declares: annotations without idempotentHint',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
function addWriteTool(name: string, config: object, handler: () => unknown) {
  server.registerTool(name, { ...config, annotations: { destructiveHint: true } }, handler);
}
addWriteTool('refund', { description: 'Refund' }, async () => ({ content: [] }));`,
      errors: [{ messageId: 'incompleteAnnotations', line: 4, column: 55 }],
    },
    {
      name: 'a local defineTool helper around tool(): a call with no declarePolicy',
      code: `import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
const defineTool = (spec: { description: string; execute: () => unknown }) => tool({ ...spec });
export const getOrder = declarePolicy(defineTool({ description: 'Get', execute: async () => ({}) }), { side_effects: 'none', idempotent: true, retry: 'safe' });
export const refund = defineTool({ description: 'Refund', execute: async () => ({}) });`,
      errors: [{ messageId: 'missingPolicy', line: 5, column: 23, data: { tool: 'Tool `refund`', remedy: AI_REMEDY } }],
    },
  ],
});

// ---------------------------------------------------------------------------------------------
// Issue 14, class 3 (second new-user trial): a wrapper that rebuilds the config field by field from
// the element it registers. The registered config has the element's fields under the wrapper's
// names; a field the wrapper computes in a way that cannot be read back keeps the benefit of the doubt.
// ---------------------------------------------------------------------------------------------
const MCP_HEADER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });`;
const REGISTER_FIELDS = `function registerAll(target: McpServer, list: Tool[]) {
  for (const t of list) target.registerTool(t.name, { description: t.description, annotations: t.annotations }, t.handler);
}`;

ruleTester.run('require-retry-policy: a wrapper that rebuilds the config field by field', rule, {
  valid: [
    {
      name: 'every element declares its annotations, which the wrapper passes on field by field',
      code: `${MCP_HEADER}
${REGISTER_FIELDS}
const tools = [{ name: 'get_order', description: 'Get', annotations: { readOnlyHint: true }, handler: async () => ({ content: [] }) }];
registerAll(server, tools);`,
    },
    {
      name: 'a renamed field: the element’s hints become the registered annotations',
      code: `${MCP_HEADER}
function registerAll(target: McpServer, list: Tool[]) {
  list.forEach((t) => target.registerTool(t.name, { description: t.description, annotations: t.hints }, t.handler));
}
registerAll(server, [{ name: 'get_order', description: 'Get', hints: { readOnlyHint: true }, handler: async () => ({ content: [] }) }]);`,
    },
    {
      name: 'the policy in _meta, read from the element, spread through a const of the file',
      code: `${MCP_HEADER}
const READ = { _meta: { 'io.github.retrysafe/policy': { side_effects: 'none', idempotent: true, retry: 'safe' } } };
function registerAll(target: McpServer, list: Tool[]) {
  for (const t of list) target.registerTool(t.name, { description: t.description, _meta: t._meta }, t.handler);
}
registerAll(server, [{ ...READ, name: 'get_order', description: 'Get', handler: async () => ({ content: [] }) }]);`,
    },
    {
      name: 'look-alike: the wrapper adds its own annotations, so its calls are not tools of their own',
      code: `${MCP_HEADER}
function registerReads(target: McpServer, list: Tool[]) {
  for (const t of list) target.registerTool(t.name, { description: t.description, annotations: { readOnlyHint: true } }, t.handler);
}
registerReads(server, [{ name: 'get_order', description: 'Get', handler: async () => ({ content: [] }) }]);`,
    },
    {
      name: 'look-alike: annotations the wrapper computes by a call keep the benefit of the doubt',
      code: `${MCP_HEADER}
function registerAll(target: McpServer, list: Tool[]) {
  for (const t of list) target.registerTool(t.name, { description: t.description, annotations: hintsFor(t) }, t.handler);
}
registerAll(server, [{ name: 'refund', description: 'Refund', handler: async () => ({ content: [] }) }]);`,
    },
    {
      name: 'look-alike: a nested object built from the element keeps the benefit of the doubt',
      code: `${MCP_HEADER}
function registerAll(target: McpServer, list: Tool[]) {
  for (const t of list) target.registerTool(t.name, { description: t.description, annotations: { destructiveHint: t.destructive, idempotentHint: t.idempotent } }, t.handler);
}
registerAll(server, [{ name: 'refund', description: 'Refund', handler: async () => ({ content: [] }) }]);`,
    },
    {
      name: 'look-alike: a spread of something the file cannot see keeps the benefit of the doubt',
      code: `${MCP_HEADER}
import { DEFAULTS } from './defaults.js';
function registerAll(target: McpServer, list: Tool[]) {
  for (const t of list) target.registerTool(t.name, { ...DEFAULTS, description: t.description, annotations: t.annotations }, t.handler);
}
registerAll(server, [{ name: 'refund', description: 'Refund', handler: async () => ({ content: [] }) }]);`,
    },
    {
      name: 'look-alike: an element whose annotations may come from a spread the file cannot see',
      code: `${MCP_HEADER}
import { shared } from './shared.js';
${REGISTER_FIELDS}
registerAll(server, [{ ...shared, name: 'refund', description: 'Refund', handler: async () => ({ content: [] }) }]);`,
    },
    {
      name: 'look-alike: an element spread from the element (...t.extra) that is an import',
      code: `${MCP_HEADER}
import { extra } from './extra.js';
function registerAll(target: McpServer, list: Tool[]) {
  for (const t of list) target.registerTool(t.name, { description: t.description, ...t.extra }, t.handler);
}
registerAll(server, [{ name: 'refund', description: 'Refund', extra, handler: async () => ({ content: [] }) }]);`,
    },
    {
      name: 'an exported wrapper the file never calls, whose _meta is read from its parameter, leaves the policy to its callers',
      code: `${MCP_HEADER}
export function register(t: Tool) {
  server.registerTool(t.name, { description: t.description, _meta: t.meta }, t.handler);
}`,
    },
    {
      name: 'look-alike: a config that spreads an object built from the parameter is not readable, where it is judged',
      code: `${MCP_HEADER}
export function register(t: Tool) {
  server.registerTool(t.name, { ...(t.hints ? { annotations: t.hints } : {}), description: 'x' }, t.handler);
}
register({ name: 'refund', handler: async () => ({ content: [] }) });`,
    },
    {
      name: 'a defineTool helper that passes each policy field on from its argument',
      code: `import { defineTool } from '@retrysafe/spec';
function makeTool(spec: Spec) {
  return defineTool({ name: spec.name, sideEffects: spec.effects, idempotent: spec.idempotent, retry: spec.retry, execute: spec.run });
}
export const getOrder = makeTool({ name: 'get_order', effects: 'none', idempotent: true, retry: 'safe', run: async () => ({}) });`,
    },
  ],
  invalid: [
    {
      // Trial: const tools = [{ name: 'refund', description: '…', annotations: { readOnlyHint: false }, handler: ... }];
      // function registerAll(server, list) { for (const t of list) server.registerTool(t.name, { description: t.description, annotations: t.annotations }, t.handler); }
      name: 'trial: registerAll(server, tools) rebuilds the config; the refund element’s annotations leave the hints unstated',
      code: `${MCP_HEADER}
${REGISTER_FIELDS}
const tools = [
  { name: 'get_order', description: 'Get an order', annotations: { readOnlyHint: true }, handler: async () => ({ content: [] }) },
  { name: 'refund', description: 'Refund an order', annotations: { readOnlyHint: false }, handler: async (a: { id: string }) => stripe.refunds.create({ payment_intent: a.id }) },
];
registerAll(server, tools);`,
      errors: [{ messageId: 'incompleteAnnotations', line: 8, column: 66, data: { tool: 'Tool `refund`', missing: '`destructiveHint` and `idempotentHint`' } }],
    },
    {
      name: 'an element that declares nothing is reported at its own object',
      code: `${MCP_HEADER}
${REGISTER_FIELDS}
registerAll(server, [
  { name: 'get_order', description: 'Get', annotations: { readOnlyHint: true }, handler: async () => ({ content: [] }) },
  { name: 'refund', description: 'Refund', handler: async () => ({ content: [] }) },
]);`,
      errors: [{ messageId: 'missingPolicy', line: 8, column: 3, data: { tool: 'Tool `refund`', remedy: MCP_REMEDY } }],
    },
    {
      name: 'a renamed field is followed: annotations the wrapper does not read are not registered',
      code: `${MCP_HEADER}
function registerAll(target: McpServer, list: Tool[]) {
  for (const t of list) target.registerTool(t.name, { description: t.description, annotations: t.hints }, t.handler);
}
registerAll(server, [{ name: 'refund', description: 'Refund', annotations: { readOnlyHint: true }, handler: async () => ({ content: [] }) }]);`,
      errors: [{ messageId: 'missingPolicy', line: 6, column: 22, data: { tool: 'Tool `refund`', remedy: MCP_REMEDY } }],
    },
    {
      name: 'an addTool(name, config, handler) wrapper that reads the annotations from its config argument',
      code: `${MCP_HEADER}
function addTool(name: string, cfg: Cfg, handler: () => unknown) {
  server.registerTool(name, { description: cfg.description, annotations: cfg.annotations }, handler);
}
addTool('get_order', { description: 'Get', annotations: { readOnlyHint: true } }, async () => ({ content: [] }));
addTool('refund', { description: 'Refund' }, async () => ({ content: [] }));`,
      errors: [{ messageId: 'missingPolicy', line: 7, column: 1, data: { tool: 'Tool `refund`', remedy: MCP_REMEDY } }],
    },
    {
      name: 'a wrapper that passes on no field that could declare is reported once, where the declaration must be added',
      code: `${MCP_HEADER}
function registerAll(target: McpServer, list: Tool[]) {
  for (const t of list) target.registerTool(t.name, { description: t.description }, t.handler);
}
registerAll(server, [{ name: 'get_order', description: 'Get', annotations: { readOnlyHint: true }, handler: async () => ({ content: [] }) }]);`,
      errors: [{ messageId: 'missingPolicy', line: 4, column: 25, data: { tool: 'This tool', remedy: MCP_REMEDY } }],
    },
    {
      // packages/spec/src/adapters/ai-sdk.ts: an AI SDK tool declares around the call, so a spread the
      // config builds from the wrapper's parameter carries no declaration: judged where it is.
      name: 'an exported AI SDK wrapper whose config spreads an object built from its parameter is judged where it is',
      code: `import { tool } from 'ai';
export function toAiSdkTool(spec: Spec) {
  return tool({ ...(spec.description !== undefined ? { description: spec.description } : {}), inputSchema, execute: spec.run });
}`,
      errors: [{ messageId: 'missingPolicy', line: 3, column: 10, data: { tool: 'This tool', remedy: AI_REMEDY } }],
    },
    {
      name: 'a defineTool helper that passes each policy field on: the call that leaves retry out',
      code: `import { defineTool } from '@retrysafe/spec';
function makeTool(spec: Spec) {
  return defineTool({ name: spec.name, sideEffects: spec.effects, idempotent: spec.idempotent, retry: spec.retry, execute: spec.run });
}
export const refund = makeTool({ name: 'refund', effects: 'external', idempotent: false, run: async () => ({}) });`,
      errors: [{ messageId: 'incompletePolicy', line: 5, column: 23, data: { tool: 'Tool `refund`', missing: '`retry`' } }],
    },
  ],
});
