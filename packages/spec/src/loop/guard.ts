/**
 * Guarded calls: a tool that is not a `defineTool` tool (a framework-native tool with a declared
 * policy, an MCP tool registered the plain way) run through the runner by its declared policy.
 *
 * The seed, for model repetition after context loss: "The result of a consequential call should
 * stay in context or in run state, and a replay flag in the response tells it what happened." A
 * guarded call keeps that result in run state (a dedup record in the runner's store, keyed by
 * {@link callKey}: the durable run, the tool, the arguments), so the same call again in the same
 * run gets the first result flagged `replayed: true` instead of a second effect, whichever of the
 * five sources repeated it. The framework adapters' guards (`guardAiSdkTools`, ...) and the MCP
 * wire are built on {@link runGuarded}.
 *
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { callKey } from './callKey.js';
import { RetrysafeError } from '../errors.js';
import type { DeterministicKey } from '../key.js';
import type { KeyedToolPolicy, ToolPolicy } from '../policy.js';
import { decideRetry, type RetryDecision } from '../retry.js';
import type { RunContext } from '../run.js';
import type { CallResult, Runner } from '../runner.js';
import type { DedupRecord } from '../stores/types.js';
import type { AnyTool } from '../tool.js';

/** What a guarded tool's `execute` (and {@link currentCall}) knows about its call. */
export interface GuardedCallContext {
  /** The tool's name. */
  readonly tool: string;
  /** The durable run the call belongs to. */
  readonly run: RunContext;
  /**
   * The call's idempotency key, for every tool with a record (`idempotent: 'with_key'` or
   * `false`); pass it to a provider that takes one (Stripe's `idempotencyKey`), so the guarantee
   * holds even if the record is lost (the seed). `undefined` for a naturally idempotent tool.
   */
  readonly key: DeterministicKey | undefined;
}

/** One call of a tool with a declared policy, for {@link runGuarded}. */
export interface GuardedCall<Args = unknown, R = unknown> {
  /** The tool's name (the record is scoped to it). */
  readonly tool: string;
  /** The declared policy (`policyOf(frameworkTool)`, or an MCP tool's published policy). */
  readonly policy: ToolPolicy;
  /** The arguments, as the tool receives them (validated by the framework), plain JSON data. */
  readonly args: Args;
  /** The durable run: from `openRun`, the same on a retry, a resume and a redelivery. */
  readonly run: RunContext;
  /**
   * The key, when the caller supplies one (an MCP client's key from the request's `_meta`);
   * default `callKey(run, tool, args)`. Either way the record also holds the arguments'
   * fingerprint: the same key with other arguments is a `KeyReuseError` (422), not a replay.
   */
  readonly key?: DeterministicKey | undefined;
  /** Tenant or client the record is scoped to; default the runner's namespace. */
  readonly namespace?: string | undefined;
  /** For a naturally idempotent tool (no record), which attempt the loop is on; default 1. */
  readonly attempt?: number | undefined;
  /** Runs the tool once; its result must be plain JSON data to be kept for replay. */
  readonly execute: (args: Args, context: GuardedCallContext) => R | PromiseLike<R>;
}

/**
 * What {@link runGuarded} resolves to: the result (`replayed: true` when the same call had already
 * completed in this run), or the failure with what {@link decideRetry} makes of it under the
 * declared policy.
 */
export type GuardedOutcome<R = unknown> =
  | ({ readonly ok: true } & CallResult<R>)
  | {
      readonly ok: false;
      /** What the call threw: the tool's own error or one of the runner's typed errors. */
      readonly error: unknown;
      /** Attempts made so far, this one included. */
      readonly attempt: number;
      readonly key?: DeterministicKey;
      /** `decideRetry(policy, { error, attempt })`. */
      readonly decision: RetryDecision;
    };

/**
 * Runs one call of a tool with a declared policy through the runner, by its idempotency class:
 *
 * - `idempotent: 'with_key'` and `idempotent: false` (every consequential tool that is not
 *   naturally idempotent): the call has a dedup record keyed by {@link callKey} (or `call.key`).
 *   The first call runs `execute` and records its result; the same call again in the run replays
 *   it (`replayed: true`) without running `execute`; one still running elsewhere answers
 *   `ConcurrentCallError` (409). A with_key tool's failed attempt releases the record, and a
 *   retry runs it again with the same key, up to `max_attempts` per key. A not-safely-repeatable
 *   tool (`false`) gets exactly one attempt per key: after a failure, or a crash mid-effect, the
 *   same call answers `AttemptsExhaustedError` and never runs again automatically.
 * - `idempotent: true`: runs every time, with no record (the seed: calling twice produces the same
 *   end state).
 *
 * Never throws for a failed call: the outcome carries the error and the decision, so an adapter
 * words it for the model (`describeFailure`) and a loop acts on it (`retryByPolicy`).
 *
 * @param runner - `createRunner({ store })`: where the record lives, and its lock and TTL.
 * @param call - the tool, its policy and arguments, the run, and `execute`; see {@link GuardedCall}.
 * @returns `{ ok: true, result, replayed, key, attempt }` or `{ ok: false, error, attempt, key, decision }`.
 * @throws TypeError if the policy is not a policy (`declarePolicy` and `policyOf` give valid ones)
 *   or the run has no id.
 */
export async function runGuarded<Args, R>(runner: Runner, call: GuardedCall<Args, R>): Promise<GuardedOutcome<R>> {
  const tool = runnerToolFor(call);
  const options = {
    run: call.run,
    ...(call.namespace !== undefined ? { namespace: call.namespace } : {}),
    ...(call.attempt !== undefined ? { attempt: call.attempt } : {}),
  };
  const outcome = await runner.tryCall(tool, call.args, options);
  if (outcome.ok) return outcome as GuardedOutcome<R>;
  return { ...outcome, decision: decideRetry(call.policy, outcome) };
}

/**
 * The dedup record a guarded call would use, or `undefined` if there is none yet (or the tool is
 * naturally idempotent, which has none). A record means the call was started before in this run:
 * completed (a call now would replay) or in progress. Approval mappings use it so that a call
 * that would only replay is not put to a person again.
 *
 * @throws StoreUnavailableError if the store cannot be read; InputNotFingerprintableError.
 */
export async function guardedRecord(
  runner: Runner,
  call: Omit<GuardedCall, 'execute' | 'attempt'>,
): Promise<DedupRecord | undefined> {
  if (call.policy.idempotent === true) return undefined;
  const tool = runnerToolFor({ ...call, execute: () => undefined });
  const namespace = call.namespace !== undefined ? { namespace: call.namespace } : {};
  return runner.recordFor(tool as Parameters<Runner['recordFor']>[0], call.args, { run: call.run, ...namespace });
}

const callContext = new AsyncLocalStorage<GuardedCallContext>();

/**
 * Inside a guarded tool's `execute` (and anything it awaits): the call's run, key and attempt;
 * elsewhere `undefined`. For a framework-native tool whose `execute` has no place for them:
 *
 * ```ts
 * execute: async ({ orderId, amountCents }) =>
 *   stripe.refunds.create({ payment_intent: orderId, amount: amountCents }, { idempotencyKey: currentCall()?.key }),
 * ```
 */
export function currentCall(): GuardedCallContext | undefined {
  return callContext.getStore();
}

/**
 * @internal A schema for input the framework has validated already: the runner must not validate
 * a schema's output again (a transform would reject its own output).
 */
export const ALREADY_VALIDATED: StandardSchemaV1 = Object.freeze({
  '~standard': Object.freeze({
    version: 1 as const,
    vendor: 'retrysafe-framework-validated',
    validate: (value: unknown) => ({ value }),
  }),
});

// A runner tool for one call. A not-safely-repeatable tool is recorded as a with_key tool that is
// never retried and has one attempt per key: its record is the run state that stops a repeat.
function runnerToolFor<Args, R>(call: GuardedCall<Args, R>): AnyTool {
  const { tool: name, policy, run } = call;
  if (typeof name !== 'string' || name === '') throw new TypeError('runGuarded: call.tool must be the tool name.');
  const idempotent = (policy as { idempotent?: unknown } | null | undefined)?.idempotent;
  if (idempotent !== true && idempotent !== 'with_key' && idempotent !== false) {
    throw new TypeError(`runGuarded: tool "${name}" has no declared policy; declare one with declarePolicy(tool, policy).`);
  }
  if (idempotent === true) {
    return Object.freeze({
      name,
      description: undefined,
      policy,
      input: ALREADY_VALIDATED,
      execute: async (args: Args, context: { run: RunContext }) =>
        inCall({ tool: name, run: context.run, key: undefined }, () => call.execute(args, currentCall()!)),
    }) as unknown as AnyTool;
  }
  const recorded: KeyedToolPolicy =
    idempotent === false ? Object.freeze({ side_effects: policy.side_effects, idempotent: 'with_key', retry: 'never', max_attempts: 1 }) : (policy as KeyedToolPolicy);
  const key = call.key ?? callKey(run, name, call.args);
  return Object.freeze({
    name,
    description: undefined,
    policy: recorded,
    input: ALREADY_VALIDATED,
    deriveKey: () => key,
    execute: async (args: Args, context: { run: RunContext; key: DeterministicKey }) =>
      inCall({ tool: name, run: context.run, key: context.key }, () => call.execute(args, currentCall()!)),
  }) as unknown as AnyTool;
}

function inCall<R>(context: GuardedCallContext, body: () => R | PromiseLike<R>): Promise<R> {
  return callContext.run(context, async () => body());
}

/**
 * What a framework guard throws, or hands the framework as the tool's error, for a failed guarded
 * call: its `message` is the text the model reads (`describeFailure`: what happened to the effect,
 * and whether calling again is safe), `cause` the error the call threw (the tool's own, or one of
 * the runner's), `decision` what `decideRetry` made of it.
 */
export class GuardedCallError extends RetrysafeError {
  override readonly name = 'GuardedCallError';
  readonly code = 'guarded_call';
  /** The tool's name. */
  readonly tool: string;
  /** `decideRetry(policy, { error, attempt })`: retry, refuse or escalate. */
  readonly decision: RetryDecision;
  /** Attempts made so far, this one included. */
  readonly attempt: number;

  constructor(tool: string, message: string, failure: { readonly error: unknown; readonly decision: RetryDecision; readonly attempt: number }) {
    super(message, { cause: failure.error });
    this.tool = tool;
    this.decision = failure.decision;
    this.attempt = failure.attempt;
  }
}
