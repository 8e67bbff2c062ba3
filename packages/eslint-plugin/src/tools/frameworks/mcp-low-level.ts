import { MCP_HINTS } from './remedies.js';
import type { FrameworkEntry } from './types.js';

/**
 * A low-level MCP `Server`: plain tool objects listed by the handler of
 * `server.setRequestHandler(ListToolsRequestSchema, handler)`, as the reference servers write them.
 * The handler is registered apart from the list, so the tool objects carry no handler.
 */
export const mcpLowLevel = {
  id: 'mcp-low-level',
  framework: 'mcp-low-level',
  title: 'MCP low-level Server',
  modules: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server'],
  moduleSubpaths: true,
  packages: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server'],
  factories: [],
  classes: [],
  registrations: [],
  toolLists: [{ method: 'setRequestHandler', schemaExport: 'ListToolsRequestSchema', requestMethod: 'tools/list' }],
  runId: 'an id the client sends with the call (a job or conversation id in the arguments or `_meta`); not the request id, which is new on every request',
  policy: { declarePolicy: true, nested: { path: ['_meta'], via: 'mcpMeta' }, annotations: true, remedy: MCP_HINTS },
  // Recognised from syntax alone: the type-aware rule has no table entry to check against a stand-in.
  standIns: [],
  adapter: { none: 'the spec wraps `McpServer.registerTool` (./adapters/mcp); a low-level server lists its tools itself' },
} as const satisfies FrameworkEntry;
