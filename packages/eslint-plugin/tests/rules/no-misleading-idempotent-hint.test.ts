import { RuleTester } from '@typescript-eslint/rule-tester';

import rule from '../../src/rules/no-misleading-idempotent-hint.js';
import { readCase } from '../support/cases.js';

// Sources are flush left so that the line and column in each case read straight off the code.
// The shared cases (tests/cases, copied from /work/shared/cases) are read as they are.
const ruleTester = new RuleTester();

const B12 = readCase('B12.ts');
const B12_UPDATE_ONLY = B12.slice(0, B12.indexOf("server.registerTool('create_automation'")) + B12.slice(B12.indexOf("server.registerTool('update_automation'"));

const mcpTool = (name: string, config: string): string => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
declare const server: McpServer;
server.registerTool('${name}', ${config}, async () => ({ content: [] }));`;

ruleTester.run('no-misleading-idempotent-hint', rule, {
  valid: [
    // --- hints read through a const: a hint a spread nobody can see may set is not known ---
    {
      name: 'const hints spread, then a spread of an unknown value that may set readOnlyHint',
      code: `declare const more: Record<string, boolean>;\nconst HINTS = { destructiveHint: false, idempotentHint: true } as const;\n${mcpTool('send_invoice', '{ inputSchema: { customer: z.string() }, annotations: { ...HINTS, ...more } }')}`,
    },
    {
      name: 'const hints spread, overridden inline with idempotentHint: false',
      code: `const HINTS = { destructiveHint: false, idempotentHint: true } as const;\n${mcpTool('send_invoice', '{ inputSchema: { customer: z.string() }, annotations: { ...HINTS, idempotentHint: false } }')}`,
    },
    // --- cases from real failures ---
    { name: 'B12.ts: update_automation, keyed by automationId, is not flagged', code: B12_UPDATE_ONLY },
    ...['B08.ts', 'B10.ts', 'B11.ts', 'B13.ts', 'B15.ts'].map((file) => ({ name: `${file}: no idempotentHint: true to question`, code: readCase(file) })),

    // --- the handler's code decides, and the effects analysis has the evidence (no-contradicted-policy judges it) ---
    {
      name: 'effects: create_directory whose handler makes the directory with mkdir (an absolute write) is not judged by its name',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import fs from 'node:fs/promises';
import { z } from 'zod';
declare const server: McpServer;
server.registerTool('create_directory', {
  inputSchema: { path: z.string() },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
}, async ({ path }) => {
  await fs.mkdir(path, { recursive: true });
  return { content: [] };
});`,
    },
    {
      name: 'effects: send_email whose handler sends with Nodemailer is no-contradicted-policy\'s to report, with the call as evidence',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import nodemailer from 'nodemailer';
import { z } from 'zod';
declare const server: McpServer;
const mail = nodemailer.createTransport({});
server.registerTool('send_email', {
  inputSchema: { to: z.string() },
  annotations: { destructiveHint: false, idempotentHint: true },
}, async ({ to }) => {
  await mail.sendMail({ to });
  return { content: [] };
});`,
    },
    {
      // @modelcontextprotocol/server-filesystem@2026.8.31 write_file (docs/evaluation.md): its handler
      // writes through a helper of another file; the description says it overwrites.
      name: "real code: write_file 'Create a new file or completely overwrite an existing file' is an absolute write",
      code: mcpTool('write_file', `{
  description: 'Create a new file or completely overwrite an existing file with new content.',
  inputSchema: { path: z.string(), content: z.string() },
  annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: true },
}`),
    },
    // --- keyed, upserts, reads, and what is not visible ---
    {
      name: 'MCP: a create tool that takes an idempotency key may claim idempotentHint',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
declare const server: McpServer;
server.registerTool('create_ticket', {
  inputSchema: { title: z.string(), idempotencyKey: z.string() },
  annotations: { destructiveHint: false, idempotentHint: true },
}, async () => ({ content: [] }));`,
    },
    {
      name: 'MCP: create_or_update_file is an upsert',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
declare const server: McpServer;
server.registerTool('create_or_update_file', {
  inputSchema: { path: z.string(), content: z.string() },
  annotations: { destructiveHint: true, idempotentHint: true },
}, async () => ({ content: [] }));`,
    },
    {
      name: 'MCP: a keyed JSON Schema input (low-level) with idempotentHint',
      code: `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const sendTool = {
  name: 'send_message',
  inputSchema: { type: 'object', properties: { channel_id: { type: 'string' }, client_msg_id: { type: 'string' } } },
  annotations: { destructiveHint: false, idempotentHint: true },
};
declare const server: Server;
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [sendTool] }));`,
    },
    {
      name: 'MCP: an input schema that is not visible is not judged',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateIssueSchema } from './schemas';
declare const server: McpServer;
server.registerTool('create_issue', { inputSchema: CreateIssueSchema.shape, annotations: { destructiveHint: false, idempotentHint: true } }, async () => ({ content: [] }));`,
    },
    {
      name: 'MCP: a read-only tool may claim idempotentHint whatever its name says',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
server.tool('send_digest_preview', 'Send nothing: render the digest', { readOnlyHint: true, idempotentHint: true }, async () => ({ content: [] }));`,
    },
    {
      name: 'MCP: idempotentHint: false is never questioned',
      code: mcpTool('send_email', "{ inputSchema: { to: z.string() }, annotations: { destructiveHint: false, idempotentHint: false } }"),
    },
    {
      name: 'MCP: idempotentHint that is not a static true is not judged',
      code: mcpTool('send_email', "{ inputSchema: { to: z.string() }, annotations: { destructiveHint: false, idempotentHint: IDEMPOTENT } }"),
    },
    {
      name: 'MCP: a name with no create verb (get_weather)',
      code: mcpTool('get_weather', "{ inputSchema: { city: z.string() }, annotations: { destructiveHint: false, idempotentHint: true } }"),
    },
    {
      name: 'registerTool in a file with no MCP import is not a tool',
      code: `declare const registry: { registerTool(n: string, c: object, f: () => void): void };
registry.registerTool('create_user', { annotations: { idempotentHint: true, destructiveHint: false } }, () => {});`,
    },
    {
      name: 'option keyFieldNames: a natural key (email) makes a create idempotent',
      options: [{ keyFieldNames: ['email'] }],
      code: mcpTool('create_subscriber', "{ inputSchema: { email: z.string(), name: z.string() }, annotations: { destructiveHint: false, idempotentHint: true } }"),
    },
  ],
  invalid: [
    // --- hints read through a same-file const, judged as if written inline ---
    {
      name: 'hints spread from a const: send_invoice claims idempotentHint: true with no key input',
      code: `const HINTS = { destructiveHint: false, idempotentHint: true } as const;\n${mcpTool('send_invoice', '{ inputSchema: { customer: z.string() }, annotations: { ...HINTS } }')}`,
      errors: [{ messageId: 'idempotentHintOnCreate', line: 1, column: 41, data: { tool: 'Tool `send_invoice`', where: 'name', verb: 'send' } }],
    },
    {
      name: 'nested const spreads with satisfies',
      code: `const BASE = { idempotentHint: true };\nconst HINTS = { ...BASE, destructiveHint: false } satisfies Record<string, boolean>;\n${mcpTool('send_invoice', '{ inputSchema: { customer: z.string() }, annotations: { ...HINTS, openWorldHint: true } }')}`,
      errors: [{ messageId: 'idempotentHintOnCreate', line: 1, column: 16, data: { tool: 'Tool `send_invoice`', where: 'name', verb: 'send' } }],
    },
    // --- cases from real failures ---
    {
      name: 'B12.ts: create_automation claims idempotentHint: true with no key or id input (R2 on the annotations line)',
      code: B12,
      errors: [{ messageId: 'idempotentHintOnCreate', line: 18, column: 63, endLine: 18, endColumn: 83, data: { tool: 'Tool `create_automation`', where: 'name', verb: 'create' } }],
    },

    // --- creates that claim idempotentHint without a key or id input ---
    {
      // The rule skips files that never spell idempotentHint; a quoted key spells it too.
      name: "MCP: a quoted 'idempotentHint' key counts",
      code: mcpTool('send_invoice', `{ inputSchema: { customer: z.string() }, annotations: { 'destructiveHint': false, 'idempotentHint': true } }`),
      errors: [{ messageId: 'idempotentHintOnCreate', line: 4, column: 119, data: { tool: 'Tool `send_invoice`', where: 'name', verb: 'send' } }],
    },
    {
      name: 'MCP server.tool overload: send_email claims idempotentHint with no key input',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.tool('send_email', 'Send an email', { to: z.string(), body: z.string() }, { destructiveHint: false, idempotentHint: true }, async () => ({ content: [] }));`,
      errors: [{ messageId: 'idempotentHintOnCreate', line: 4, column: 108, data: { tool: 'Tool `send_email`', where: 'name', verb: 'send' } }],
    },
    {
      name: 'MCP: the description says it creates (camelCase name, z.object schema)',
      code: `import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
declare const server: McpServer;
server.registerTool('automation', {
  description: 'Creates a new automation for the user',
  inputSchema: z.object({ config: z.string(), ownerEmail: z.string() }).strict(),
  annotations: { idempotentHint: true, destructiveHint: false },
}, async () => ({ content: [] }));`,
      errors: [{ messageId: 'idempotentHintOnCreate', line: 7, column: 18, data: { tool: 'Tool `automation`', where: 'description', verb: 'create' } }],
    },
    {
      name: 'FastMCP addTool: send_email claims idempotentHint with no key input (z.object parameters)',
      code: `import { FastMCP } from 'fastmcp';
import { z } from 'zod';
const server = new FastMCP({ name: 'mail', version: '1.0.0' });
server.addTool({
  name: 'send_email',
  parameters: z.object({ to: z.string(), body: z.string() }),
  annotations: { destructiveHint: false, idempotentHint: true },
  execute: send,
});`,
      errors: [{ messageId: 'idempotentHintOnCreate', line: 7, column: 42, data: { tool: 'Tool `send_email`', where: 'name', verb: 'send' } }],
    },
    {
      name: 'MCP: a tool with no input at all that charges',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
server.registerTool('chargeMonthlyFee', { annotations: { destructiveHint: false, idempotentHint: true } }, async () => ({ content: [] }));`,
      errors: [{ messageId: 'idempotentHintOnCreate', line: 3, column: 82 }],
    },
    {
      name: 'MCP low-level: const tool object (server-slack shape) claiming idempotentHint on post',
      code: `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const postMessageTool = {
  name: 'slack_post_message',
  inputSchema: { type: 'object', properties: { channel: { type: 'string' }, text: { type: 'string' } }, required: ['channel', 'text'] },
  annotations: { idempotentHint: true, destructiveHint: false },
};
declare const server: Server;
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [postMessageTool] }));`,
      errors: [{ messageId: 'idempotentHintOnCreate', line: 6, column: 18 }],
    },
    {
      name: 'option createVerbs: an extra verb (provision) counts as creating',
      options: [{ createVerbs: ['provision'] }],
      code: mcpTool('provision_vm', "{ inputSchema: { size: z.string() }, annotations: { destructiveHint: false, idempotentHint: true } }"),
      errors: [{ messageId: 'idempotentHintOnCreate', line: 4, column: 113, data: { tool: 'Tool `provision_vm`', where: 'name', verb: 'provision' } }],
    },
    {
      name: 'MCP: readOnlyHint: false does not excuse a create',
      code: mcpTool('post_message', "{ inputSchema: { text: z.string() }, annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true } }"),
      errors: [{ messageId: 'idempotentHintOnCreate', line: 4, column: 134, data: { tool: 'Tool `post_message`', where: 'name', verb: 'post' } }],
    },
  ],
});

// Issue 14, class 3: a wrapper that rebuilds the config field by field from each element it
// registers; the hints are the element's, under the name the wrapper reads them from.
const REGISTER_FIELDS = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
const registerAll = (list: Tool[]) => list.forEach((t) => server.registerTool(t.name, { description: t.description, annotations: t.hints }, t.handler));
`;

ruleTester.run('no-misleading-idempotent-hint: a wrapper that rebuilds the config field by field', rule, {
  valid: [
    {
      name: 'look-alike: the element’s annotations field is not the one the wrapper registers',
      code: `${REGISTER_FIELDS}
registerAll([{ name: 'send_invoice', description: 'Send', annotations: { destructiveHint: false, idempotentHint: true }, handler: async () => ({ content: [] }) }]);`,
    },
  ],
  invalid: [
    {
      name: 'send_invoice registered through the wrapper with idempotentHint: true in its hints',
      code: `${REGISTER_FIELDS}
registerAll([{ name: 'send_invoice', description: 'Send', hints: { destructiveHint: false, idempotentHint: true }, handler: async () => ({ content: [] }) }]);`,
      errors: [{ messageId: 'idempotentHintOnCreate', line: 5, column: 92, data: { tool: 'Tool `send_invoice`', where: 'name', verb: 'send' } }],
    },
  ],
});
