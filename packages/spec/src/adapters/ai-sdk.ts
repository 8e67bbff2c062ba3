/**
 * `@retrysafe/spec/adapters/ai-sdk`: a `defineTool` tool as a Vercel AI SDK tool (`ai` 6 or 7,
 * the peer range `^6.0.0 || ^7.0.0`) whose every call goes through the runner.
 *
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { toAiSdkTool } from '@retrysafe/spec/adapters/ai-sdk';
 *
 * const run = await openRun(store, { kind: 'job', id: job.id });
 * await generateText({
 *   model,
 *   tools: { issue_refund: toAiSdkTool(issueRefund, { runner, run }) },
 *   stopWhen: stepCountIs(5),
 *   prompt,
 * });
 * ```
 *
 * The seed's handler behind the AI SDK's `execute`: a with_key tool called twice in a run replays
 * the first result (`{ result, replayed: true }`) instead of repeating the effect; a naturally
 * idempotent tool runs each time; a not-safely-repeatable tool runs once per call.
 *
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { asSchema, jsonSchema, tool, type Tool, type ToolExecutionOptions } from 'ai';
import type { RunContext } from '../run.js';
import type { ResultOf, Runner } from '../runner.js';
import type { AnyTool } from '../tool.js';
import { InputValidationError } from '../validate.js';
import { markRunsThroughRunner } from './guardShared.js';
import {
  assertRetrysafeTool,
  callForModel,
  checkRun,
  declareToolPolicy,
  hasStandardJsonSchema,
  resolveRun,
  standardJsonSchemaAdvice,
  vendorOf,
  type ModelResult,
  type RunSource,
} from './shared.js';

export type { ModelResult, RunSource } from './shared.js';
export { aiSdkToolApproval, guardAiSdkTools, type AiSdkCallOptions, type AiSdkGuardOptions } from './ai-sdk-guard.js';
export type { ApprovalRule, GuardedCallEvent, GuardOptions } from './guardShared.js';

/** Options for {@link toAiSdkTool}. */
export interface AiSdkToolOptions {
  /** The runner every call goes through (`createRunner({ store })`). */
  readonly runner: Runner;
  /**
   * The run the calls belong to: a `RunContext` from `openRun(store, origin)`, or a function of the
   * AI SDK's execute options returning one (for example from `experimental_context` in AI SDK 6,
   * or the tool's `context` in 7). It must be
   * durable: opened once per job, conversation or queue message and the same on a retry or a
   * resume. Never derive it from `toolCallId`, which the model makes new on every turn: keys built
   * from it would never match, and nothing would be replayed (the adapter rejects a run id that
   * contains the tool call id).
   */
  readonly run: RunSource<[options: ToolExecutionOptions]>;
}

/** The AI SDK tool {@link toAiSdkTool} returns: raw input in, `{ result, replayed }` out. */
export type AiSdkTool<T extends AnyTool> = Tool<StandardSchemaV1.InferInput<T['input']>, ModelResult<ResultOf<T>>>;

/**
 * Exposes a `defineTool` tool to the Vercel AI SDK (6 and 7) as `tool({ description, inputSchema,
 * execute })`, with every call going through `runner.call`.
 *
 * - `inputSchema`: the tool's JSON Schema as the AI SDK derives it from the tool's own schema
 *   (zod, or any Standard Schema that implements Standard JSON Schema, `~standard.jsonSchema`).
 *   The AI SDK validates the model's arguments with the tool's schema, so invalid input is an
 *   invalid tool call the model is told about (and `experimental_repairToolCall` can fix), but
 *   `execute` receives the arguments as the model sent them: the runner validates and transforms
 *   them once, also when `execute` is called directly.
 * - `execute(input, { toolCallId, messages, abortSignal })` resolves the run, refuses to start
 *   when `abortSignal` is already aborted (once started, the effect runs to completion and is
 *   recorded, so a retry replays it), and resolves to `{ result, replayed }`: the tool's result,
 *   and `replayed: true` when a with_key call returned the stored result of an earlier call.
 *   The AI SDK sends it to the model as JSON, so the model sees that the action happened.
 * - Errors: `execute` rejects with the runner's typed error (`ConcurrentCallError`,
 *   `AttemptsExhaustedError`, `InputValidationError`, the tool's own error ...). `generateText`
 *   and `streamText` turn it into a `tool-error` part whose message the model sees, and the
 *   application can pass `{ error, attempt }` to `decideRetry`. The runner's messages say whether
 *   the effect ran.
 * - The policy is attached with `declarePolicy`: `policyOf(aiTool)` returns `tool.policy`.
 *
 * Behaviour from the seed (replay flag, deterministic keys from durable state) and the AI SDK
 * `tool()` reference (https://ai-sdk.dev/docs/reference/ai-sdk-core/tool), the same in 6 and 7.
 * Tested with ai 6.0.325 (tests/adapters/ai-sdk.test.ts) and, the same tests, ai 7.0.173
 * (ai-sdk-v7.test.ts).
 *
 * @param retrysafeTool - a tool built with `defineTool`.
 * @param options - `{ runner, run }`; see {@link AiSdkToolOptions}.
 * @returns the AI SDK tool, with the policy declared on it.
 * @throws TypeError if `retrysafeTool` is not a `defineTool` tool, if its schema is neither zod
 *   nor a Standard JSON Schema, or if a static `run` has no id.
 */
export function toAiSdkTool<T extends AnyTool>(retrysafeTool: T, options: AiSdkToolOptions): AiSdkTool<T> {
  assertRetrysafeTool(retrysafeTool, 'toAiSdkTool');
  const { runner, run } = options;
  const schema: StandardSchemaV1 = retrysafeTool.input;
  if (vendorOf(schema) !== 'zod' && !hasStandardJsonSchema(schema)) {
    throw new TypeError(
      `toAiSdkTool(): the input schema of tool "${retrysafeTool.name}" (${vendorOf(schema)}) has no JSON Schema for the model: ` +
        `the AI SDK takes zod or a Standard JSON Schema (~standard.jsonSchema). ${standardJsonSchemaAdvice(schema)}`,
    );
  }
  if (typeof run !== 'function') checkRun(run, undefined, 'toAiSdkTool');
  const aiSchema = asSchema(schema);
  const inputSchema = jsonSchema<StandardSchemaV1.InferInput<T['input']>>(() => aiSchema.jsonSchema, {
    // Validate for the AI SDK's own invalid-tool-call handling, but hand `execute` the raw
    // arguments: the runner validates (and transforms) them exactly once.
    validate: async (value) => {
      const checked = await schema['~standard'].validate(value);
      return checked.issues === undefined
        ? { success: true, value: value as StandardSchemaV1.InferInput<T['input']> }
        : { success: false, error: new InputValidationError(retrysafeTool.name, checked.issues) };
    },
  });
  const execute = async (input: StandardSchemaV1.InferInput<T['input']>, executeOptions: ToolExecutionOptions) => {
    executeOptions.abortSignal?.throwIfAborted();
    const runContext: RunContext = await resolveRun(run, [executeOptions], executeOptions.toolCallId, 'toAiSdkTool');
    return callForModel(runner, retrysafeTool, input, runContext);
  };
  return markRunsThroughRunner(declareToolPolicy(
    // eslint-disable-next-line @retrysafe/require-retry-policy -- declared right here, through the spec's own declarePolicy (imported by path inside this package)
    tool({
      ...(retrysafeTool.description !== undefined ? { description: retrysafeTool.description } : {}),
      inputSchema,
      execute,
    }) as AiSdkTool<T>,
    retrysafeTool.policy,
  ));
}
