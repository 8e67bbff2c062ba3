import { DECLARE_POLICY } from './remedies.js';
import type { FrameworkEntry } from './types.js';

/**
 * LangChain.js: `tool(fn, config)`, `new DynamicStructuredTool(...)`, `new DynamicTool(...)` and
 * classes that extend its tool classes. `langchain` (and its older `langchain/tools` entry)
 * re-exports them from `@langchain/core/tools`, where they are declared.
 */
export const langchain = {
  id: 'langchain',
  framework: 'langchain',
  title: 'LangChain',
  modules: ['@langchain/core/tools', 'langchain', 'langchain/tools'],
  packages: ['@langchain/core', 'langchain'],
  factories: [
    { export: 'tool', configArgument: 1, handlerArgument: 0 },
    { export: 'DynamicStructuredTool', configArgument: 0 },
    { export: 'DynamicTool', configArgument: 0 },
  ],
  // `StructuredToolInterface` is only a type: nothing extends it.
  classes: ['DynamicStructuredTool', 'DynamicTool', 'StructuredTool', 'Tool'],
  registrations: [],
  toolLists: [],
  runId: '`config.configurable.thread_id` (the checkpointer\'s thread) or your own value in `configurable`; not `config.runId` (new per invocation) or the tool call\'s id',
  policy: {
    declarePolicy: true,
    nested: { path: ['metadata'], via: 'langchainMetadata' },
    remedy: `${DECLARE_POLICY}, or add \`metadata: { retrysafe: {...} }\`.`,
  },
  standIns: [{ module: '@langchain/core/tools', folder: 'stand-ins/langchain-core' }],
  adapter: { subpath: './adapters/langchain', peerDependency: '@langchain/core' },
} as const satisfies FrameworkEntry;
