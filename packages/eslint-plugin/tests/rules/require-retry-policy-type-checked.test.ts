import { type InvalidTestCase, RuleTester, type ValidTestCase } from '@typescript-eslint/rule-tester';

import rule, { type MessageIds, type Options } from '../../src/rules/require-retry-policy-type-checked.js';
import requireRetryPolicy from '../../src/rules/require-retry-policy.js';
import { createCrossFileTester } from '../support/crossFileTester.js';

// The linted code is tests/fixtures/cross-file/file.ts. tools.ts and servers.ts next to it hand out the
// frameworks' factories under other names; the frameworks themselves are the type-only stand-ins in
// tests/fixtures/stand-ins (ai re-exports `tool` from @ai-sdk/provider-utils, @openai/agents from
// @openai/agents-core, as the real packages do), mapped with `paths`; `agent-kit-lite` is a look-alike.
const typedTester = createCrossFileTester();
const syntacticTester = new RuleTester();

type Valid = ValidTestCase<Options>;
type Invalid = InvalidTestCase<MessageIds, Options>;
type Expected = NonNullable<Invalid['errors']>[number];

const DECLARE_POLICY = 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry';
const REMEDY = {
  aiSdk: `${DECLARE_POLICY}.`,
  langchain: `${DECLARE_POLICY}, or add \`metadata: { retrysafe: {...} }\`.`,
  mcp:
    'Add `annotations` with `readOnlyHint: true`, or with both `destructiveHint` and `idempotentHint`; ' +
    "or declare a full policy in `_meta: { 'io.github.retrysafe/policy': {...} }`.",
};

/** `missingPolicy` from the start of the call to the end of its callee (`[line, column, endColumn]`). */
function missing(tool: string, remedy: string, [line, column, endColumn]: [number, number, number]): Expected {
  return { messageId: 'missingPolicy', line, column, endLine: line, endColumn, data: { tool, remedy } };
}

function incomplete(
  messageId: 'incompleteAnnotations' | 'incompletePolicy',
  tool: string,
  fields: string,
  [line, column]: [number, number],
): Expected {
  return { messageId, line, column, data: { tool, missing: fields } };
}

// Three lines: a test's own code starts on line 4.
const prelude = `
import { declarePolicy } from '@retrysafe/spec';
import { defineAgentTool, defineDynamicTool, defineLangchainTool, defineLiteTool, defineOpenAiTool, defineRetrysafeTool, makeTool, StructuredTool } from './tools.js';
`;

const FULL_POLICY = "{ side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' }";

const valid: Valid[] = [
  // --- left to require-retry-policy, which sees these by their imports ---
  {
    name: 'the AI SDK’s tool imported under its own name',
    code: `import { tool } from 'ai';\nexport const refund = tool({ description: 'Refund an order' });`,
  },
  {
    name: 'a factory the toolFactories option names (configured for both rules)',
    code: `${prelude}export const refund = defineAgentTool({ description: 'Refund an order' });`,
    options: [{ toolFactories: [{ name: 'defineAgentTool', from: './tools.js' }] }],
  },

  // --- look-alikes from other packages ---
  {
    name: 'a `tool` of an unrelated package, renamed in a local module',
    code: `${prelude}export const refund = defineLiteTool({ description: 'Refund an order' });`,
  },
  {
    name: 'a `tool` of an unrelated package imported directly',
    code: `import { tool } from 'agent-kit-lite';\nexport const refund = tool({ description: 'Refund an order' });`,
  },
  {
    name: 'registerTool on a class of an unrelated package named McpServer',
    code: `import type { LiteServer } from './servers.js';\nexport function register(server: LiteServer) {\n  server.registerTool('refund', { description: 'Refund' }, async () => 1);\n}`,
  },
  {
    // A limit, documented: only imports are resolved, so a `const` alias in the same file is not followed.
    name: 'a const alias of the factory in the same file',
    code: `import { tool } from 'ai';\nconst defineAgentTool = tool;\nexport const refund = defineAgentTool({ description: 'Refund an order' });`,
  },
  {
    name: 'a function of a local module that is not a factory',
    code: `import { durableKey } from './keys.js';\nexport const k = durableKey('run', 'item');`,
  },

  // --- declared ---
  {
    name: 'a renamed AI SDK tool wrapped in declarePolicy',
    code: `${prelude}export const refund = declarePolicy(defineAgentTool({ description: 'Refund an order' }), ${FULL_POLICY});`,
  },
  {
    name: 'declarePolicy on the variable later in the file',
    code: `${prelude}const refund = defineOpenAiTool({ name: 'refund', description: 'Refund', parameters: {}, execute: async () => 1 });\nexport const declared = declarePolicy(refund, ${FULL_POLICY});`,
  },
  {
    name: 'a renamed defineTool with the whole policy in its config',
    code: `${prelude}export const refund = defineRetrysafeTool({ name: 'refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' });`,
  },
  {
    name: 'a renamed LangChain tool with metadata.retrysafe',
    code: `${prelude}export const search = defineLangchainTool(async () => '', { name: 'search', description: 'Search', metadata: { retrysafe: { side_effects: 'none', idempotent: true, retry: 'safe' } } });`,
  },
  {
    name: 'a renamed LangChain tool whose config is built elsewhere (benefit of the doubt)',
    code: `${prelude}import { searchConfig } from './keys.js';\nexport const search = defineLangchainTool(async () => '', searchConfig);`,
  },
  {
    name: 'an MCP server by another name, read-only annotations',
    code: `import type { Server } from './servers.js';\nexport function register(server: Server) {\n  server.registerTool('search', { annotations: { readOnlyHint: true } }, async () => 1);\n}`,
  },
  {
    name: 'a FastMCP server from another module, read-only annotations',
    code: `import { paymentsServer } from './servers.js';\npaymentsServer.addTool({ name: 'get_refund', annotations: { readOnlyHint: true }, execute: async () => 'ok' });`,
  },
  {
    name: 'a FastMCP server constructed in the file is require-retry-policy’s',
    code: `import { FastMCP } from 'fastmcp';\nconst server = new FastMCP({ name: 'pay', version: '1.0.0' });\nserver.addTool({ name: 'issue_refund', execute: async () => 'ok' });`,
  },
  {
    name: 'addTool on a class of an unrelated package named FastMCP',
    code: `import type { LiteFastServer } from './servers.js';\nexport function register(server: LiteFastServer) {\n  server.addTool({ name: 'issue_refund', execute: async () => 'ok' });\n}`,
  },
  {
    name: 'an MCP server by another name, a full policy in _meta.retrysafe',
    code: `import type { Server } from './servers.js';\nexport function register(server: Server) {\n  server.registerTool('refund', { _meta: { retrysafe: ${FULL_POLICY} } }, async () => 1);\n}`,
  },
];

const invalid: Invalid[] = [
  // --- the example: `export { tool as defineAgentTool } from 'ai'` in tools.ts ---
  {
    name: 'the AI SDK’s tool re-exported as defineAgentTool by a local module',
    code: `${prelude}export const refund = defineAgentTool({ description: 'Refund an order', execute: async () => 'ok' });`,
    errors: [missing('Tool `refund`', REMEDY.aiSdk, [4, 23, 38])],
  },

  // --- renamed and re-exported factories of each framework ---
  {
    name: 'the AI SDK’s dynamicTool renamed',
    code: `${prelude}export const lookup = defineDynamicTool({ description: 'Look up anything' });`,
    errors: [missing('Tool `lookup`', REMEDY.aiSdk, [4, 23, 40])],
  },
  {
    name: 'the AI SDK’s tool held by a const of another module',
    code: `${prelude}export const refund = makeTool({ description: 'Refund an order' });`,
    errors: [missing('Tool `refund`', REMEDY.aiSdk, [4, 23, 31])],
  },
  {
    name: 'the AI SDK’s tool held by a const declared with its type (`const typedTool: typeof tool`)',
    code: `import { typedTool } from './tools.js';\nexport const refund = typedTool({ description: 'Refund an order' });`,
    errors: [missing('Tool `refund`', REMEDY.aiSdk, [2, 23, 32])],
  },
  {
    name: 'the renamed factory read through a namespace import',
    code: `import * as tools from './tools.js';\nexport const refund = tools.defineAgentTool({ description: 'Refund an order' });`,
    errors: [missing('Tool `refund`', REMEDY.aiSdk, [2, 23, 44])],
  },
  {
    name: 'OpenAI Agents’ tool renamed',
    code: `${prelude}export const refundTool = defineOpenAiTool({ name: 'refund_order', description: 'Refund', parameters: {}, execute: async () => 'ok' });`,
    errors: [missing('Tool `refund_order`', REMEDY.aiSdk, [4, 27, 43])],
  },
  {
    name: 'LangChain’s tool renamed (handler first, config second)',
    code: `${prelude}export const refund = defineLangchainTool(async () => 'ok', { name: 'refund', description: 'Refund' });`,
    errors: [missing('Tool `refund`', REMEDY.langchain, [4, 23, 42])],
  },
  {
    name: 'LangChain’s DynamicStructuredTool renamed',
    code: `${prelude}export const refund = new StructuredTool({ name: 'refund', description: 'Refund', func: async () => 'ok' });`,
    errors: [missing('Tool `refund`', REMEDY.langchain, [4, 23, 41])],
  },
  {
    name: 'a renamed defineTool whose policy lacks idempotent and retry',
    code: `${prelude}export const refund = defineRetrysafeTool({ name: 'refund', sideEffects: 'money_out' });`,
    errors: [incomplete('incompletePolicy', 'Tool `refund`', '`idempotent` and `retry`', [4, 23])],
  },

  // --- MCP servers recognised by type, in files that do not import the SDK ---
  {
    name: 'registerTool on a server typed by a local re-export',
    code: `import type { Server } from './servers.js';\nexport function register(server: Server) {\n  server.registerTool('refund', { description: 'Refund' }, async () => 1);\n}`,
    errors: [missing('Tool `refund`', REMEDY.mcp, [3, 3, 22])],
  },
  {
    name: 'annotations that leave idempotentHint unstated',
    code: `import type { Server } from './servers.js';\nexport function register(server: Server) {\n  server.registerTool('refund', { annotations: { destructiveHint: true } }, async () => 1);\n}`,
    errors: [incomplete('incompleteAnnotations', 'Tool `refund`', '`idempotentHint`', [3, 48])],
  },
  {
    name: 'a _meta.retrysafe policy without retry',
    code: `import type { Server } from './servers.js';\nexport function register(server: Server) {\n  server.registerTool('refund', { _meta: { retrysafe: { side_effects: 'money_out', idempotent: 'with_key' } } }, async () => 1);\n}`,
    errors: [incomplete('incompletePolicy', 'Tool `refund`', '`retry`', [3, 55])],
  },

  // --- FastMCP servers recognised by type, in files that do not construct them ---
  {
    name: 'addTool on a FastMCP server constructed in another module',
    code: `import { paymentsServer } from './servers.js';\npaymentsServer.addTool({ name: 'issue_refund', execute: async () => 'ok' });`,
    errors: [missing('Tool `issue_refund`', REMEDY.mcp, [2, 1, 23])],
  },
  {
    name: 'addTools on a FastMCP server typed by a local re-export, reported at each tool object',
    code: `import type { ToolServer } from './servers.js';\nexport function register(server: ToolServer) {\n  server.addTools([{ name: 'send_email', execute: async () => 'ok' }, { name: 'get_mail', annotations: { readOnlyHint: true }, execute: async () => 'ok' }]);\n}`,
    errors: [missing('Tool `send_email`', REMEDY.mcp, [3, 20, 40])],
  },
  {
    name: 'FastMCP annotations that leave idempotentHint unstated',
    code: `import { paymentsServer } from './servers.js';\npaymentsServer.addTool({ name: 'issue_refund', annotations: { destructiveHint: true }, execute: async () => 'ok' });`,
    errors: [incomplete('incompleteAnnotations', 'Tool `issue_refund`', '`idempotentHint`', [2, 61])],
  },

  // --- one report per tool ---
  {
    name: 'only the renamed factory is this rule’s: the directly imported one is require-retry-policy’s',
    code: `import { tool } from 'ai';\nimport { defineAgentTool } from './tools.js';\nexport const a = tool({ description: 'A' });\nexport const b = defineAgentTool({ description: 'B' });`,
    errors: [missing('Tool `b`', REMEDY.aiSdk, [4, 18, 33])],
  },
];

typedTester.run('require-retry-policy-type-checked', rule, { valid, invalid });

// ---------------------------------------------------------------------------------------------
// Parity: the same definitions, with the factory imported from the framework under a new name (which
// require-retry-policy reads syntactically) and from a local module that re-exports it (which only
// this rule reads), get the same reports. The one-line imports keep lines and columns equal.
// ---------------------------------------------------------------------------------------------

interface ParityCase {
  readonly name: string;
  readonly body: string;
  readonly errors: Expected[];
}

const parityImports = {
  syntactic: "import { tool as defineAgentTool } from 'ai'; import { tool as defineLangchainTool } from '@langchain/core/tools'; import { defineTool as defineRetrysafeTool, declarePolicy } from '@retrysafe/spec';",
  typed: "import { defineAgentTool, defineLangchainTool, defineRetrysafeTool } from './tools.js'; import { declarePolicy } from '@retrysafe/spec';",
};

const parityCases: ParityCase[] = [
  { name: 'AI SDK, no declaration', body: `export const t = defineAgentTool({ description: 'x' });`, errors: [missing('Tool `t`', REMEDY.aiSdk, [2, 18, 33])] },
  { name: 'AI SDK, a full declarePolicy', body: `export const t = declarePolicy(defineAgentTool({ description: 'x' }), ${FULL_POLICY});`, errors: [] },
  {
    name: 'AI SDK, declarePolicy without a policy argument',
    body: `export const t = declarePolicy(defineAgentTool({ description: 'x' }));`,
    errors: [incomplete('incompletePolicy', 'Tool `t`', 'a policy argument', [2, 18])],
  },
  {
    name: 'AI SDK, declarePolicy missing retry',
    body: `export const t = declarePolicy(defineAgentTool({ description: 'x' }), { side_effects: 'none', idempotent: true });`,
    errors: [incomplete('incompletePolicy', 'Tool `t`', '`retry`', [2, 71])],
  },
  {
    name: 'AI SDK, policy fields in the config do not count',
    body: `export const t = defineAgentTool({ description: 'x', sideEffects: 'none', idempotent: true, retry: 'safe' });`,
    errors: [missing('Tool `t`', REMEDY.aiSdk, [2, 18, 33])],
  },
  {
    name: 'LangChain, metadata.retrysafe missing idempotent',
    body: `export const t = defineLangchainTool(async () => '', { name: 's', description: 'x', metadata: { retrysafe: { side_effects: 'none', retry: 'safe' } } });`,
    errors: [incomplete('incompletePolicy', 'Tool `s`', '`idempotent`', [2, 108])],
  },
  { name: 'LangChain, a config from elsewhere', body: `declare const config: any;\nexport const t = defineLangchainTool(async () => '', config);`, errors: [] },
  {
    name: 'defineTool, snake_case fields are not its spelling',
    body: `export const t = defineRetrysafeTool({ name: 'refund', side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' });`,
    errors: [incomplete('incompletePolicy', 'Tool `refund`', '`sideEffects`', [2, 18])],
  },
  { name: 'defineTool, a spread config', body: `declare const base: any;\nexport const t = defineRetrysafeTool({ name: 'refund', ...base });`, errors: [] },
];

syntacticTester.run('parity: require-retry-policy with the factory imported from the framework', requireRetryPolicy, {
  valid: parityCases.filter((c) => c.errors.length === 0).map((c) => ({ name: c.name, code: `${parityImports.syntactic}\n${c.body}` })),
  invalid: parityCases
    .filter((c) => c.errors.length > 0)
    .map((c) => ({ name: c.name, code: `${parityImports.syntactic}\n${c.body}`, errors: c.errors })),
});

typedTester.run('parity: require-retry-policy-type-checked with the factory re-exported by a local module', rule, {
  valid: parityCases.filter((c) => c.errors.length === 0).map((c) => ({ name: c.name, code: `${parityImports.typed}\n${c.body}` })),
  invalid: parityCases
    .filter((c) => c.errors.length > 0)
    .map((c) => ({ name: c.name, code: `${parityImports.typed}\n${c.body}`, errors: c.errors })),
});

// ---------------------------------------------------------------------------------------------
// Issue 14, class 3 across files: registration through a wrapper another file of the program declares
// (registrations.ts: registerAll, addTool, myTool, and the look-alikes that declare for their callers),
// and tool configs spread from a `const` another file exports. What cannot be read (a declaration in a
// package, a value built by a call) keeps the benefit of the doubt.
// ---------------------------------------------------------------------------------------------

const mcpServer = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });`;
const READ_ONLY = '{ annotations: { readOnlyHint: true } }';
const handler = 'async () => ({ content: [] })';

const indirectionValid: Valid[] = [
  {
    name: 'registerAll from another file over tools that all declare',
    code: `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAll } from './registrations.js';
export function setup(server: McpServer) {
  registerAll(server, [{ name: 'get_order', config: ${READ_ONLY}, handler: ${handler} }]);
}`,
  },
  {
    name: 'an imported addTool wrapper whose call declares a full policy in _meta',
    code: `${mcpServer}
import { addTool } from './registrations.js';
addTool(server, 'refund', { _meta: { retrysafe: ${FULL_POLICY} } }, ${handler});`,
  },
  {
    name: 'an imported tool() wrapper whose call is wrapped in declarePolicy',
    code: `import { declarePolicy } from '@retrysafe/spec';
import { myTool } from './registrations.js';
export const refund = declarePolicy(myTool('refund', { description: 'Refund' }, async () => 1), ${FULL_POLICY});`,
  },
  {
    name: 'a wrapper that adds read-only annotations itself: its calls are not judged',
    code: `${mcpServer}
import { addReadTool } from './registrations.js';
addReadTool(server, 'get_order', { description: 'Get' }, ${handler});`,
  },
  {
    name: 'a wrapper that wraps every tool it makes in declarePolicy',
    code: `import { defineReadTool } from './registrations.js';
export const getOrder = defineReadTool({ description: 'Get', execute: async () => 1 });`,
  },
  {
    name: 'an imported helper that takes a config but registers nothing',
    code: `import { describeTool } from './registrations.js';
export const text = describeTool('refund', { description: 'Refund' });`,
  },
  {
    name: 'a registration helper of a package (declared only): its body cannot be read',
    code: `${mcpServer}
import { registerTools } from 'agent-kit-lite';
registerTools(server, [{ name: 'refund', config: { description: 'Refund' }, handler: ${handler} }]);`,
  },
  {
    name: 'a spread of an imported const that declares annotations',
    code: `${mcpServer}
import { readOnlyConfig } from './registrations.js';
server.registerTool('get_order', { description: 'Get', ...readOnlyConfig }, ${handler});`,
  },
  {
    name: 'a spread of an imported const that declares a full policy in _meta',
    code: `${mcpServer}
import { declaredConfig } from './registrations.js';
server.registerTool('refund', { ...declaredConfig }, ${handler});`,
  },
  {
    name: 'a spread of an imported const that spreads one that declares annotations',
    code: `${mcpServer}
import { layeredReadOnly } from './registrations.js';
server.registerTool('list_orders', { ...layeredReadOnly }, ${handler});`,
  },
  {
    name: 'a spread of a declaring object below an imported const',
    code: `${mcpServer}
import { presets } from './registrations.js';
server.registerTool('get_order', { ...presets.readOnly }, ${handler});`,
  },
  {
    name: 'a spread of an imported const built by a call: not visible',
    code: `${mcpServer}
import { builtConfig } from './registrations.js';
server.registerTool('refund', { ...builtConfig }, ${handler});`,
  },
  {
    name: 'a spread of a package’s declared const: not visible',
    code: `${mcpServer}
import { liteConfig } from 'agent-kit-lite';
server.registerTool('refund', { ...liteConfig }, ${handler});`,
  },
  {
    name: 'registerFields from another file rebuilds each config: every element’s hints declare',
    code: `${mcpServer}
import { registerFields } from './registrations.js';
registerFields(server, [{ name: 'get_order', description: 'Get', hints: { readOnlyHint: true }, handler: ${handler} }]);`,
  },
  {
    name: 'look-alike: registerComputed computes the annotations by a call, which cannot be read at the call',
    code: `${mcpServer}
import { registerComputed } from './registrations.js';
registerComputed(server, [{ name: 'refund', description: 'Refund', handler: ${handler} }]);`,
  },
  {
    name: 'a spread of a local const that declares nothing is require-retry-policy’s to report, not this rule’s',
    code: `${mcpServer}
const base = { description: 'Refund' };
server.registerTool('refund', { ...base }, ${handler});`,
  },
];

const indirectionInvalid: Invalid[] = [
  {
    name: 'registerAll(server, tools) from another file: the tool that declares nothing, at its entry',
    code: `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAll } from './registrations.js';
export function setup(server: McpServer) {
  registerAll(server, [
    { name: 'get_order', config: ${READ_ONLY}, handler: ${handler} },
    { name: 'refund', config: { description: 'Refund' }, handler: ${handler} },
  ]);
}`,
    errors: [{ messageId: 'missingPolicy', line: 6, column: 5, data: { tool: 'Tool `refund`', remedy: REMEDY.mcp } }],
  },
  {
    // Trial: a wrapper in another file that rebuilds the config field by field (`{ description:
    // t.description, annotations: t.hints }`); the element's annotations under another name are not registered.
    name: 'registerFields(server, tools) from another file: the element whose hints leave idempotentHint out, and the one with none',
    code: `${mcpServer}
import { registerFields } from './registrations.js';
const tools = [
  { name: 'refund', description: 'Refund', hints: { readOnlyHint: false, destructiveHint: true }, handler: ${handler} },
  { name: 'send_email', description: 'Send', annotations: { readOnlyHint: true }, handler: ${handler} },
];
registerFields(server, tools);`,
    errors: [
      { messageId: 'incompleteAnnotations', line: 5, column: 51, data: { tool: 'Tool `refund`', missing: '`idempotentHint`' } },
      { messageId: 'missingPolicy', line: 6, column: 3, data: { tool: 'Tool `send_email`', remedy: REMEDY.mcp } },
    ],
  },
  {
    name: 'registerAll over a const list of this file',
    code: `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAll } from './registrations.js';
const TOOLS = [{ name: 'send_email', config: { description: 'Send' }, handler: ${handler} }];
export function setup(server: McpServer) {
  registerAll(server, TOOLS);
}`,
    errors: [{ messageId: 'missingPolicy', line: 3, column: 16, data: { tool: 'Tool `send_email`', remedy: REMEDY.mcp } }],
  },
  {
    name: 'an imported addTool wrapper: the call that declares nothing',
    code: `${mcpServer}
import { addTool } from './registrations.js';
addTool(server, 'get_order', ${READ_ONLY}, ${handler});
addTool(server, 'refund', { description: 'Refund' }, ${handler});`,
    errors: [missing('Tool `refund`', REMEDY.mcp, [5, 1, 8])],
  },
  {
    name: 'an imported addTool wrapper: annotations that leave idempotentHint unstated',
    code: `${mcpServer}
import { addTool } from './registrations.js';
addTool(server, 'refund', { annotations: { destructiveHint: true } }, ${handler});`,
    errors: [incomplete('incompleteAnnotations', 'Tool `refund`', '`idempotentHint`', [4, 42])],
  },
  {
    name: 'the AI SDK’s tool() behind an imported arrow wrapper',
    code: `import { myTool } from './registrations.js';
export const refund = myTool('refund', { description: 'Refund' }, async () => 1);`,
    errors: [missing('Tool `refund`', REMEDY.aiSdk, [2, 23, 29])],
  },
  {
    name: 'a wrapper renamed by a barrel, read through a namespace import',
    code: `${mcpServer}
import * as registry from './registrations-barrel.js';
registry.registerOne(server, 'refund', { description: 'Refund' }, ${handler});`,
    errors: [missing('Tool `refund`', REMEDY.mcp, [4, 1, 21])],
  },
  {
    name: 'a spread of an imported const that declares nothing',
    code: `${mcpServer}
import { baseConfig } from './registrations.js';
server.registerTool('refund', { ...baseConfig }, ${handler});`,
    errors: [missing('Tool `refund`', REMEDY.mcp, [4, 1, 20])],
  },
  {
    name: 'a spread of an imported const renamed by a barrel',
    code: `${mcpServer}
import { refundConfig } from './registrations-barrel.js';
server.registerTool('refund', { ...refundConfig, title: 'Refund' }, ${handler});`,
    errors: [missing('Tool `refund`', REMEDY.mcp, [4, 1, 20])],
  },
  {
    name: 'a spread of an imported const that spreads one that declares nothing',
    code: `${mcpServer}
import { layeredConfig } from './registrations.js';
server.registerTool('refund', { ...layeredConfig }, ${handler});`,
    errors: [missing('Tool `refund`', REMEDY.mcp, [4, 1, 20])],
  },
  {
    name: 'a spread of an object below an imported const that declares nothing',
    code: `${mcpServer}
import { presets } from './registrations.js';
server.registerTool('refund', { ...presets.base }, ${handler});`,
    errors: [missing('Tool `refund`', REMEDY.mcp, [4, 1, 20])],
  },
  {
    name: 'a spread of an imported const in a wrapper call’s config',
    code: `${mcpServer}
import { addTool, baseConfig } from './registrations.js';
addTool(server, 'refund', { ...baseConfig }, ${handler});`,
    errors: [missing('Tool `refund`', REMEDY.mcp, [4, 1, 8])],
  },
];

typedTester.run('require-retry-policy-type-checked: registration through another file', rule, {
  valid: indirectionValid,
  invalid: indirectionInvalid,
});
