import { MCP_HINTS } from './remedies.js';
import type { FrameworkEntry } from './types.js';

/**
 * FastMCP (the `fastmcp` package): `server.addTool({ name, parameters, annotations, _meta, execute })`
 * and `server.addTools([...])`. Its tools are MCP tools: it lists `annotations` and `_meta` as given.
 */
export const fastmcp = {
  id: 'fastmcp',
  framework: 'mcp',
  title: 'FastMCP',
  modules: ['fastmcp'],
  packages: ['fastmcp'],
  factories: [],
  classes: [],
  registrations: [
    { owner: 'FastMCP', method: 'addTool', configArgument: 0 },
    { owner: 'FastMCP', method: 'addTools', configArgument: 0 },
  ],
  toolLists: [],
  runId: 'an id the client sends with the call (a job or conversation id in the arguments or `_meta`); not the request id, which is new on every request',
  policy: { declarePolicy: true, nested: { path: ['_meta'], via: 'mcpMeta' }, annotations: true, remedy: MCP_HINTS },
  standIns: [{ module: 'fastmcp', folder: 'stand-ins/fastmcp' }],
  adapter: { none: 'no adapter yet: ./adapters/mcp takes an `McpServer`' },
} as const satisfies FrameworkEntry;
