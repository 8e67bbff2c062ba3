/**
 * `@retrysafe/spec/adapters/langchain`: a `defineTool` tool as a LangChain.js structured tool
 * (`tool()` from `@langchain/core/tools`) whose every call goes through the runner.
 *
 * ```ts
 * import { toLangChainTool } from '@retrysafe/spec/adapters/langchain';
 *
 * const refund = toLangChainTool(issueRefund, {
 *   runner,
 *   run: (config) => config.configurable?.['run'], // a RunContext from openRun, passed per invocation
 * });
 * const run = await openRun(store, { kind: 'job', id: ticket.id });
 * await agent.invoke({ messages }, { configurable: { run } });
 * ```
 *
 * @module
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { tool, type DynamicStructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import type { RunContext } from '../run.js';
import type { ResultOf, Runner } from '../runner.js';
import type { AnyTool } from '../tool.js';
import { markRunsThroughRunner } from './guardShared.js';
import {
  assertRetrysafeTool,
  callForModel,
  checkRun,
  hasStandardJsonSchema,
  isZodObject,
  resolveRun,
  validatedByFramework,
  standardJsonSchemaAdvice,
  vendorOf,
  type ModelResult,
  type RunSource,
} from './shared.js';

export type { ModelResult, RunSource } from './shared.js';
export { guardLangChainTools, type LangChainGuardOptions } from './langchain-guard.js';
export type { ApprovalRule, GuardedCallEvent, GuardOptions } from './guardShared.js';

/** Options for {@link toLangChainTool}. */
export interface LangChainToolOptions {
  /** The runner every call goes through (`createRunner({ store })`). */
  readonly runner: Runner;
  /**
   * The run the calls belong to: a `RunContext` from `openRun(store, origin)`, or a function of
   * the LangChain config the tool is invoked with, returning one. The usual place is the config's
   * `configurable` (`agent.invoke(input, { configurable: { run } })`, which LangChain passes down to
   * every tool) or its `context`. It must be durable, the same on a retry or a resume; never built
   * from the tool call's id (`config.toolCall.id`), which is new on every model turn (the adapter
   * rejects a run id that contains it).
   */
  readonly run: RunSource<[config: ToolRunnableConfig]>;
}

/** The LangChain tool {@link toLangChainTool} returns; it resolves to `{ result, replayed }`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is the tool's own, checked at run time
export type LangChainTool<T extends AnyTool> = DynamicStructuredTool<any, any, StandardSchemaV1.InferInput<T['input']>, ModelResult<ResultOf<T>>>;

/**
 * Exposes a `defineTool` tool to LangChain.js (`@langchain/core` 1.x) as `tool(fn, { name,
 * description, schema, metadata: { retrysafe: policy } })`, with every call going through
 * `runner.call`.
 *
 * - `schema`: a zod object (3 or 4) is passed as it is; LangChain parses the arguments with it
 *   (a mismatch throws its `ToolInputParsingException`) and the runner takes the parsed value
 *   without validating it again. Another Standard Schema must implement Standard JSON Schema
 *   (`~standard.jsonSchema`, such as arktype): LangChain gets its input JSON Schema, checks the
 *   arguments against it, and the runner validates them with the tool's schema.
 * - `metadata.retrysafe`: the policy in the seed's shape, which `policyOf(lcTool)` reads and the
 *   `require-retry-policy` lint rule accepts. LangChain also copies a tool's metadata onto its
 *   `ToolMessage`s and into callbacks and traces.
 * - `invoke(args, config)` resolves to `{ result, replayed }` (`replayed: true` when a with_key
 *   call returned the stored result of an earlier call: the seed's "the model needs to know the
 *   action happened, not that it failed"). Invoked with a tool call, LangChain wraps it in a
 *   `ToolMessage` whose content is that object as JSON.
 * - Errors: `invoke` rejects with the runner's typed error (`ConcurrentCallError`,
 *   `AttemptsExhaustedError`, the tool's own error ...), the LangChain convention; LangChain's
 *   agent tool node turns a thrown tool error into an error `ToolMessage` the model sees (see its
 *   error-handling option), and the runner's messages say whether the effect ran.
 *
 * Behaviour from the seed and LangChain.js's tools documentation
 * (https://js.langchain.com/docs/concepts/tools/).
 *
 * @param retrysafeTool - a tool built with `defineTool`.
 * @param options - `{ runner, run }`; see {@link LangChainToolOptions}.
 * @returns the LangChain structured tool, its policy in `metadata.retrysafe`.
 * @throws TypeError if `retrysafeTool` is not a `defineTool` tool, if its schema is neither a zod
 *   object nor a Standard JSON Schema, or if a static `run` has no id.
 */
export function toLangChainTool<T extends AnyTool>(retrysafeTool: T, options: LangChainToolOptions): LangChainTool<T> {
  assertRetrysafeTool(retrysafeTool, 'toLangChainTool');
  const { runner, run } = options;
  if (typeof run !== 'function') checkRun(run, undefined, 'toLangChainTool');
  const { schema, parsedByLangChain } = schemaFor(retrysafeTool);
  const runnerTool = parsedByLangChain ? validatedByFramework(retrysafeTool) : retrysafeTool;
  const call = async (input: unknown, config: ToolRunnableConfig) => {
    const runOfCall: RunContext = await resolveRun(run, [config], config.toolCall?.id, 'toLangChainTool');
    return callForModel(runner, runnerTool, input, runOfCall);
  };
  return markRunsThroughRunner(
    tool(call, {
      name: retrysafeTool.name,
      description: retrysafeTool.description ?? retrysafeTool.name,
      schema: schema as never, // a zod object or a JSON Schema object, checked in schemaFor
      metadata: { retrysafe: retrysafeTool.policy },
    }),
  ) as unknown as LangChainTool<T>;
}

function schemaFor(retrysafeTool: AnyTool): { readonly schema: object; readonly parsedByLangChain: boolean } {
  const input = retrysafeTool.input;
  if (isZodObject(input)) return { schema: input, parsedByLangChain: true };
  if (hasStandardJsonSchema(input)) {
    const converter = (input['~standard'] as unknown as StandardJSONSchemaV1['~standard']).jsonSchema;
    // A plain JSON copy, so LangChain sees a JSON Schema and nothing else.
    const schema = JSON.parse(JSON.stringify(converter.input({ target: 'draft-07' }))) as Record<string, unknown>;
    if (schema['type'] === 'object') return { schema, parsedByLangChain: false };
    throw new TypeError(`toLangChainTool(): the input schema of tool "${retrysafeTool.name}" is not an object schema; a structured tool takes an object.`);
  }
  throw new TypeError(
    `toLangChainTool(): the input schema of tool "${retrysafeTool.name}" (${vendorOf(input)}) is neither a zod object nor a ` +
      'Standard JSON Schema (~standard.jsonSchema, @standard-schema/spec 1.1), and LangChain needs one of them to describe the ' +
      `arguments to the model. ${standardJsonSchemaAdvice(input)}`,
  );
}
