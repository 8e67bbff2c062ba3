/**
 * What a model reads when a tool call fails: what happened to the effect and what to do next, in
 * words it acts on ("It is safe to call it again", "Do not call it again; tell the user a person
 * needs to check"). The seed: "retry the safe ones, refuse to auto-retry the unsafe ones, escalate
 * instead"; in a framework's loop the model is the one that retries, so the decision reaches it
 * as text.
 *
 * @module
 */
import type { PolicyShape } from '../policy.js';
import { decideRetry, type RetryDecision } from '../retry.js';

/** A failed call, as {@link describeFailure} needs it. */
export interface FailureToDescribe {
  /** The tool's name, as the model knows it. */
  readonly tool: string;
  /** What the call threw (a runner error is recognised by its `name`). */
  readonly error: unknown;
  /** The declared policy; without it a tool's own error gets no retry advice. */
  readonly policy?: PolicyShape | undefined;
  /** Attempts made so far, this one included (from `tryCall`); default 1. */
  readonly attempt?: number | undefined;
  /** `decideRetry(policy, { error, attempt })`, if already computed. */
  readonly decision?: RetryDecision | undefined;
}

/** Options for {@link describeFailure}. */
export interface DescribeFailureOptions {
  /**
   * Include the tool's own error message (default false). A framework that keeps tool errors out
   * of the model's context by default (OpenAI Agents) keeps doing so; MCP shows them.
   */
  readonly toolErrorMessages?: boolean;
}

/**
 * The text the model sees for a failed call. For the runner's errors it says what happened to the
 * effect (`ConcurrentCallError`: "already running ... (409 Conflict) ... nothing has failed ... try
 * again a little later with the same arguments"; `AttemptsExhaustedError`: "Do not call it again;
 * tell the user a person needs to check whether it happened"). For the tool's own error it says
 * what {@link decideRetry} makes of it under the declared policy: `retry` → "It is safe to call it
 * again with the same arguments", `refuse` → "It changes nothing ... do not call it again with the
 * same arguments", `escalate` → "its effect (money_out) may or may not have happened. Do not call
 * it again; tell the user a person needs to check." Store locations and key text stay out of it.
 *
 * @returns one or two sentences, for a tool result or an error message the model reads.
 * @throws TypeError if `attempt` is given and is not a positive integer (from `decideRetry`).
 */
export function describeFailure(failure: FailureToDescribe, options: DescribeFailureOptions = {}): string {
  const { tool, error, policy } = failure;
  const name = typeof (error as { name?: unknown } | null)?.name === 'string' ? (error as { name: string }).name : '';
  const message = error instanceof Error ? error.message : String(error);
  const known = RUNNER_ERROR_TEXT[name];
  if (known !== undefined) return known(tool, message);
  // The message's own closing period is dropped: the sentence goes on ("... (attempt 1 of 3)", ".").
  const failed = options.toolErrorMessages === true ? `${tool} failed: ${message.replace(/\.\s*$/, '')}` : `${tool} failed`;
  if (policy === undefined) return `${failed}.`;
  const attempt = failure.attempt ?? 1;
  const decision = failure.decision ?? decideRetry(policy, { error, attempt });
  switch (decision.action) {
    case 'retry':
      return (
        `${failed} (attempt ${attempt} of ${policy.max_attempts}). It is safe to call it again with the same arguments` +
        (policy.idempotent === 'with_key' ? ': if an earlier attempt took effect, its result is returned instead of repeating it.' : '.')
      );
    case 'refuse':
      return `${failed}. It changes nothing, so nothing needs checking; do not call it again with the same arguments.`;
    case 'escalate':
      return `${failed}, and its effect (${policy.side_effects}) may or may not have happened. Do not call it again; tell the user a person needs to check.`;
  }
}

// The runner's errors say what happened to the effect whatever the policy.
const RUNNER_ERROR_TEXT: Readonly<Record<string, (tool: string, message: string) => string>> = {
  ConcurrentCallError: (tool) =>
    `${tool} is already running with these arguments (409 Conflict). This call did not run it again, and nothing has failed. ` +
    'Try again a little later with the same arguments to get its result.',
  // The MCP adapter's: an unkeyed call of a with_key tool on a server with no run for one (its message says what to send).
  IdempotencyKeyRequiredError: (_tool, message) => message,
  InputValidationError: (tool, message) => `${message}\nNothing ran. Fix the arguments and call ${tool} again.`,
  KeyReuseError: (tool) =>
    `${tool} did not run: in this run it already ran for the same item with different arguments (422: its idempotency key ` +
    'was first used with another input). Do not call it again with these arguments; tell the user a person needs to check.',
  AttemptsExhaustedError: (tool) =>
    `${tool} did not run: every attempt allowed for this work is used up without completing, and the last one may have ` +
    'taken effect. Do not call it again; tell the user a person needs to check whether it happened.',
  StoreUnavailableError: (tool) =>
    `${tool} did not run: its idempotency record store is unavailable, so nothing happened. Do not call it again now; tell the user the tool is unavailable.`,
  UnserializableResultError: (tool) =>
    `${tool} ran once, but its result could not be recorded. Do not call it again; tell the user a person needs to check the result.`,
  InvalidKeyError: (tool) => misconfigured(tool, 'InvalidKeyError'),
  InputNotFingerprintableError: (tool) => misconfigured(tool, 'InputNotFingerprintableError'),
  ToolPolicyError: (tool) => misconfigured(tool, 'ToolPolicyError'),
  InvalidIdentifierError: (tool) =>
    `${tool} did not run: its tenant, its name or the key built from its arguments holds text that cannot be stored exactly ` +
    '(an unpaired surrogate or a NUL character), so nothing happened. If the arguments hold such text, fix them and call again; ' +
    'otherwise tell the user the tool needs fixing.',
  DurabilityConfigError: (tool) =>
    `${tool} did not run: its idempotency records are configured so that they could vanish before a retry, so nothing happened. ` +
    'Do not call it again now; tell the user the tool needs fixing.',
  IndeterminateOutcomeError: (tool) =>
    `${tool} did not run this time: an earlier attempt stopped without a recorded outcome, and whether it took effect could not ` +
    'be determined. Do not call it again; tell the user a person needs to check whether it happened.',
};

function misconfigured(tool: string, name: string): string {
  return `${tool} did not run: the tool is misconfigured (${name}). Do not call it again; tell the user it needs fixing.`;
}
