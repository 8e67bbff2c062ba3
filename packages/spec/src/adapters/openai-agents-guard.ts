/**
 * `guardOpenAIAgentsTools`: OpenAI Agents SDK function tools with declared policies, guarded in
 * one line. Re-exported by `@retrysafe/spec/adapters/openai-agents`.
 *
 * @module
 */
import type { FunctionTool, RunContext as AgentsRunContext, Tool } from '@openai/agents';
import { GuardedCallError } from '../loop/guard.js';
import { approvalNeeded, declaredPolicy, guardedModelCall, rememberGuarded, runsThroughRunner, type GuardOptions } from './guardShared.js';
import { declareToolPolicy, resolveRun, type ModelResult } from './shared.js';

/** What the Agents SDK passes a tool call besides its arguments (its `ToolCallDetails`). */
type CallDetails = Parameters<FunctionTool['invoke']>[2];

/** Options for {@link guardOpenAIAgentsTools}; `run` may be a function of the run context and the call details. */
export type OpenAIAgentsGuardOptions<Context = unknown> = GuardOptions<[runContext: AgentsRunContext<Context>, details: CallDetails | undefined]>;

/** A guarded function tool: the same tool, its result `{ result, replayed }`; other tools unchanged. */
export type GuardedAgentsTool<T> = T extends FunctionTool<infer C, infer P, infer R> ? FunctionTool<C, P, ModelResult<R>> : T;

/** The guarded tools, in order: {@link GuardedAgentsTool} of each. */
export type GuardedAgentsTools<T extends readonly unknown[]> = { -readonly [K in keyof T]: GuardedAgentsTool<T[K]> };

/**
 * The run context type the function tools in `T` declare (a tool whose `execute` takes
 * `runContext?: RunContext<AppContext>` is a `FunctionTool<AppContext>`), or `unknown` when none does.
 */
export type AgentsToolsContext<T extends readonly unknown[]> = [DeclaredContext<T[number]>] extends [never] ? unknown : DeclaredContext<T[number]>;
type DeclaredContext<E> = E extends { readonly type: 'function'; invoke(runContext: AgentsRunContext<infer C>, ...rest: never[]): unknown } ? (unknown extends C ? never : C) : never;

// The Agents SDK's default `errorFunction` answer (agents-core `defaultToolErrorFunction`): a tool
// built without `errorFunction: null` reports its failure with this text instead of throwing.
const SDK_DEFAULT_ERROR_TEXT = 'An error occurred while running the tool. Please try again.';

/**
 * Guards OpenAI Agents SDK tools: `new Agent({ tools: guardOpenAIAgentsTools(tools, { runner, run }) })`.
 *
 * The run context's type (what `run: (ctx) => ctx.context.run` reads) comes from, in order: the
 * type argument, `guardOpenAIAgentsTools<AppContext>(tools, { runner, run: (ctx) => ctx.context.run })`
 * (the tools then come back typed as `Tool<AppContext>`s); an annotation on `run`'s parameter,
 * `(ctx: RunContext<AppContext>) => ...`; the context a tool declares (a `FunctionTool<AppContext>`,
 * whose `execute` takes `runContext?: RunContext<AppContext>`). With none of them it is `unknown`,
 * and `ctx.context.run` does not compile (TypeScript does not infer it from `new Agent<AppContext>`).
 *
 * Every function tool must declare its policy (`declarePolicy(tool({...}), policy)`); each comes
 * back as a copy whose `invoke` goes through the runner by that policy (`runGuarded`, keyed by
 * the durable run, the tool and the canonical arguments):
 *
 * - A consequential call (`with_key` or `false`) runs once per run: the same call again (a new
 *   call id, after context loss, a resumed `RunState`, a redelivered job) answers the first result
 *   as `{ result, replayed: true }` without running the tool. A naturally idempotent tool runs
 *   every time; its result is `{ result, replayed: false }`.
 * - A failure (a thrown error, or the SDK's default "An error occurred while running the tool.
 *   Please try again.", which would invite a repeat of a call that must not be repeated) becomes
 *   the text `describeFailure` gives: whether calling again is safe, from `decideRetry`. The tool's
 *   own error message stays out of the model's context, as with the SDK's default. A custom
 *   `errorFunction` on the native tool hides failures from the guard: build guarded tools with
 *   `errorFunction: null` or none.
 * - `requireApproval` (for example `['money_out']`) sets `needsApproval`: a matching call is
 *   interrupted for approval unless it would replay (the approval is bound to the call's key).
 * - Hosted tools, and tools from `toOpenAIAgentsTool` (already run through the runner), are
 *   returned as they are.
 *
 * @param tools - the agent's tools.
 * @param options - `{ runner, run, namespace?, requireApproval?, onCall? }`.
 * @returns the tools, in order, function tools guarded.
 * @throws TypeError if a function tool declares no policy, or a static `run` has no id.
 */
export function guardOpenAIAgentsTools<const T extends readonly Tool<never>[], Context = AgentsToolsContext<T>>(
  tools: T,
  options: OpenAIAgentsGuardOptions<Context>,
): GuardedAgentsTools<T>;
/** The run context's type given first: `guardOpenAIAgentsTools<AppContext>(tools, options)`. */
export function guardOpenAIAgentsTools<Context, const T extends readonly Tool<never>[] = readonly Tool<Context>[]>(
  tools: T,
  options: OpenAIAgentsGuardOptions<Context>,
): GuardedAgentsTools<T>;
export function guardOpenAIAgentsTools<Context>(tools: readonly Tool<never>[], options: OpenAIAgentsGuardOptions<Context>): readonly Tool<never>[] {
  return tools.map((tool) =>
    (tool as { type?: unknown }).type === 'function' && !runsThroughRunner(tool) ? (guardFunctionTool(tool as unknown as FunctionTool<Context>, options) as unknown as Tool<never>) : tool,
  );
}

function guardFunctionTool<Context>(tool: FunctionTool<Context>, options: OpenAIAgentsGuardOptions<Context>): FunctionTool<Context> {
  const { name } = tool;
  const policy = declaredPolicy(tool, name, 'guardOpenAIAgentsTools');
  const runOf = (runContext: AgentsRunContext<Context>, details: CallDetails | undefined) =>
    resolveRun(options.run, [runContext, details], details?.toolCall?.callId, 'guardOpenAIAgentsTools');
  const invoke = async (runContext: AgentsRunContext<Context>, input: string, details?: CallDetails) => {
    const args = parseArguments(input);
    // Arguments that are not JSON never reach the tool's execute: the SDK reports them itself.
    if (args === undefined) return tool.invoke(runContext, input, details);
    try {
      return await guardedModelCall(
        options,
        {
          name,
          policy,
          args,
          run: await runOf(runContext, details),
          callId: details?.toolCall?.callId,
          execute: async () => {
            const output = await tool.invoke(runContext, input, details);
            if (output === SDK_DEFAULT_ERROR_TEXT) throw new Error(`${name} failed (the Agents SDK reported its default error text)`);
            return output;
          },
        },
        { toolErrorMessages: false },
      );
    } catch (error) {
      if (error instanceof GuardedCallError) return error.message;
      throw error;
    }
  };
  const copy: FunctionTool<Context> = { ...tool, invoke };
  if (options.requireApproval !== undefined) {
    const own = tool.needsApproval;
    copy.needsApproval = async (runContext, input, callId) =>
      (await own(runContext, input, callId)) ||
      approvalNeeded(options, { name, policy, args: input, run: await runOf(runContext as AgentsRunContext<Context>, undefined) });
  }
  return rememberGuarded(declareToolPolicy(copy, policy), tool);
}

function parseArguments(input: string): unknown {
  try {
    return JSON.parse(input === '' ? '{}' : input) as unknown;
  } catch {
    return undefined;
  }
}
