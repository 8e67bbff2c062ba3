/**
 * `@retrysafe/spec/adapters/mastra`: Mastra (`@mastra/core` 1.x) tools through the runner: a
 * `defineTool` tool as a Mastra tool (`toMastraTool`), and Mastra's own `createTool` tools with
 * declared policies, guarded in one line (`guardMastraTools`).
 *
 * ```ts
 * import { Agent } from '@mastra/core/agent';
 * import { guardMastraTools } from '@retrysafe/spec/adapters/mastra';
 *
 * const agent = new Agent({
 *   name: 'support',
 *   model,
 *   tools: guardMastraTools({ issueRefund, searchOrders }, {
 *     runner,
 *     // The memory thread is the durable run: the same on every turn and after a restart.
 *     run: (context) => openRun(store, { kind: 'custom', id: `thread:${context.agent?.threadId}` }),
 *   }),
 * });
 * ```
 *
 * @module
 */
import { createTool, type Tool as MastraTool, type ToolExecutionContext } from '@mastra/core/tools';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ResultOf, Runner } from '../runner.js';
import type { AnyTool } from '../tool.js';
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
export type { ApprovalRule, GuardedCallEvent, GuardOptions } from './guardShared.js';
export { guardMastraTools, type MastraGuardOptions } from './mastra-guard.js';

/** Options for {@link toMastraTool}. */
export interface MastraToolOptions {
  /** The runner every call goes through (`createRunner({ store })`). */
  readonly runner: Runner;
  /**
   * The durable run: a `RunContext` from `openRun`, or a function of Mastra's execution context
   * returning one (`context.agent?.threadId` for a memory thread, `context.workflow?.runId` for a
   * workflow run). Never `context.agent?.toolCallId`, which is new on every model turn.
   */
  readonly run: RunSource<[context: ToolExecutionContext]>;
}

/** The Mastra tool {@link toMastraTool} returns: raw input in, `{ result, replayed }` out. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is the tool's own, checked at run time
export type MastraAdapterTool<T extends AnyTool> = MastraTool<StandardSchemaV1.InferInput<T['input']>, ModelResult<ResultOf<T>>, any, any, any, string>;

/**
 * Exposes a `defineTool` tool to Mastra as `createTool({ id, description, inputSchema, execute })`,
 * every call going through `runner.call`: a with_key tool called twice in a run replays the first
 * result (`{ result, replayed: true }`). The input schema must implement Standard JSON Schema
 * (zod 4.6, arktype), which Mastra needs to describe the input to the model; Mastra validates the
 * arguments with it, and the runner validates them once more with the tool's own schema, which is
 * where transforms apply. Errors reject `execute` with the runner's typed error.
 *
 * @throws TypeError if `retrysafeTool` is not a `defineTool` tool, its schema has no JSON Schema,
 *   or a static `run` has no id.
 */
export function toMastraTool<T extends AnyTool>(retrysafeTool: T, options: MastraToolOptions): MastraAdapterTool<T> {
  assertRetrysafeTool(retrysafeTool, 'toMastraTool');
  const { runner, run } = options;
  if (!hasStandardJsonSchema(retrysafeTool.input)) {
    throw new TypeError(
      `toMastraTool(): the input schema of tool "${retrysafeTool.name}" (${vendorOf(retrysafeTool.input)}) has no JSON Schema for the model: ` +
        `Mastra takes a Standard JSON Schema (~standard.jsonSchema, as zod 4 and arktype implement it). ${standardJsonSchemaAdvice(retrysafeTool.input)}`,
    );
  }
  if (typeof run !== 'function') checkRun(run, undefined, 'toMastraTool');
  // eslint-disable-next-line @retrysafe/require-retry-policy -- declared below, through the spec's own declarePolicy (imported by path inside this package)
  const tool = createTool({
    id: retrysafeTool.name,
    description: retrysafeTool.description ?? retrysafeTool.name,
    inputSchema: retrysafeTool.input as never,
    execute: async (input: unknown, context: ToolExecutionContext) => {
      const runOfCall = await resolveRun(run, [context], context.agent?.toolCallId, 'toMastraTool');
      return callForModel(runner, retrysafeTool, input, runOfCall);
    },
  });
  return markRunsThroughRunner(declareToolPolicy(tool, retrysafeTool.policy)) as unknown as MastraAdapterTool<T>;
}
