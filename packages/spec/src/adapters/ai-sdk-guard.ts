/**
 * `guardAiSdkTools`: AI SDK tools (`tool()` from `ai` 6 or 7) with declared policies, guarded in
 * one line. Re-exported by `@retrysafe/spec/adapters/ai-sdk`.
 *
 * Written against the tool object's shape (`execute`, `toModelOutput`, `needsApproval`), which AI
 * SDK 6 and 7 share, so one function serves both; the tests run it on both.
 *
 * @module
 */
import { approvalNeeded, declaredPolicy, guardedModelCall, rememberGuarded, runsThroughRunner, type GuardOptions } from './guardShared.js';
import { declareToolPolicy, resolveRun } from './shared.js';

/** What the AI SDK (6 and 7) passes a tool's `execute` and `needsApproval`, as far as the guard reads it. */
export interface AiSdkCallOptions {
  readonly toolCallId: string;
  readonly messages?: readonly unknown[];
  readonly abortSignal?: AbortSignal | undefined;
  /** AI SDK 6: `generateText`'s `experimental_context`. */
  readonly experimental_context?: unknown;
  /** AI SDK 7: the tool's context (`toolsContext[name]`). */
  readonly context?: unknown;
}

/** Options for {@link guardAiSdkTools}; `run` may be a function of the call's options. */
export type AiSdkGuardOptions = GuardOptions<[options: AiSdkCallOptions]>;

// The slice of an AI SDK tool the guard touches.
interface AiSdkToolShape {
  execute?: (input: unknown, options: AiSdkCallOptions) => unknown;
  toModelOutput?: (options: { toolCallId: string; input: unknown; output: unknown }) => unknown;
  needsApproval?: boolean | ((input: unknown, options: AiSdkCallOptions) => boolean | PromiseLike<boolean>);
}

/**
 * Guards a set of AI SDK tools: `generateText({ model, tools: guardAiSdkTools(tools, { runner, run }) })`.
 * Every tool with an `execute` must declare its policy (`declarePolicy(tool({...}), policy)`);
 * each comes back as a copy the AI SDK accepts unchanged (same input and output types), whose
 * calls go through the runner by that policy (`runGuarded`):
 *
 * - A consequential call (`idempotent: 'with_key'` or `false`) keeps its result in run state, a
 *   dedup record keyed by the durable run, the tool and the canonical arguments (`callKey`). The
 *   same call again in the run, with a new tool-call id (the model repeating itself after its
 *   history was trimmed, a retried generation, a resumed run), does not run `execute`: it gets
 *   the first result, and the model reads `{ result, replayed: true }` (through `toModelOutput`;
 *   the step's `output` stays the tool's own result, so an app's UI types do not change). Inside
 *   `execute`, `currentCall()?.key` is the key to pass to a provider.
 * - A naturally idempotent tool (`idempotent: true`) runs every time.
 * - A failure rejects with a `GuardedCallError` whose message, which the AI SDK shows the model as
 *   the tool error, says what `decideRetry` makes of it: "It is safe to call it again with the same
 *   arguments", or "Do not call it again; tell the user a person needs to check."
 * - `requireApproval` (for example `['money_out']`) sets the tool's `needsApproval` (AI SDK 6, and
 *   7, where it is deprecated but honoured; for 7's `toolApproval` use {@link aiSdkToolApproval}):
 *   a matching call asks for approval unless it would replay, so an approved call is never put to
 *   a person twice.
 * - Tools without `execute` (client-side) and tools from `toAiSdkTool` (already run through the
 *   runner) are returned as they are.
 *
 * Behaviour from the seed ("The result of a consequential call should stay in context or in run
 * state, and a replay flag in the response tells it what happened") and the AI SDK's tool and
 * approval references (https://ai-sdk.dev/docs/ai-sdk-core/tools-and-tool-calling).
 *
 * @param tools - the tool set, as `generateText` takes it.
 * @param options - `{ runner, run, namespace?, requireApproval?, onCall? }`.
 * @returns a tool set of the same type.
 * @throws TypeError if a tool with `execute` declares no policy, or a static `run` has no id.
 */
export function guardAiSdkTools<TOOLS extends Record<string, object>>(tools: TOOLS, options: AiSdkGuardOptions): TOOLS {
  const guarded: Record<string, object> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const shape = tool as AiSdkToolShape;
    guarded[name] = typeof shape.execute !== 'function' || runsThroughRunner(tool) ? tool : guardTool(name, shape, options);
  }
  return guarded as TOOLS;
}

function guardTool(name: string, tool: AiSdkToolShape, options: AiSdkGuardOptions): object {
  const policy = declaredPolicy(tool, name, 'guardAiSdkTools');
  const execute = tool.execute!.bind(tool);
  const replays = new Map<string, boolean>(); // by tool-call id, until toModelOutput reads it
  const runOf = (callOptions: AiSdkCallOptions) => resolveRun(options.run, [callOptions], callOptions.toolCallId, 'guardAiSdkTools');
  const copy: AiSdkToolShape & Record<string, unknown> = {
    ...(tool as Record<string, unknown>),
    execute: async (input: unknown, callOptions: AiSdkCallOptions) => {
      const answer = await guardedModelCall(
        options,
        { name, policy, args: input, run: await runOf(callOptions), callId: callOptions.toolCallId, execute: () => finalValue(execute(input, callOptions)) },
        { toolErrorMessages: true },
        callOptions.abortSignal,
      );
      replays.set(callOptions.toolCallId, answer.replayed);
      return answer.result;
    },
    toModelOutput: async (output: { toolCallId: string; input: unknown; output: unknown }) => {
      const replayed = replays.get(output.toolCallId) ?? false;
      replays.delete(output.toolCallId);
      return flagged(await tool.toModelOutput?.(output), output.output, replayed);
    },
  };
  if (options.requireApproval !== undefined) {
    copy.needsApproval = async (input: unknown, callOptions: AiSdkCallOptions) =>
      (await ownApproval(tool, input, callOptions)) || approvalNeeded(options, { name, policy, args: input, run: await runOf(callOptions) });
  }
  return rememberGuarded(declareToolPolicy(copy, policy), tool, name);
}

/**
 * For AI SDK 7's `toolApproval` (which replaces the tools' `needsApproval`): asks the guarded
 * tools' own `needsApproval`, so `requireApproval` and the replay rule apply.
 * `generateText({ tools, toolApproval: aiSdkToolApproval(tools) })`.
 *
 * @returns a `GenericToolApprovalFunction`: `'user-approval'` or `undefined` (not applicable).
 */
export function aiSdkToolApproval(tools: Record<string, object>) {
  return async ({ toolCall, messages }: { toolCall: { toolName: string; toolCallId: string; input: unknown }; messages?: readonly unknown[] }) => {
    const tool = tools[toolCall.toolName] as AiSdkToolShape | undefined;
    if (tool === undefined) return undefined;
    const needed = await ownApproval(tool, toolCall.input, { toolCallId: toolCall.toolCallId, messages: messages ?? [] });
    return needed ? ('user-approval' as const) : undefined;
  };
}

async function ownApproval(tool: AiSdkToolShape, input: unknown, callOptions: AiSdkCallOptions): Promise<boolean> {
  const own = tool.needsApproval;
  return typeof own === 'function' ? own(input, callOptions) : own === true;
}

// An AI SDK tool may stream preliminary results (an async iterable); its last value is the output.
async function finalValue(value: unknown): Promise<unknown> {
  if (typeof value !== 'object' || value === null || typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') return value;
  let last: unknown;
  for await (const part of value as AsyncIterable<unknown>) last = part;
  return last;
}

// What the model reads: `{ result, replayed }`, or the tool's own model output with the flag added.
function flagged(own: unknown, output: unknown, replayed: boolean): unknown {
  if (own === undefined) return { type: 'json', value: { result: output ?? null, replayed } };
  const part = own as { type?: unknown; value?: unknown };
  if (part.type === 'json') return { type: 'json', value: { result: part.value ?? null, replayed } };
  if (part.type === 'text' && replayed) {
    return { type: 'text', value: `${String(part.value)}\n(replayed: true; this already happened earlier in the run and was not done again)` };
  }
  return own;
}
