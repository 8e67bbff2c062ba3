import { DECLARE_POLICY } from './remedies.js';
import type { FrameworkEntry } from './types.js';

/** The OpenAI Agents SDK: `tool()`, which `@openai/agents` re-exports from `@openai/agents-core`. */
export const openaiAgents = {
  id: 'openai-agents',
  framework: 'openai-agents',
  title: 'OpenAI Agents SDK',
  modules: ['@openai/agents', '@openai/agents-core'],
  packages: ['@openai/agents', '@openai/agents-core'],
  factories: [{ export: 'tool', configArgument: 0 }],
  classes: [],
  registrations: [],
  toolLists: [],
  runId: 'your context object (`runContext.context`, which the SDK serialises into `RunState`, so a resumed run has the same id); not `details.toolCall.callId`, which is new on every call',
  policy: { declarePolicy: true, remedy: `${DECLARE_POLICY}.` },
  standIns: [
    { module: '@openai/agents', folder: 'stand-ins/openai-agents' },
    { module: '@openai/agents-core', folder: 'stand-ins/openai-agents-core' },
  ],
  adapter: { subpath: './adapters/openai-agents', peerDependency: '@openai/agents' },
} as const satisfies FrameworkEntry;
