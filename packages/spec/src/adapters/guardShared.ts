/**
 * What the framework guards share (`guardAiSdkTools`, `guardOpenAIAgentsTools`,
 * `guardLangChainTools`, `guardMastraTools`): the options, the declared policy of each native
 * tool, one guarded call as the model sees it, and the approval rule. Internal: each adapter
 * re-exports the types its users need.
 *
 * @module
 */
import { describeFailure } from '../loop/failureText.js';
import { GuardedCallError, guardedRecord, runGuarded, type GuardedCallContext } from '../loop/guard.js';
import { policyOf, type SideEffects, type ToolPolicy } from '../policy.js';
import type { RunContext } from '../run.js';
import type { Runner } from '../runner.js';
import type { ModelResult, RunSource } from './shared.js';

/**
 * Which guarded calls need a person's approval, by declared policy: a list of side effects (such
 * as `['money_out', 'message_out']`) or a function of the policy and the tool's name. A call that
 * would only replay (its record exists: it was approved and started before in this run) never
 * needs approval again: the approval is bound to the call's key, so to its arguments' fingerprint.
 */
export type ApprovalRule = readonly SideEffects[] | ((policy: ToolPolicy, toolName: string) => boolean);

/** What happened to one guarded call, for `onCall` (logs, metrics, tests). */
export interface GuardedCallEvent {
  readonly tool: string;
  /** The framework's id of this call (new on every model turn; never part of the key). */
  readonly callId: string | undefined;
  readonly ok: boolean;
  /** True when the stored result of an earlier identical call was returned instead of running it. */
  readonly replayed: boolean;
  readonly key: string | undefined;
  /** The failure's `decideRetry` action, when `ok` is false. */
  readonly action?: 'retry' | 'refuse' | 'escalate' | undefined;
}

/** Options every framework guard takes. */
export interface GuardOptions<RunArgs extends readonly unknown[]> {
  /** The runner whose store keeps each consequential call's result (`createRunner({ store })`). */
  readonly runner: Runner;
  /**
   * The durable run: a `RunContext` from `openRun(store, origin)`, or a function of what the
   * framework hands the tool call that returns one. The same on a retry, a resume and a
   * redelivery; never derived from the tool-call id (rejected if it contains it).
   */
  readonly run: RunSource<RunArgs>;
  /** Tenant the records are scoped to; default the runner's namespace. */
  readonly namespace?: string;
  /** Map declared side effects to the framework's approvals; see {@link ApprovalRule}. */
  readonly requireApproval?: ApprovalRule;
  /** Called after every guarded call. */
  readonly onCall?: (event: GuardedCallEvent) => void;
}

/** @internal The options a guarded call reads (the run is resolved by the adapter). */
export type GuardSettings = Omit<GuardOptions<[]>, 'run'>;

/** @internal The declared policy of a native tool, or a TypeError naming `declarePolicy`. */
export function declaredPolicy(tool: unknown, name: string, guard: string): ToolPolicy {
  const policy = policyOf(tool);
  if (policy === undefined) {
    throw new TypeError(
      `${guard}(): tool "${name}" declares no retry policy, so the guard cannot tell whether a repeat is safe. ` +
        "Declare one: declarePolicy(tool, { side_effects, idempotent, retry }) from '@retrysafe/spec'.",
    );
  }
  return policy;
}

/** @internal One guarded call of a native tool. */
export interface NativeCall<R> {
  readonly name: string;
  readonly policy: ToolPolicy;
  readonly args: unknown;
  readonly run: RunContext;
  readonly callId: string | undefined;
  readonly execute: (context: GuardedCallContext) => R | PromiseLike<R>;
}

/**
 * @internal Runs a native call through the runner and returns what the model sees, or throws a
 * {@link GuardedCallError} whose message says whether calling again is safe.
 */
export async function guardedModelCall<R>(
  options: GuardSettings,
  call: NativeCall<R>,
  text: { readonly toolErrorMessages: boolean },
  signal?: AbortSignal,
): Promise<ModelResult<R>> {
  signal?.throwIfAborted(); // not started: nothing to record
  const outcome = await untilAborted(signal, runGuarded(options.runner, {
    tool: call.name,
    policy: call.policy,
    args: call.args,
    run: call.run,
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    execute: (_args, context) => call.execute(context),
  }));
  const base = { tool: call.name, callId: call.callId, key: outcome.key };
  if (outcome.ok) {
    options.onCall?.({ ...base, ok: true, replayed: outcome.replayed });
    return { result: outcome.result, replayed: outcome.replayed };
  }
  options.onCall?.({ ...base, ok: false, replayed: false, action: outcome.decision.action });
  const message = describeFailure({ tool: call.name, error: outcome.error, policy: call.policy, attempt: outcome.attempt, decision: outcome.decision }, text);
  throw new GuardedCallError(call.name, message, outcome);
}

// A framework that gives up on a call (a tool timeout) aborts its signal: the guard answers at
// once, while the effect, once started, runs on to completion and is recorded, so the model's
// next call replays it instead of running it again.
function untilAborted<T>(signal: AbortSignal | undefined, work: Promise<T>): Promise<T> {
  if (signal === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * @internal Whether a call needs approval under `rule`: its policy matches, and it has no record
 * yet in this run (a call with one would replay, or is the approved call itself, still running).
 */
export async function approvalNeeded(
  options: GuardSettings,
  call: Omit<NativeCall<unknown>, 'execute' | 'callId'>,
): Promise<boolean> {
  const rule = options.requireApproval;
  if (rule === undefined) return false;
  const matches = typeof rule === 'function' ? rule(call.policy, call.name) : rule.includes(call.policy.side_effects);
  if (!matches) return false;
  const record = await guardedRecord(options.runner, {
    tool: call.name,
    policy: call.policy,
    args: call.args,
    run: call.run,
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
  });
  return record === undefined;
}

// Tools an adapter built from a `defineTool` tool already run through the runner: a guard leaves
// them as they are instead of recording them twice.
const RUNS_THROUGH_RUNNER = Symbol.for('retrysafe.runsThroughRunner');

/** @internal Marks a framework tool whose every call already goes through the runner. */
export function markRunsThroughRunner<T extends object>(tool: T): T {
  try {
    Object.defineProperty(tool, RUNS_THROUGH_RUNNER, { value: true, enumerable: false });
  } catch {
    // a frozen tool stays unmarked: a guard then records its calls once more, which is harmless
  }
  return tool;
}

/** @internal Whether {@link markRunsThroughRunner} marked `tool`. */
export function runsThroughRunner(tool: unknown): boolean {
  return typeof tool === 'object' && tool !== null && (tool as { [RUNS_THROUGH_RUNNER]?: boolean })[RUNS_THROUGH_RUNNER] === true;
}

// Each guarded copy's native tool, so that the called-twice helper tests a guarded tool as the
// tool it guards, through the same guard, on the test's runner and run; and the name the guard
// gave it (an AI SDK tool's key in its tool set), which the helper's messages name it by.
const nativeOfGuarded = new WeakMap<object, { readonly native: object; readonly name: string | undefined }>();

/** @internal Records that `guarded` is the guard's copy of `native`, guarded under `name`; returns `guarded`. */
export function rememberGuarded<T extends object>(guarded: T, native: object, name?: string): T {
  nativeOfGuarded.set(guarded, { native, name });
  return guarded;
}

/** @internal The native tool a guard's copy guards, or `undefined` for a tool no guard made. */
export function nativeToolOf(tool: unknown): object | undefined {
  return typeof tool === 'object' && tool !== null ? nativeOfGuarded.get(tool)?.native : undefined;
}

/** @internal The name a guard's copy was guarded under (its tool set's key), if the guard recorded one. */
export function guardedNameOf(tool: unknown): string | undefined {
  return typeof tool === 'object' && tool !== null ? nativeOfGuarded.get(tool)?.name : undefined;
}
