import { DECLARE_POLICY, MCP_POLICY_KEY } from './remedies.js';
import type { FrameworkEntry } from './types.js';

/**
 * Mastra (`@mastra/core`): `createTool({ id, description, inputSchema, execute })` and
 * `new Tool({...})`, from `@mastra/core/tools` (and from `@mastra/core` itself before 1.0). A tool
 * is named by its `id`; `execute(inputData, context)` is its handler. A Mastra tool served over MCP
 * lists its `mcp._meta` as the MCP tool's `_meta`, so a policy there is declared too.
 */
export const mastra = {
  id: 'mastra',
  framework: 'mastra',
  title: 'Mastra',
  modules: ['@mastra/core/tools', '@mastra/core'],
  packages: ['@mastra/core'],
  factories: [
    { export: 'createTool', configArgument: 0, nameProperty: 'id' },
    { export: 'Tool', configArgument: 0, nameProperty: 'id' },
  ],
  classes: [],
  registrations: [],
  toolLists: [],
  runId: '`context.agent.threadId` (the memory thread) or `context.workflow.runId` (a workflow run); not `context.agent.toolCallId`, which is new on every call',
  policy: {
    declarePolicy: true,
    nested: { path: ['mcp', '_meta'], via: 'mcpMeta' },
    remedy: `${DECLARE_POLICY}, or add \`mcp: { _meta: { '${MCP_POLICY_KEY}': {...} } }\`.`,
  },
  standIns: [{ module: '@mastra/core/tools', folder: 'stand-ins/mastra-core' }],
  adapter: { subpath: './adapters/mastra', peerDependency: '@mastra/core' },
} as const satisfies FrameworkEntry;
