/**
 * `guardMastraTools`: Mastra (`@mastra/core` 1.x) `createTool` tools with declared policies,
 * guarded in one line. Re-exported by `@retrysafe/spec/adapters/mastra`. Imports only Mastra's
 * types, so that `@retrysafe/spec/testing` can run a Mastra tool through it without loading Mastra.
 *
 * @module
 */
import type { Tool as MastraTool, ToolExecutionContext } from '@mastra/core/tools';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { approvalNeeded, declaredPolicy, guardedModelCall, rememberGuarded, runsThroughRunner, type GuardOptions } from './guardShared.js';
import { declareToolPolicy, resolveRun } from './shared.js';

/** Options for {@link guardMastraTools}; `run` may be a function of Mastra's execution context. */
export type MastraGuardOptions = GuardOptions<[context: ToolExecutionContext]>;

/**
 * Guards Mastra tools: `new Agent({ tools: guardMastraTools(tools, { runner, run }) })`. Each tool
 * must declare its policy (`declarePolicy(createTool({...}), policy)`); each comes back as a tool
 * of the same type whose `execute` goes through the runner by that policy (`runGuarded`, keyed by
 * the durable run, the tool's id and the canonical validated arguments). A consequential call runs
 * once per run; the same call again resolves to `{ result, replayed: true }` without running;
 * a naturally idempotent tool runs every time (`{ result, replayed: false }`). Invalid arguments
 * get Mastra's own validation error, and nothing runs. A failure rejects with a
 * `GuardedCallError` whose message says whether calling again is safe. `requireApproval` (for
 * example `['money_out']`) sets Mastra's per-call approval (`requireApproval` / `needsApprovalFn`):
 * a matching call needs approval unless it would replay.
 *
 * @throws TypeError if a tool declares no policy, or a static `run` has no id.
 */
export function guardMastraTools<const T extends Record<string, object>>(tools: T, options: MastraGuardOptions): T {
  const guarded: Record<string, object> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = (tool as { execute?: unknown }).execute;
    guarded[name] = typeof execute !== 'function' || runsThroughRunner(tool) ? tool : guardTool(tool as MastraTool, options);
  }
  return guarded as T;
}

function guardTool(tool: MastraTool, options: MastraGuardOptions): MastraTool {
  const name = tool.id;
  const policy = declaredPolicy(tool, name, 'guardMastraTools');
  const execute = tool.execute!.bind(tool) as (input: unknown, context: ToolExecutionContext) => Promise<unknown>;
  const runOf = (context: ToolExecutionContext) => resolveRun(options.run, [context], context.agent?.toolCallId, 'guardMastraTools');
  const copy = Object.assign(Object.create(Object.getPrototypeOf(tool) as object) as MastraTool, tool);
  copy.execute = async (input: unknown, context: ToolExecutionContext) => {
    const args = await validArguments(tool, input);
    // Invalid arguments: Mastra's own execute answers its ValidationError, and nothing runs.
    if (args === INVALID) return execute(input, context);
    return guardedModelCall(
      options,
      { name, policy, args, run: await runOf(context), callId: context?.agent?.toolCallId, execute: () => execute(input, context) },
      { toolErrorMessages: true },
    );
  };
  if (options.requireApproval !== undefined) {
    const own = tool.needsApprovalFn ?? (typeof tool.requireApproval === 'function' ? tool.requireApproval : undefined);
    const approval = async (input: unknown, context?: { requestContext?: Record<string, unknown> }) =>
      (own ? await own(input as never, context) : tool.requireApproval === true) ||
      approvalNeeded(options, { name, policy, args: input, run: await runOf(context as unknown as ToolExecutionContext) });
    copy.requireApproval = approval;
    copy.needsApprovalFn = approval;
  }
  return rememberGuarded(declareToolPolicy(copy, policy), tool);
}

const INVALID = Symbol('invalid');

async function validArguments(tool: MastraTool, input: unknown): Promise<unknown> {
  const schema = tool.inputSchema as StandardSchemaV1 | undefined;
  if (schema === undefined) return input;
  const checked = await schema['~standard'].validate(input);
  return checked.issues === undefined ? checked.value : INVALID;
}
