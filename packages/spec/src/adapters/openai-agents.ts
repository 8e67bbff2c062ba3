/**
 * `@retrysafe/spec/adapters/openai-agents`: a `defineTool` tool as an OpenAI Agents SDK (JS)
 * function tool whose every call goes through the runner.
 *
 * ```ts
 * import { Agent, run as runAgent, type RunContext as AgentsRunContext } from '@openai/agents';
 * import { toOpenAIAgentsTool } from '@retrysafe/spec/adapters/openai-agents';
 *
 * type AppContext = { run: RunContext }; // RunContext from '@retrysafe/spec'
 * const agent = new Agent<AppContext>({
 *   name: 'Support',
 *   tools: [toOpenAIAgentsTool(issueRefund, { runner, run: (ctx: AgentsRunContext<AppContext>) => ctx.context.run })],
 * });
 * const run = await openRun(store, { kind: 'job', id: ticket.id }); // the same run on a retry or a resume
 * await runAgent(agent, prompt, { context: { run } });
 * ```
 *
 * @module
 */
import { tool, type FunctionTool, type RunContext as AgentsRunContext } from '@openai/agents';
import type { StandardJSONSchemaV1 } from '@standard-schema/spec';
import type { RunContext } from '../run.js';
import type { ResultOf, Runner } from '../runner.js';
import type { AnyTool } from '../tool.js';
import { markRunsThroughRunner } from './guardShared.js';
import {
  assertRetrysafeTool,
  callForModel,
  checkRun,
  declareToolPolicy,
  failureText,
  hasStandardJsonSchema,
  isMisconfiguration,
  isZodObject,
  resolveRun,
  validatedByFramework,
  standardJsonSchemaAdvice,
  vendorOf,
  type ModelResult,
  type RunSource,
} from './shared.js';

export type { ModelResult, RunSource } from './shared.js';
export { guardOpenAIAgentsTools, type AgentsToolsContext, type GuardedAgentsTool, type GuardedAgentsTools, type OpenAIAgentsGuardOptions } from './openai-agents-guard.js';
export type { ApprovalRule, GuardedCallEvent, GuardOptions } from './guardShared.js';

/** What the Agents SDK passes a tool call besides its arguments (its `ToolCallDetails`). */
export type AgentsToolCallDetails = Parameters<FunctionTool['invoke']>[2];

/** Options for {@link toOpenAIAgentsTool}. */
export interface OpenAIAgentsToolOptions<Context = unknown> {
  /** The runner every call goes through (`createRunner({ store })`). */
  readonly runner: Runner;
  /**
   * The run the calls belong to: a `RunContext` from `openRun(store, origin)`, or a function of the
   * Agents SDK's run context (your `context` object is `runContext.context`) and the call details
   * returning one. It must be durable, the same on a retry or a resume; never built from the
   * call id (`details.toolCall.callId`), which is new on every model turn (the adapter rejects a run
   * id that contains it).
   */
  readonly run: RunSource<[runContext: AgentsRunContext<Context>, details: AgentsToolCallDetails | undefined]>;
  /**
   * Turns a failed call into what the model sees. Default: {@link agentsFailureText}, which says
   * what happened to the effect and what to do next (for a `ConcurrentCallError`, to try again
   * later: it is in progress, not failed) and, like the SDK's own default, keeps the tool's own
   * error message out of the model's context. `null` lets every error propagate and fail the run.
   *
   * A configuration error is never given to it: a run the adapter refuses (no id, or an id built
   * from `details.toolCall.callId`: `TypeError`) and a retrysafe error whose code says the setup
   * is wrong (`tool_policy`, `invalid_key`, `invalid_identifier`, `input_not_fingerprintable`,
   * `durability_config`) are rethrown, so `run(agent, ...)` rejects with them, as with `null`.
   * Nothing ran, and no model could fix them by calling again.
   */
  readonly errorFunction?: ((runContext: AgentsRunContext<Context>, error: unknown) => string | Promise<string>) | null;
}

/** The function tool {@link toOpenAIAgentsTool} returns; its result is `{ result, replayed }`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parameters are the tool's own schema, checked at run time
export type OpenAIAgentsTool<T extends AnyTool, Context = unknown> = FunctionTool<Context, any, ModelResult<ResultOf<T>>>;

/**
 * The default `errorFunction` text for a failed call of `toolName`: for runner errors, what
 * happened to the effect and what the model should do (`ConcurrentCallError`: "already running
 * ... (409 Conflict) ... nothing has failed ... try again a little later with the same
 * arguments"); for invalid input, the schema's issues; for the tool's own error, whether calling
 * again is safe, from `decideRetry` and the declared policy, without the error's message.
 */
export function agentsFailureText(toolName: string, error: unknown): string {
  return failureText(toolName, fromSdkInputError(toolName, error), { toolErrorMessages: false });
}

// Arguments a zod object passed to the SDK rejected arrive as the SDK's `InvalidToolInputError`,
// its details redacted unless tool data logging is on; word it as the runner's would be.
function fromSdkInputError(toolName: string, error: unknown): unknown {
  if ((error as { name?: unknown } | null)?.name !== 'InvalidToolInputError') return error;
  const original = (error as { originalError?: unknown }).originalError;
  const detail = original instanceof Error ? `: ${original.message}` : '';
  return Object.assign(new Error(`Invalid input for tool "${toolName}"${detail}`), { name: 'InputValidationError' });
}

/**
 * Exposes a `defineTool` tool to the OpenAI Agents SDK (JavaScript, `@openai/agents` 0.20) as
 * `tool({ name, description, parameters, execute, errorFunction })`, with every call going
 * through `runner.call`.
 *
 * - `parameters`: when the tool's schema implements Standard JSON Schema (`~standard.jsonSchema`,
 *   @standard-schema/spec 1.1, as zod 4.6 and arktype 2.2 do), its input JSON Schema, which the SDK
 *   makes strict for the model (the same schema the SDK derives for any Standard Schema). The SDK
 *   then only parses the JSON and normalises strict mode's `null` for absent optional fields; the
 *   runner validates the arguments once, so a schema that transforms its input works (the SDK's
 *   own zod conversion refuses transforms) and invalid arguments reach the model as the schema's
 *   issues (the SDK redacts its own parse errors by default). A zod object without Standard JSON
 *   Schema (zod 3) is passed to the SDK as it is: the SDK parses the arguments with it, and the
 *   runner takes the parsed value without validating it again.
 * - `execute` resolves to `{ result, replayed }`: `replayed: true` when a with_key call returned
 *   the stored result of an earlier call (the seed's flag: "the model needs to know the action
 *   happened, not that it failed"). The SDK sends it to the model as JSON text.
 * - Errors: by default every failure of the call, invalid arguments included, becomes
 *   model-visible text from {@link agentsFailureText} rather than the SDK's generic "An error
 *   occurred while running the tool. Please try again.", which would tell the model to repeat a
 *   call that must not be repeated, and would call a call still in progress (409) a failure. Pass
 *   `errorFunction` to word it yourself, or `null` to let the runner's typed error fail the run.
 *   A configuration error (see {@link OpenAIAgentsToolOptions.errorFunction}) always fails the
 *   run with its own message: the SDK rethrows what an `errorFunction` throws.
 * - The policy is attached with `declarePolicy`: `policyOf(agentsTool)` returns `tool.policy`.
 *
 * Behaviour from the seed and the Agents SDK's tools guide
 * (https://openai.github.io/openai-agents-js/guides/tools/).
 *
 * @param retrysafeTool - a tool built with `defineTool`.
 * @param options - `{ runner, run, errorFunction? }`; see {@link OpenAIAgentsToolOptions}.
 * @returns the Agents SDK function tool, with the policy declared on it.
 * @throws TypeError if `retrysafeTool` is not a `defineTool` tool, if its schema is neither a
 *   Standard JSON Schema nor a zod object (valibot, for one, needs its Standard JSON Schema
 *   adapter), if its JSON Schema is not an object, or if a static `run` has no id. The SDK's own
 *   `UserError` if it cannot make the schema strict.
 */
export function toOpenAIAgentsTool<T extends AnyTool, Context = unknown>(
  retrysafeTool: T,
  options: OpenAIAgentsToolOptions<Context>,
): OpenAIAgentsTool<T, Context> {
  assertRetrysafeTool(retrysafeTool, 'toOpenAIAgentsTool');
  const { runner, run } = options;
  if (typeof run !== 'function') checkRun(run, undefined, 'toOpenAIAgentsTool');
  const { parameters, parsedBySdk } = parametersFor(retrysafeTool);
  const runnerTool = parsedBySdk ? validatedByFramework(retrysafeTool) : retrysafeTool;
  const wordFailure = options.errorFunction ?? ((_runContext: AgentsRunContext<Context>, error: unknown) => agentsFailureText(retrysafeTool.name, error));
  // The SDK rethrows what an errorFunction throws: a configuration error fails the run, typed,
  // instead of reaching the model as "issue_refund failed." (nothing a model can fix).
  const errorFunction =
    options.errorFunction === null
      ? null
      : (runContext: AgentsRunContext<Context>, error: unknown) => {
          if (isMisconfiguration(error)) throw error;
          return wordFailure(runContext, error);
        };
  return markRunsThroughRunner(declareToolPolicy(
    // eslint-disable-next-line @retrysafe/require-retry-policy -- declared right here, through the spec's own declarePolicy (imported by path inside this package)
    tool({
      name: retrysafeTool.name,
      description: retrysafeTool.description ?? retrysafeTool.name,
      parameters: parameters as never, // a strict JSON Schema object or a zod object, checked in parametersFor
      strict: true,
      execute: async (input: unknown, runContext?: AgentsRunContext<Context>, details?: AgentsToolCallDetails) => {
        if (runContext === undefined) throw new TypeError('toOpenAIAgentsTool: the Agents SDK passed no run context to execute.');
        const runOfCall: RunContext = await resolveRun(run, [runContext, details], details?.toolCall?.callId, 'toOpenAIAgentsTool');
        return callForModel(runner, runnerTool, input, runOfCall);
      },
      errorFunction,
    }),
    retrysafeTool.policy,
  )) as unknown as OpenAIAgentsTool<T, Context>;
}

function parametersFor(retrysafeTool: AnyTool): { readonly parameters: object; readonly parsedBySdk: boolean } {
  const schema = retrysafeTool.input;
  if (hasStandardJsonSchema(schema)) {
    const converter = (schema['~standard'] as unknown as StandardJSONSchemaV1['~standard']).jsonSchema;
    // A plain JSON copy: zod attaches its own `~standard` validator to the JSON Schema it returns,
    // and the SDK would then parse (and transform) the arguments with it after all.
    const parameters = JSON.parse(JSON.stringify(converter.input({ target: 'draft-2020-12' }))) as Record<string, unknown>;
    if (parameters['type'] !== 'object') {
      throw new TypeError(
        `toOpenAIAgentsTool(): the input schema of tool "${retrysafeTool.name}" is not an object schema; function tool parameters are an object. Wrap the input in an object schema.`,
      );
    }
    return { parameters, parsedBySdk: false };
  }
  if (isZodObject(schema)) return { parameters: schema, parsedBySdk: true };
  throw new TypeError(
    `toOpenAIAgentsTool(): the input schema of tool "${retrysafeTool.name}" (${vendorOf(schema)}) implements neither Standard ` +
      'JSON Schema (~standard.jsonSchema, @standard-schema/spec 1.1) nor is it a zod object, and @openai/agents needs one of ' +
      `them to describe the parameters to the model. ${standardJsonSchemaAdvice(schema)}`,
  );
}
