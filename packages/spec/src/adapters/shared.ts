/**
 * What the four framework adapters share: checking the tool, resolving the run, calling through
 * the runner, the result the model sees, and the text a failure becomes for the model. Internal:
 * not a subpath export; each adapter re-exports the types its users need.
 *
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { declarePolicy, type Idempotency, type PolicyShape, type Retry, type SideEffects, type ToolPolicy } from '../policy.js';
import { describeFailure } from '../loop/failureText.js';
import { ALREADY_VALIDATED } from '../loop/guard.js';
import { isRetrysafeError, type RetrysafeErrorCode } from '../errors.js';
import { decideRetry, type RetryDecision } from '../retry.js';
import type { RunContext } from '../run.js';
import type { ResultOf, Runner } from '../runner.js';
import { isStandardSchema, type AnyTool } from '../tool.js';

/**
 * What the model sees when a call succeeds, in every adapter: the tool's result, and the seed's
 * replay flag ("Return the original result, flagged as a replay — the model needs to know the
 * action happened, not that it failed").
 */
export interface ModelResult<R = unknown> {
  /** The tool's result: from the effect, or the stored result of the first call when `replayed`. */
  readonly result: R;
  /** True when the effect did not run because an earlier call with the same key completed it. */
  readonly replayed: boolean;
}

/**
 * Where a call's run comes from: a {@link RunContext} (from `openRun`), or a function of what the
 * framework hands the tool call that returns one. Either way the run id must be durable: the same
 * on a retry, a resume or a redelivery, never derived from the framework's per-turn tool call id.
 */
export type RunSource<Args extends readonly unknown[]> =
  | RunContext
  | ((...args: Args) => RunContext | PromiseLike<RunContext>);

/**
 * @internal `declarePolicy` for a policy `defineTool` already checked: the type parameters are the
 * whole vocabulary, so the union `ToolPolicy` is accepted (each member is consistent).
 */
export function declareToolPolicy<F extends object>(frameworkTool: F, policy: ToolPolicy): F {
  return declarePolicy<F, SideEffects, Idempotency, Retry, number>(frameworkTool, policy);
}

/** @internal Throws a TypeError unless `tool` is a `defineTool` tool. */
export function assertRetrysafeTool(tool: unknown, adapter: string): asserts tool is AnyTool {
  const candidate = tool as Partial<AnyTool> | null | undefined;
  const ok =
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.name === 'string' &&
    typeof candidate.execute === 'function' &&
    typeof candidate.policy === 'object' &&
    isStandardSchema(candidate.input);
  if (!ok) {
    throw new TypeError(
      `${adapter}() takes a tool built with defineTool() from @retrysafe/spec (name, policy, input, execute). ` +
        'To declare a policy on a tool built with the framework itself, use declarePolicy(frameworkTool, policy).',
    );
  }
}

/**
 * @internal Resolves the run for one call and checks it: a non-empty string id, not built from
 * the framework's tool call id (new on every model turn, so a key built from it never matches a
 * retry: the seed's "the key must be derived from durable state").
 */
export async function resolveRun<Args extends readonly unknown[]>(
  source: RunSource<Args>,
  args: Args,
  callId: string | undefined,
  adapter: string,
): Promise<RunContext> {
  const run = typeof source === 'function' ? await source(...args) : source;
  return checkRun(run, callId, adapter);
}

/** @internal See {@link resolveRun}. */
export function checkRun(run: unknown, callId: string | undefined, adapter: string): RunContext {
  const id = (run as { id?: unknown } | null | undefined)?.id;
  if (typeof run !== 'object' || run === null || typeof id !== 'string' || id === '') {
    throw misconfiguration(
      new TypeError(`${adapter}: run must be a RunContext ({ id }) from openRun(store, origin), or a function returning one; got ${describeRun(run)}.`),
    );
  }
  if (callId !== undefined && containsAsSegments(id, callId)) {
    throw misconfiguration(
      new TypeError(
        `${adapter}: run id ${JSON.stringify(id)} contains the tool call id ${JSON.stringify(callId)}, which is new on every ` +
          'model turn: a key built from it is new on every retry, so nothing is ever replayed. Open the run once per job ' +
          'with openRun(store, { kind, id }) and pass it (or a function that returns it) as `run`.',
      ),
    );
  }
  return run as RunContext;
}

// The TypeErrors `checkRun` throws: the application passed a run that cannot work.
const misconfigurations = new WeakSet<object>();

function misconfiguration<E extends Error>(error: E): E {
  misconfigurations.add(error);
  return error;
}

// The runner's errors that say the code is set up wrong, not that this call failed: the fix is in
// the tool's declaration, its key function or schema, or the store's configuration.
const MISCONFIGURATION_CODES: ReadonlySet<RetrysafeErrorCode> = new Set<RetrysafeErrorCode>([
  'tool_policy',
  'invalid_key',
  'invalid_identifier',
  'input_not_fingerprintable',
  'durability_config',
]);

/**
 * @internal Whether `error` is a configuration error rather than an outcome of the call: a run the
 * adapter refused (`checkRun`'s TypeError: no id, or built from the tool call id), or a
 * retrysafe error whose code says the declaration, the key function, the schema or the store is
 * set up wrong (`tool_policy`, `invalid_key`, `invalid_identifier`, `input_not_fingerprintable`,
 * `durability_config`). No model can fix these, and nothing ran; an adapter lets them reach the
 * application instead of wording them for the model. The tool's own errors (a `TypeError` from
 * `fetch` included) are never configuration errors.
 */
export function isMisconfiguration(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  return misconfigurations.has(error) || (isRetrysafeError(error) && MISCONFIGURATION_CODES.has(error.code));
}

// A letter or a digit: what a segment of an id is made of (`job`, `order`, `17` in `job:order-17`).
const SEGMENT_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * @internal Whether `callId` occurs in `id` as whole segments: bounded on each side by the start or
 * end of `id` or by a separator (any character that is not a letter or a digit). `call_9f8e` is in
 * `job:call_9f8e`; the call id `1` is not in `job:order-17`, where a substring test found it.
 */
export function containsAsSegments(id: string, callId: string): boolean {
  if (callId === '') return false; // indexOf('') matches everywhere, and past the end too
  for (let at = id.indexOf(callId); at !== -1; at = id.indexOf(callId, at + 1)) {
    const before = id.charAt(at - 1);
    const after = id.charAt(at + callId.length);
    if (!SEGMENT_CHARACTER.test(before) && !SEGMENT_CHARACTER.test(after)) return true;
  }
  return false;
}

function describeRun(run: unknown): string {
  if (run === null || run === undefined) return String(run);
  if (typeof run !== 'object') return `a ${typeof run}`;
  return `an object whose id is ${JSON.stringify((run as { id?: unknown }).id) ?? 'undefined'}`;
}

// Each failure `callForModel` rethrows, with what `decideRetry` made of it, so that a framework's
// error hook (which receives only the error) can tell the model what to do next.
const failures = new WeakMap<object, { readonly tool: string; readonly policy: PolicyShape; readonly decision: RetryDecision; readonly attempt: number }>();

/**
 * @internal Calls `tool` through the runner and returns what the model sees. On failure rethrows
 * the runner's error unchanged (typed, for the application), remembering the retry decision for
 * {@link failureText}.
 */
export async function callForModel<T extends AnyTool>(
  runner: Runner,
  tool: T,
  input: unknown,
  run: RunContext,
): Promise<ModelResult<ResultOf<T>>> {
  const outcome = await runner.tryCall(tool, input, { run });
  if (outcome.ok) return { result: outcome.result, replayed: outcome.replayed };
  const { error, attempt } = outcome;
  if (typeof error === 'object' && error !== null) {
    failures.set(error, { tool: tool.name, policy: tool.policy, decision: decideRetry(tool.policy, outcome), attempt });
  }
  throw error;
}

/**
 * @internal A copy of `tool` for a framework that has already validated the model's arguments
 * with the tool's own schema and hands over the schema's output: the runner must not validate that
 * output again (a schema with a transform, such as a string parsed into a number, would reject its
 * own output). Key, fingerprint and `execute` see the same validated value the runner would have
 * produced.
 */
export function validatedByFramework<T extends AnyTool>(tool: T): T {
  return Object.freeze({ ...tool, input: ALREADY_VALIDATED }) as unknown as T;
}

/** @internal Whether `schema` is a zod (3 or 4) object schema. */
export function isZodObject(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const v4 = (schema as { _zod?: { def?: { type?: unknown } } })._zod?.def?.type;
  const v3 = (schema as { _def?: { typeName?: unknown } })._def?.typeName;
  return v4 === 'object' || v3 === 'ZodObject';
}

/** @internal Whether `schema` implements Standard JSON Schema (`~standard.jsonSchema`, @standard-schema/spec 1.1). */
export function hasStandardJsonSchema(schema: StandardSchemaV1): boolean {
  const converter = (schema['~standard'] as { jsonSchema?: { input?: unknown } }).jsonSchema;
  return typeof converter?.input === 'function';
}

/** @internal The schema library's name, for error messages. */
export function vendorOf(schema: StandardSchemaV1): string {
  return schema['~standard'].vendor;
}

/**
 * @internal How to give a schema a Standard JSON Schema, for the adapters' errors: the library's
 * own wrapper where there is one (valibot's schemas carry none themselves; `toStandardJsonSchema`
 * from `@valibot/to-json-schema` adds it), or the general advice.
 */
export function standardJsonSchemaAdvice(schema: StandardSchemaV1): string {
  return vendorOf(schema) === 'valibot'
    ? "Wrap the valibot schema with toStandardJsonSchema from '@valibot/to-json-schema' (input: toStandardJsonSchema(v.object({...}))), or declare the input with zod."
    : "Declare the input with zod, with a library that implements Standard JSON Schema (such as arktype), or through your schema library's Standard JSON Schema adapter.";
}

/**
 * @internal The text the model sees for a failed call (`describeFailure`), with the policy, the
 * attempt and the decision `callForModel` remembered for the error.
 */
export function failureText(toolName: string, error: unknown, options: { readonly toolErrorMessages: boolean }): string {
  const known = typeof error === 'object' && error !== null ? failures.get(error) : undefined;
  return describeFailure(
    known === undefined ? { tool: toolName, error } : { tool: known.tool, error, policy: known.policy, attempt: known.attempt, decision: known.decision },
    options,
  );
}
