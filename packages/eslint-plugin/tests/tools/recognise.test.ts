// Tool recognition, tested directly through the programmatic entry point: one row per framework
// shape the recognisers know, with what it must say about the tool (name, framework, declared
// policy, whether the handler is found). The rule tests judge the same definitions; these rows pin
// the analysis they share.
import { describe, expect, it } from 'vitest';

import { type RecognisedTool, recogniseTools, type SeedPolicyFields } from '../../src/analysis/index.js';
import { analyse } from '../support/analyse.js';

const POLICY = "{ side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' }";
const FIELDS: SeedPolicyFields = { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' };

interface Expected {
  readonly name: string | undefined;
  readonly framework: RecognisedTool['framework'];
  /** The declaration's route and its static fields; `undefined` for no declared policy. */
  readonly policy?: { readonly via: string; readonly fields: SeedPolicyFields };
  /** `function`: the handler is a function of the file; `expression`: named, not followed; `none`. */
  readonly handler: 'expression' | 'function' | 'none';
}

interface Row {
  readonly shape: string;
  readonly code: string;
  readonly tools: readonly Expected[];
  readonly toolFactories?: readonly { name: string; from: string; configArgument?: number }[];
}

const ROWS: readonly Row[] = [
  {
    shape: '@retrysafe/spec defineTool: the config is the policy',
    code: `import { defineTool } from '@retrysafe/spec';
export const refund = defineTool({ name: 'issue_refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', maxAttempts: 1, execute: async () => ({}) });`,
    tools: [{ name: 'issue_refund', framework: 'retrysafe', policy: { via: 'defineTool', fields: { ...FIELDS, max_attempts: 1 } }, handler: 'function' }],
  },
  {
    shape: 'AI SDK tool() in a tools object, declarePolicy around it: named by its property',
    code: `import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
export const tools = { refund: declarePolicy(tool({ description: 'Refund', inputSchema, execute: async () => ({}) }), ${POLICY}) };`,
    tools: [{ name: 'refund', framework: 'ai-sdk', policy: { via: 'declarePolicy', fields: FIELDS }, handler: 'function' }],
  },
  {
    shape: 'AI SDK dynamicTool() from @ai-sdk/provider-utils, undeclared: named by its variable',
    code: `import { dynamicTool } from '@ai-sdk/provider-utils';
export const lookup = dynamicTool({ description: 'Look up', execute: lookupHandler });`,
    tools: [{ name: 'lookup', framework: 'ai-sdk', handler: 'expression' }],
  },
  {
    shape: 'OpenAI Agents tool(), declarePolicy on its const',
    code: `import { tool } from '@openai/agents';
import { declarePolicy } from '@retrysafe/spec';
const refundTool = tool({ name: 'refund_order', parameters, execute: async () => 'ok' });
export const refund = declarePolicy(refundTool, ${POLICY});`,
    tools: [{ name: 'refund_order', framework: 'openai-agents', policy: { via: 'declarePolicy', fields: FIELDS }, handler: 'function' }],
  },
  {
    shape: 'LangChain tool(fn, config) with metadata.retrysafe: the handler is the first argument',
    code: `import { tool } from '@langchain/core/tools';
async function search() { return []; }
export const searchDocs = tool(search, { name: 'search_docs', schema, metadata: { retrysafe: { side_effects: 'none', idempotent: true, retry: 'safe' } } });`,
    tools: [{ name: 'search_docs', framework: 'langchain', policy: { via: 'langchainMetadata', fields: { side_effects: 'none', idempotent: true, retry: 'safe' } }, handler: 'function' }],
  },
  {
    shape: 'LangChain new DynamicStructuredTool from langchain, undeclared',
    code: `import { DynamicStructuredTool } from 'langchain/tools';
export const send = new DynamicStructuredTool({ name: 'send_email', description: 'Send', schema, func: async () => 'sent' });`,
    tools: [{ name: 'send_email', framework: 'langchain', handler: 'function' }],
  },
  {
    shape: 'LangChain class extends StructuredTool with a metadata field: _call is the handler',
    code: `import { StructuredTool } from '@langchain/core/tools';
export class RefundTool extends StructuredTool {
  name = 'refund';
  description = 'Refund';
  metadata = { retrysafe: ${POLICY} };
  async _call() { return 'ok'; }
}`,
    tools: [{ name: 'refund', framework: 'langchain', policy: { via: 'langchainMetadata', fields: FIELDS }, handler: 'function' }],
  },
  {
    shape: 'Mastra createTool: named by its id, declarePolicy around it',
    code: `import { createTool } from '@mastra/core/tools';
import { declarePolicy } from '@retrysafe/spec';
export const refund = declarePolicy(createTool({ id: 'refund-order', description: 'Refund', inputSchema, execute: async () => ({}) }), ${POLICY});`,
    tools: [{ name: 'refund-order', framework: 'mastra', policy: { via: 'declarePolicy', fields: FIELDS }, handler: 'function' }],
  },
  {
    shape: 'Mastra new Tool with a policy in mcp._meta.retrysafe',
    code: `import { Tool } from '@mastra/core/tools';
export const charge = new Tool({ id: 'charge-card', description: 'Charge', mcp: { _meta: { retrysafe: ${POLICY} } }, execute: async () => ({}) });`,
    tools: [{ name: 'charge-card', framework: 'mastra', policy: { via: 'mcpMeta', fields: FIELDS }, handler: 'function' }],
  },
  {
    shape: 'Inngest AgentKit createTool: handler is the handler, declarePolicy around it',
    code: `import { createTool } from '@inngest/agent-kit';
import { declarePolicy } from '@retrysafe/spec';
export const refund = declarePolicy(createTool({ name: 'refund_order', description: 'Refund', parameters, handler: async () => ({}) }), ${POLICY});`,
    tools: [{ name: 'refund_order', framework: 'inngest-agent-kit', policy: { via: 'declarePolicy', fields: FIELDS }, handler: 'function' }],
  },
  {
    shape: 'Inngest AgentKit createTool with no policy; a createTool of another package is no tool',
    code: `import { createTool } from '@inngest/agent-kit';
import { createTool as cliTool } from 'some-cli-kit';
export const send = createTool({ name: 'send_email', parameters, handler: async () => ({}) });
export const build = cliTool({ name: 'build', handler: async () => ({}) });`,
    tools: [{ name: 'send_email', framework: 'inngest-agent-kit', handler: 'function' }],
  },
  {
    shape: 'a local wrapper around registerTool: the tool is defined where the wrapper is called',
    code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
function addTool(name, config, handler) { server.registerTool(name, config, handler); }
addTool('send_email', { description: 'Send', _meta: { retrysafe: ${POLICY} } }, async () => ({ content: [] }));`,
    tools: [{ name: 'send_email', framework: 'mcp', policy: { via: 'mcpMeta', fields: FIELDS }, handler: 'function' }],
  },
  {
    shape: 'registerAll over an array parameter: one tool per element',
    code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
function registerAll(tools) { for (const t of tools) server.registerTool(t.name, t.config, t.handler); }
registerAll([{ name: 'a', config: {}, handler: async () => ({}) }, { name: 'b', config: {}, handler: async () => ({}) }]);`,
    tools: [
      { name: 'a', framework: 'mcp', handler: 'function' },
      { name: 'b', framework: 'mcp', handler: 'function' },
    ],
  },
  {
    shape: 'registerAll with each element destructured (forEach and for-of): named from the element',
    code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
function registerEach(tools) { tools.forEach(({ name, config, handler }) => server.registerTool(name, config, handler)); }
function registerOf(tools) { for (const { name, spec: { config }, handler } of tools) server.registerTool(name, config, handler); }
registerEach([{ name: 'a', config: {}, handler: async () => ({}) }]);
registerOf([{ name: 'b', spec: { config: {} }, handler: async () => ({}) }]);`,
    tools: [
      { name: 'a', framework: 'mcp', handler: 'function' },
      { name: 'b', framework: 'mcp', handler: 'function' },
    ],
  },
  {
    shape: "a local factory around the AI SDK's tool(): named by its name argument, its handler the call's",
    code: `import { tool } from 'ai';
function makeTool(name, description, execute) { return tool({ description, inputSchema, execute }); }
export const getCart = makeTool('get_cart', 'Get a cart', async () => ({}));
export const other = makeTool(process.env.NAME, 'Other', lookup);`,
    tools: [
      { name: 'get_cart', framework: 'ai-sdk', handler: 'function' },
      { name: 'other', framework: 'ai-sdk', handler: 'expression' },
    ],
  },
  {
    shape: 'a local factory around Mastra createTool({ id }): named by the id argument',
    code: `import { createTool } from '@mastra/core/tools';
const makeTool = (id, description) => createTool({ id, description, inputSchema, execute: async () => ({}) });
export const count = makeTool('count_carts', 'Count');`,
    tools: [{ name: 'count_carts', framework: 'mastra', handler: 'function' }],
  },
  {
    shape: 'a function whose parameters give only a description, or the id of what it acts on, is no factory: its tool stays where it is',
    code: `import { tool } from 'ai';
function describe(description) { return tool({ description, inputSchema, execute: async () => ({}) }); }
function lookup(id) { return tool({ description: 'Look up', inputSchema, execute: async () => db.get(id) }); }
export const a = describe('A');
export const b = lookup('order-42');`,
    tools: [
      { name: undefined, framework: 'ai-sdk', handler: 'function' },
      { name: undefined, framework: 'ai-sdk', handler: 'function' },
    ],
  },
  {
    shape: 'MCP registerTool with _meta.retrysafe: the handler is the third argument',
    code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('send_email', { description: 'Send', annotations: { readOnlyHint: false }, _meta: { retrysafe: ${POLICY} } }, async () => ({ content: [] }));`,
    tools: [{ name: 'send_email', framework: 'mcp', policy: { via: 'mcpMeta', fields: FIELDS }, handler: 'function' }],
  },
  {
    shape: 'MCP server.tool(name, description, schema, handler) overload, undeclared',
    code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.tool('list_orders', 'List orders', { status: z.string() }, listOrders);`,
    tools: [{ name: 'list_orders', framework: 'mcp', handler: 'expression' }],
  },
  {
    shape: 'MCP low-level Server: a tool object listed by the tools/list handler has no handler',
    code: `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'create_issue', inputSchema: { type: 'object' } }] }));`,
    tools: [{ name: 'create_issue', framework: 'mcp-low-level', handler: 'none' }],
  },
  {
    shape: 'FastMCP addTool and addTools: each tool object, policies in _meta',
    code: `import { FastMCP } from 'fastmcp';
const server = new FastMCP({ name: 's', version: '1.0.0' });
server.addTool({ name: 'get_order', execute: async () => 'order', annotations: { readOnlyHint: true } });
server.addTools([{ name: 'refund', _meta: { retrysafe: ${POLICY} }, execute: async () => 'ok' }, { name: 'notify', execute: notify }]);`,
    tools: [
      { name: 'get_order', framework: 'mcp', handler: 'function' },
      { name: 'refund', framework: 'mcp', policy: { via: 'mcpMeta', fields: FIELDS }, handler: 'function' },
      { name: 'notify', framework: 'mcp', handler: 'expression' },
    ],
  },
  {
    shape: 'a factory from the toolFactories option: its config may state the policy fields',
    code: `import { makeTool } from 'my-agent-kit';
export const archive = makeTool({ name: 'archive', sideEffects: 'internal_write', idempotent: true, retry: 'safe', handler: async () => ({}) });`,
    toolFactories: [{ name: 'makeTool', from: 'my-agent-kit' }],
    tools: [{ name: 'archive', framework: 'custom', policy: { via: 'defineTool', fields: { side_effects: 'internal_write', idempotent: true, retry: 'safe' } }, handler: 'function' }],
  },
];

function summarise(tool: RecognisedTool): Expected {
  const handler = tool.handlerFunction ? 'function' : tool.handler ? 'expression' : 'none';
  const policy = tool.declaredPolicy && { via: tool.declaredPolicy.via, fields: tool.declaredPolicy.fields };
  return { name: tool.name, framework: tool.framework, ...(policy ? { policy } : {}), handler };
}

describe('recogniseTools: one row per framework shape', () => {
  it.each(ROWS.map((row) => [row.shape, row] as const))('%s', (_shape, row) => {
    const tools = analyse(row.code, (sourceCode) => recogniseTools(sourceCode, { toolFactories: row.toolFactories ?? [] }));
    expect(tools.map(summarise)).toEqual(row.tools);
  });

  it('a file that imports no framework has no tools, and a look-alike is not one', () => {
    expect(analyse(`import { tool } from 'agent-kit-lite';\nexport const t = tool({ description: 'x', execute: async () => 1 });`, (sourceCode) => recogniseTools(sourceCode))).toEqual([]);
  });

  it('tells what it cannot see: an imported policy, a value of another module, a spread', () => {
    const [imported, spread] = analyse(
      `import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
import { policy, RETRY } from './policies';
export const a = declarePolicy(tool({ description: 'a', execute }), policy);
export const b = declarePolicy(tool({ description: 'b', execute }), { ...policy, side_effects: 'none', retry: RETRY });`,
      (sourceCode) => recogniseTools(sourceCode),
    );
    expect(imported?.declaredPolicy).toMatchObject({ via: 'declarePolicy', visible: false, fields: {} });
    expect(spread?.declaredPolicy).toMatchObject({ visible: true, spreads: true, fields: { side_effects: 'none' }, unknownFields: ['retry'] });
  });

  it('reports where require-retry-policy reports, with MCP annotations and input fields as data', () => {
    const [tool] = analyse(
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('charge_card', { inputSchema: { orderId: z.string(), amountCents: z.number() }, annotations: { title: 'Charge', destructiveHint: true, idempotentHint: false } }, charge);`,
      (sourceCode) => recogniseTools(sourceCode),
    );
    expect(tool?.loc).toEqual({ start: { line: 3, column: 0 }, end: { line: 3, column: 19 } });
    expect(tool?.annotations).toEqual({ visible: true, title: 'Charge', destructiveHint: true, idempotentHint: false });
    expect(tool?.inputFields).toEqual(['orderId', 'amountCents']);
  });
});
