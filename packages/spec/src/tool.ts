/**
 * `defineTool`: a tool together with its retry policy, checked for contradictions by `tsc`.
 *
 * The seed: "Classify every tool", "Declare it in the tool spec", and "The dangerous case is the
 * third category masquerading as the second". A declaration that contradicts itself (a
 * not-repeatable tool with automatic retries, a with_key tool without a key ...) does not compile:
 * the offending property's type becomes a `Contradiction<"...">` that spells out the problem.
 *
 * @packageDocumentation
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { PolicyContradictions } from './contradictions.js';
import type { DurableInput } from './durable.js';
import { assertValidKey, InvalidKeyError, namedKeyParts, type DeterministicKey } from './key.js';
import {
  attachPolicy,
  toToolPolicy,
  type Idempotency,
  type KeyedToolPolicy,
  type PolicyShape,
  type Retry,
  type SideEffects,
  type ToolPolicy,
} from './policy.js';
import type { RunContext } from './run.js';
import type { ReconcileAnswer, ReconcileContext } from './runtime/reconcile.js';

/** What `execute` receives besides its input. */
export interface ExecuteContext {
  /** The run this call belongs to. */
  readonly run: RunContext;
}

/** What a with_key tool's `execute` receives besides its input. */
export interface KeyedExecuteContext extends ExecuteContext {
  /**
   * The key `key` derived for this call. Pass it through to the downstream provider if it supports
   * one (the seed: "so the guarantee holds even if your record-keeping fails").
   */
  readonly key: DeterministicKey;
  /**
   * Aborted when this call loses its lease on the key while the effect runs (the abort reason is
   * a `LeaseLostError`): a heartbeat renewal found that another call reclaimed the key, or
   * `lockMs` passed without a renewal the store confirmed (store unreachable, event loop
   * blocked). Pass it on (`fetch(url, { signal })`) or check it between steps. A lease is not a
   * lock: the signal tells, it cannot stop code already running, so the key passed downstream is
   * what keeps a second effect safe (docs/runtime.md, "Leases, not locks"). Always set by the
   * runner; optional in the type so a context built by hand in a test stays valid. The runner's
   * context reads it through an accessor, made on first read (an effect that never reads it costs
   * no `AbortController`): a copy made with a spread (`{ ...context }`) leaves it out, so pass
   * `context.signal` on by name.
   */
  readonly signal?: AbortSignal;
}

/** The context `execute` gets for a tool of idempotency class `I`. */
export type ExecuteContextFor<I> = [I] extends ['with_key'] ? KeyedExecuteContext : ExecuteContext;

/** What a with_key tool's `key` function receives: the validated input, durable leaf by leaf. */
export interface KeyArguments<Input> {
  readonly input: DurableInput<Input>;
  readonly run: RunContext;
}

/**
 * The object `defineTool` takes; see {@link defineTool} for each property. The type parameters
 * are inferred from the object literal: `S` from `input`, the policy literals from `sideEffects`,
 * `idempotent`, `retry` and `maxAttempts`, and `Result` from `execute`.
 */
export interface ToolDeclaration<
  S extends StandardSchemaV1 = StandardSchemaV1,
  SE extends SideEffects = SideEffects,
  I extends Idempotency = Idempotency,
  R extends Retry = Retry,
  Result = unknown,
  M extends number = number,
> {
  /** The tool's name, as the model sees it, such as `'issue_refund'`. */
  readonly name: string;
  /** What the tool does, as the model sees it. */
  readonly description?: string;
  /** What the tool changes: `'none' | 'internal_write' | 'external_write' | 'money_out' | 'message_out'`. */
  readonly sideEffects: SE;
  /** `true` (naturally idempotent), `'with_key'` (idempotent with a key) or `false` (not safely repeatable). */
  readonly idempotent: I;
  /** `'safe'` (idempotent: true), `'safe_with_same_key'` (idempotent: 'with_key') or `'never'`. */
  readonly retry: R;
  /** Attempts allowed in all, the first included (per key for with_key tools); default 3, or 1 for retry: 'never'. */
  readonly maxAttempts?: M;
  /** Any Standard Schema v1 (zod 4, valibot, arktype ...); `execute` receives its output type. */
  readonly input: S;
  /** with_key tools only: `({ run, input }) => key\`${run.id}:${input.orderId}:refund\``. */
  readonly key?: (args: KeyArguments<StandardSchemaV1.InferOutput<S>>) => DeterministicKey;
  /** Does the work on validated input; a with_key tool gets `context.key` to pass downstream. */
  readonly execute: (
    input: StandardSchemaV1.InferOutput<S>,
    context: ExecuteContextFor<I>,
  ) => Result | PromiseLike<Result>;
  /**
   * with_key tools only, optional: asked "did this happen?" before a reclaimed attempt whose
   * predecessor stopped without a recorded outcome (its lock lapsed) runs again; see
   * {@link defineTool} and `ReconcileAnswer`.
   */
  readonly reconcile?: (
    input: StandardSchemaV1.InferOutput<S>,
    context: ReconcileContext,
  ) => ReconcileAnswer<NoInfer<Result>> | PromiseLike<ReconcileAnswer<NoInfer<Result>>>;
}

/**
 * The names of the properties a declaration object literal has. `defineTool` infers them (`Keys`)
 * to know whether `key` is present before contextually typing any function in the literal; a type
 * parameter inferred from `key`'s return type would be fixed too early to tell.
 */
export type DeclaredProperties<Keys extends PropertyKey> = { readonly [P in Keys]: unknown };

/** The policy data `defineTool` builds from a declaration's literals. */
export interface PolicyFor<SE extends SideEffects, I extends Idempotency, R extends Retry> {
  readonly side_effects: SE;
  readonly idempotent: I;
  readonly retry: R;
  readonly max_attempts: [R] extends ['never'] ? 1 : number;
}

interface ToolBase<S extends StandardSchemaV1, P extends PolicyShape> {
  /** The tool's name, as the model sees it. */
  readonly name: string;
  /** What the tool does, or `undefined` if the declaration had no description. */
  readonly description: string | undefined;
  /** The declared retry policy as plain, frozen, JSON-serialisable data in the seed's shape. */
  readonly policy: P;
  /** The input schema (any Standard Schema v1: zod 4, valibot, arktype ...). */
  readonly input: S;
}

// `execute` and `deriveKey` are methods, not function-typed properties: a method's parameters are
// compared bivariantly, which keeps `Tool` covariant in its schema, so that a tool with a zod schema
// is assignable to `AnyTool` (whose schema is `StandardSchemaV1<any, any>`).

/** A tool that is idempotent with a key. */
export interface KeyedTool<S extends StandardSchemaV1, Result, P extends PolicyShape> extends ToolBase<S, P> {
  /**
   * Derives the call's key from its validated input and the run.
   * @throws InvalidKeyError if the key is empty or longer than 255 characters.
   */
  deriveKey(input: StandardSchemaV1.InferOutput<S>, run: RunContext): DeterministicKey;
  /** Runs the tool on validated input; `context.key` comes from {@link KeyedTool.deriveKey}. */
  execute(input: StandardSchemaV1.InferOutput<S>, context: KeyedExecuteContext): Promise<Result>;
  /**
   * The declaration's `reconcile` hook, if it has one: asked whether an indeterminate earlier
   * attempt's effect happened before the runner runs it again (see {@link defineTool}).
   */
  reconcile?(input: StandardSchemaV1.InferOutput<S>, context: ReconcileContext): Promise<ReconcileAnswer<Result>>;
}

/** A naturally idempotent or not safely repeatable tool: no key. */
export interface UnkeyedTool<S extends StandardSchemaV1, Result, P extends PolicyShape> extends ToolBase<S, P> {
  readonly deriveKey?: undefined;
  /** Runs the tool on validated input. */
  execute(input: StandardSchemaV1.InferOutput<S>, context: ExecuteContext): Promise<Result>;
}

/**
 * A tool built by {@link defineTool}: a {@link KeyedTool} when the policy is `idempotent:
 * 'with_key'`, an {@link UnkeyedTool} otherwise. Test `tool.deriveKey` to tell them apart: TypeScript
 * narrows the tool on it (a check of the nested `tool.policy.idempotent` does not narrow the tool).
 */
export type Tool<
  S extends StandardSchemaV1 = StandardSchemaV1,
  Result = unknown,
  P extends PolicyShape = ToolPolicy,
> = P extends { readonly idempotent: 'with_key' } ? KeyedTool<S, Result, P> : UnkeyedTool<S, Result, P>;

/** Any tool `defineTool` can return; what a runner accepts. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- input types vary per tool
export type AnyTool = Tool<StandardSchemaV1<any, any>, unknown, ToolPolicy>;

/** A with_key tool, whatever its input; `AnyTool` narrowed by `tool.deriveKey`. */
export type AnyKeyedTool = Extract<AnyTool, { readonly policy: KeyedToolPolicy }>;

/**
 * Declares a tool and its retry policy in the seed's vocabulary, and returns a plain {@link Tool}.
 *
 * ```ts
 * export const issueRefund = defineTool({
 *   name: 'issue_refund',
 *   sideEffects: 'money_out',
 *   idempotent: 'with_key',
 *   retry: 'safe_with_same_key',
 *   maxAttempts: 1,
 *   input: z.object({ orderId: z.string(), amountCents: z.number().int().positive() }),
 *   key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`,
 *   execute: async ({ orderId, amountCents }, { key }) =>
 *     payments.refund(orderId, amountCents, { idempotencyKey: key }),
 * });
 * ```
 *
 * - `name`, `description`: as the model sees them.
 * - `sideEffects`: see {@link SideEffects}.
 * - `idempotent`: `true` (naturally idempotent), `'with_key'` (idempotent with a key) or `false`
 *   (not safely repeatable); see {@link Idempotency}.
 * - `retry`: `'safe'` (naturally idempotent tools), `'safe_with_same_key'` (with_key tools) or
 *   `'never'`; see {@link Retry}.
 * - `maxAttempts`: attempts allowed in all, the first included; for a with_key tool, per key.
 *   Defaults to 3 for `'safe'` and `'safe_with_same_key'` and 1 for `'never'`, the only value that
 *   makes sense there.
 * - `input`: any Standard Schema v1; `execute` receives the schema's output type.
 * - `key`: with_key tools only, and required there: `({ input, run }) => key\`...\``, where every
 *   leaf of `input` is `Durable`.
 * - `execute(input, { run, key, signal })`: `key` and `signal` (aborted when the lease on the key
 *   is lost, see `KeyedExecuteContext.signal`) exist for with_key tools only.
 * - `reconcile(input, { run, key, attempt, since })`: with_key tools only, optional. For a
 *   provider that takes no idempotency key: when an earlier attempt stopped without a recorded
 *   outcome (its process died, so its lock lapsed: the effect may or may not have happened), the
 *   runner asks this hook before running the attempt again, e.g. by looking the payment up by
 *   its metadata. Answer `{ status: 'done', result }` (recorded as completed and replayed),
 *   `{ status: 'not_done' }` (the attempt runs) or `{ status: 'unknown', reason }` (nothing runs;
 *   the call throws `IndeterminateOutcomeError` and the record stays indeterminate, see
 *   `describeRecord`). A hook that throws counts as `unknown`. Without a hook the attempt runs
 *   again with the same key, which a keyed provider absorbs.
 *
 * Contradictory declarations do not compile; the error names a `Contradiction<"...">` (messages
 * in `CONTRADICTIONS`). Plain JavaScript gets the same checks at runtime.
 *
 * All type parameters are inferred; none needs to be written.
 * @typeParam S - the input schema. @typeParam SE, I, R, M - the policy literals.
 * @typeParam Result - what `execute` resolves to.
 * @typeParam Keys - the properties present in the literal (tells whether `key` is there).
 * @returns a frozen {@link Tool}: `{ name, description, policy, input, deriveKey?, execute }`;
 *   `execute` always returns a promise.
 * @throws {@link ToolPolicyError} if the declaration contradicts itself.
 * @throws TypeError if `name`, `input`, `key`, `execute` or `reconcile` has the wrong type, or
 *   `reconcile` is given to a tool that is not idempotent with a key.
 */
export function defineTool<
  S extends StandardSchemaV1,
  SE extends SideEffects,
  I extends Idempotency,
  R extends Retry,
  Result,
  const M extends number = never,
  Keys extends keyof ToolDeclaration = never,
>(
  declaration: ToolDeclaration<S, SE, I, R, Result, M> &
    DeclaredProperties<Keys> &
    PolicyContradictions<SE, I, R, M, 'key' extends Keys ? true : false>,
): Tool<S, Result, PolicyFor<SE, I, R>> {
  const { name, description, input, key, execute, reconcile } = declaration as unknown as RuntimeDeclaration;
  if (typeof name !== 'string' || name === '') throw new TypeError('defineTool(): name must be a non-empty string.');
  const subject = `tool "${name}"`;
  if (description !== undefined && typeof description !== 'string') {
    throw new TypeError(`defineTool(): ${subject}: description must be a string.`);
  }
  if (!isStandardSchema(input)) {
    throw new TypeError(`defineTool(): ${subject}: input must be a Standard Schema v1 (zod 4, valibot, arktype ...).`);
  }
  if (typeof execute !== 'function') throw new TypeError(`defineTool(): ${subject}: execute must be a function.`);
  if (key !== undefined && typeof key !== 'function') {
    throw new TypeError(`defineTool(): ${subject}: key must be a function ({ input, run }) => key\`...\`.`);
  }
  if (reconcile !== undefined && (typeof reconcile !== 'function' || key === undefined)) {
    throw new TypeError(`defineTool(): ${subject}: reconcile must be a function, and only a with_key tool (one with a key) has one.`);
  }
  const policy = toToolPolicy(
    {
      side_effects: declaration.sideEffects,
      idempotent: declaration.idempotent,
      retry: declaration.retry,
      max_attempts: declaration.maxAttempts,
    },
    subject,
    key !== undefined,
  );
  const tool: Record<string, unknown> = { name, description, policy, input };
  if (key !== undefined) {
    tool['deriveKey'] = (value: unknown, run: RunContext) => {
      try {
        return assertValidKey(key({ input: value, run }));
      } catch (error) {
        // A key too long for the limit: name its long parts after the fields they came from.
        throw error instanceof InvalidKeyError ? namedKeyParts(error, { input: value, run: { id: run.id } }) : error;
      }
    };
    tool['execute'] = async (value: unknown, context: KeyedExecuteContext) => {
      if (typeof context?.key !== 'string') {
        throw new TypeError(`${subject} is idempotent with a key: execute needs context.key (from deriveKey).`);
      }
      return execute(value, context);
    };
    if (reconcile !== undefined) {
      tool['reconcile'] = async (value: unknown, context: ReconcileContext) => reconcile(value, context);
    }
  } else {
    tool['execute'] = async (value: unknown, context: ExecuteContext) => execute(value, context);
  }
  attachPolicy(tool, policy);
  return Object.freeze(tool) as unknown as Tool<S, Result, PolicyFor<SE, I, R>>;
}

// The declaration as plain JavaScript may pass it.
interface RuntimeDeclaration {
  readonly name: unknown;
  readonly description?: unknown;
  readonly input: unknown;
  readonly key?: (args: { input: unknown; run: RunContext }) => unknown;
  readonly execute: (input: unknown, context: ExecuteContext) => unknown;
  readonly reconcile?: (input: unknown, context: ReconcileContext) => unknown;
}

/** @internal Whether `value` implements Standard Schema v1. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as Partial<StandardSchemaV1>)['~standard'];
  return typeof props === 'object' && props !== null && props.version === 1 && typeof props.validate === 'function';
}
