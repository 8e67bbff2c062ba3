/**
 * A reference agent loop. The model's tool calls are scripted here (`calls`); everything else is
 * what a real loop does: call the tool through the runner, and on failure ask `decideRetry` what
 * the tool's declared policy allows: retry (same input, so the same key), refuse (hand the error
 * back to the model), or escalate (stop the run for a person).
 */
import { decideRetry, type AnyTool, type RetryDecision, type RunContext, type Runner } from '@retrysafe/spec';

/** One tool call the model asks for. */
export interface ToolCall {
  readonly tool: AnyTool;
  readonly input: unknown;
}

/** What the loop saw for one call, for the transcript (and for the model's context). */
export type CallRecord =
  | { readonly tool: string; readonly status: 'ok'; readonly result: unknown; readonly replayed: boolean; readonly attempts: number }
  | { readonly tool: string; readonly status: 'refused'; readonly error: string; readonly decision: RetryDecision }
  | { readonly tool: string; readonly status: 'escalated'; readonly error: string; readonly decision: RetryDecision };

/** How the loop ended. */
export interface LoopReport {
  readonly status: 'completed' | 'escalated';
  readonly calls: readonly CallRecord[];
}

/** Options for `runLoop`. */
export interface LoopOptions {
  readonly runner: Runner;
  readonly run: RunContext;
  readonly calls: readonly ToolCall[];
  /** Called with one line per event. */
  readonly log?: (line: string) => void;
  /** Waits before a retry; default: real time, capped at 1 s. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Retries of a call still in progress elsewhere before giving up; default 20. */
  readonly maxConcurrentWaits?: number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 1_000)));

/** Run the scripted calls in order; stop at the first escalation. */
export async function runLoop(options: LoopOptions): Promise<LoopReport> {
  const { runner, run, log = () => {}, sleep = realSleep } = options;
  const calls: CallRecord[] = [];
  for (const { tool, input } of options.calls) {
    const record = await callWithPolicy(tool, input);
    calls.push(record);
    if (record.status === 'escalated') return { status: 'escalated', calls };
  }
  return { status: 'completed', calls };

  async function callWithPolicy(tool: AnyTool, input: unknown): Promise<CallRecord> {
    let attempt = 1;
    let waits = 0;
    for (;;) {
      const outcome = await runner.tryCall(tool, input, { run, attempt });
      if (outcome.ok) {
        log(`${tool.name}: ok${outcome.replayed ? ' (replayed: the effect had already happened)' : ''} on attempt ${outcome.attempt}`);
        return { tool: tool.name, status: 'ok', result: outcome.result, replayed: outcome.replayed, attempts: outcome.attempt };
      }
      const error = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
      const decision = decideRetry(tool.policy, outcome);
      log(`${tool.name}: attempt ${outcome.attempt} failed (${error}) -> ${decision.action}: ${decision.reason}`);
      if (decision.action === 'refuse') return { tool: tool.name, status: 'refused', error, decision };
      if (decision.action === 'escalate') return { tool: tool.name, status: 'escalated', error, decision };
      // A call in progress elsewhere used no attempt; bound how long we wait for it anyway.
      if (decision.delayMs !== undefined && (waits += 1) > (options.maxConcurrentWaits ?? 20)) {
        return { tool: tool.name, status: 'escalated', error, decision: { action: 'escalate', reason: 'the call stayed in progress elsewhere for too long' } };
      }
      await sleep(decision.delayMs ?? 50 * 2 ** (outcome.attempt - 1));
      attempt = outcome.attempt + 1;
    }
  }
}
