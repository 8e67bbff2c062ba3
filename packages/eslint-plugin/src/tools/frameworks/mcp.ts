import { MCP_HINTS } from './remedies.js';
import type { FrameworkEntry } from './types.js';

/**
 * The MCP TypeScript SDK's `McpServer` (v1 `@modelcontextprotocol/sdk`, v2 `@modelcontextprotocol/server`):
 * `server.registerTool(name, config, handler)` and the older `server.tool(...)` overloads.
 */
export const mcp = {
  id: 'mcp',
  framework: 'mcp',
  title: 'MCP TypeScript SDK',
  modules: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server'],
  moduleSubpaths: true,
  packages: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server'],
  factories: [],
  classes: [],
  registrations: [
    { owner: 'McpServer', method: 'registerTool', configArgument: 1 },
    { owner: 'McpServer', method: 'tool', configArgument: 1 },
  ],
  toolLists: [],
  runId: 'an id the client sends with the call (a job or conversation id in the arguments or `_meta`); not the request id, which is new on every request',
  policy: { declarePolicy: true, nested: { path: ['_meta'], via: 'mcpMeta' }, annotations: true, remedy: MCP_HINTS },
  standIns: [{ module: '@modelcontextprotocol/sdk/server/mcp.js', folder: 'stand-ins/mcp-sdk' }],
  adapter: { subpath: './adapters/mcp', peerDependency: '@modelcontextprotocol/sdk' },
} as const satisfies FrameworkEntry;
