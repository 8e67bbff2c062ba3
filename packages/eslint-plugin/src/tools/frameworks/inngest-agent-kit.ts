import { DECLARE_POLICY } from './remedies.js';
import type { FrameworkEntry } from './types.js';

/**
 * Inngest AgentKit (`@inngest/agent-kit`): `createTool({ name, description, parameters, handler })`,
 * whose `handler(input, { agent, network, step })` runs the tool (docs: agentkit.inngest.com,
 * reference/create-tool). Run inside an Inngest function, `step` is that function's step tools: a
 * `step.run(id, ...)` in the handler is memoised by the run, which is where a durable key comes from.
 */
export const inngestAgentKit = {
  id: 'inngest-agent-kit',
  framework: 'inngest-agent-kit',
  title: 'Inngest AgentKit',
  modules: ['@inngest/agent-kit'],
  packages: ['@inngest/agent-kit'],
  factories: [{ export: 'createTool', configArgument: 0 }],
  classes: [],
  registrations: [],
  toolLists: [],
  runId: 'the Inngest function\'s `event.id`, reached through `network.state.data` or a closure, or a `step.run(id, ...)` with a fixed id; not a value the handler makes',
  policy: { declarePolicy: true, remedy: `${DECLARE_POLICY}.` },
  standIns: [{ module: '@inngest/agent-kit', folder: 'stand-ins/inngest-agent-kit' }],
  adapter: { none: 'no adapter yet: wrap the handler with a runner from `@retrysafe/spec` (createRunner) keyed by the Inngest run' },
} as const satisfies FrameworkEntry;
