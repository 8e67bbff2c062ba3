import { DECLARE_POLICY } from './remedies.js';
import type { FrameworkEntry } from './types.js';

/** The Vercel AI SDK: `tool()` and `dynamicTool()`, which `ai` re-exports from `@ai-sdk/provider-utils`. */
export const aiSdk = {
  id: 'ai-sdk',
  framework: 'ai-sdk',
  title: 'Vercel AI SDK',
  modules: ['ai', '@ai-sdk/provider-utils'],
  packages: ['ai', '@ai-sdk/provider-utils'],
  factories: [
    { export: 'tool', configArgument: 0 },
    { export: 'dynamicTool', configArgument: 0 },
  ],
  classes: [],
  registrations: [],
  toolLists: [],
  runId: 'your job or conversation id (the chat `id`), handed to `execute` as `experimental_context` (AI SDK 6) or as its `context` (AI SDK 7: the `toolsContext` of `generateText`, read in `execute` as `options.context`), or closed over; not `toolCallId`, which is new on every call',
  policy: { declarePolicy: true, remedy: `${DECLARE_POLICY}.` },
  standIns: [
    { module: 'ai', folder: 'stand-ins/ai' },
    { module: '@ai-sdk/provider-utils', folder: 'stand-ins/ai-sdk-provider-utils' },
  ],
  adapter: { subpath: './adapters/ai-sdk', peerDependency: 'ai' },
} as const satisfies FrameworkEntry;
