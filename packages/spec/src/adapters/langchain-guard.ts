/**
 * `guardLangChainTools`: LangChain.js tools with declared policies, guarded in one line.
 * Re-exported by `@retrysafe/spec/adapters/langchain`.
 *
 * @module
 */
import type { StructuredToolInterface, ToolRunnableConfig } from '@langchain/core/tools';
import { declaredPolicy, guardedModelCall, rememberGuarded, runsThroughRunner, type GuardOptions } from './guardShared.js';
import { resolveRun } from './shared.js';

/** Options for {@link guardLangChainTools}; `run` may be a function of the invocation's config. */
export type LangChainGuardOptions = GuardOptions<[config: ToolRunnableConfig]>;

type CallMethod = (arg: unknown, runManager?: unknown, config?: ToolRunnableConfig) => Promise<unknown>;

/**
 * Guards LangChain tools: `createAgent({ model, tools: guardLangChainTools(tools, { runner, run }) })`.
 * Each tool must declare its policy (`metadata: { retrysafe: policy }` or `declarePolicy`); each
 * comes back as a tool of the same class whose calls (after LangChain has parsed the arguments
 * with the tool's schema) go through the runner by that policy (`runGuarded`, keyed by the
 * durable run, the tool's name and the canonical parsed arguments). A consequential call runs
 * once per run and the same call again resolves to `{ result, replayed: true }`; a naturally
 * idempotent tool runs every time (`{ result, replayed: false }`). A failure rejects with a
 * `GuardedCallError` whose message says whether calling again is safe (LangChain's tool node
 * shows a tool's error to the model). The run usually comes from the invocation's config:
 * `run: (config) => config.configurable?.['run']`, passed down from `agent.invoke(input, {
 * configurable: { run } })` (see docs/frameworks.md for durable sources, such as a LangGraph
 * `thread_id`). Never `config.runId`: LangChain makes a new one for every invocation.
 *
 * @param tools - the tools.
 * @param options - `{ runner, run, namespace?, onCall? }`. LangChain has no approval flow of its
 *   own (LangGraph's interrupts are the application's), so `requireApproval` is not read.
 * @returns the tools, in order, each guarded; tools from `toLangChainTool` unchanged.
 * @throws TypeError if a tool declares no policy, or a static `run` has no id.
 */
export function guardLangChainTools<const T extends readonly StructuredToolInterface[]>(tools: T, options: LangChainGuardOptions): T {
  return tools.map((tool) => (runsThroughRunner(tool) ? tool : guardTool(tool, options))) as unknown as T;
}

function guardTool(tool: StructuredToolInterface, options: LangChainGuardOptions): StructuredToolInterface {
  const { name } = tool;
  const policy = declaredPolicy(tool, name, 'guardLangChainTools');
  const original = (tool as unknown as { _call: CallMethod })._call;
  // A child object: LangChain's `invoke` and `call` (its schema parsing, callbacks, ToolMessage)
  // run as they are, and reach the guarded `_call` through `this`.
  const guarded = Object.create(tool) as StructuredToolInterface & { _call: CallMethod };
  guarded._call = async function (arg, runManager, config = {}) {
    const run = await resolveRun(options.run, [config], config.toolCall?.id, 'guardLangChainTools');
    return guardedModelCall(options, { name, policy, args: arg, run, callId: config.toolCall?.id, execute: () => original.call(this, arg, runManager, config) }, { toolErrorMessages: true });
  };
  return rememberGuarded(guarded, tool);
}
