/**
 * A reference agent loop. The model's tool calls are scripted here (`calls`); everything else is
 * what a real loop does: call the tool through the runner with `callWithPolicy`, which on failure
 * asks `decideRetry` what the tool's declared policy allows: retry (same input, so the same key),
 * refuse (hand the error back to the model), or escalate (stop the run for a person).
 */
import { callWithPolicy, type AnyTool, type RetryDecision, type RunContext, type Runner } from '@retrysafe/spec';

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
  /** Waits before a retry; default: real time, each wait capped at 1 s. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Retries of a call still in progress elsewhere before giving up; default 20. */
  readonly maxConcurrentWaits?: number;
}

/** Run the scripted calls in order; stop at the first escalation. */
export async function runLoop(options: LoopOptions): Promise<LoopReport> {
  const { runner, run, log = () => {} } = options;
  const calls: CallRecord[] = [];
  for (const { tool, input } of options.calls) {
    // The package's retry loop: decideRetry acted on, the same key on every attempt.
    const report = await callWithPolicy(runner, tool, input, {
      run,
      ...(options.sleep !== undefined ? { sleep: options.sleep } : {}),
      ...(options.maxConcurrentWaits !== undefined ? { maxConcurrentWaits: options.maxConcurrentWaits } : {}),
      onFailure: ({ error, attempt, decision }) =>
        log(`${tool.name}: attempt ${attempt} failed (${messageOf(error)}) -> ${decision.action}: ${decision.reason}`),
    });
    if (report.status === 'ok') {
      log(`${tool.name}: ok${report.replayed ? ' (replayed: the effect had already happened)' : ''} on attempt ${report.attempts}`);
      calls.push({ tool: tool.name, status: 'ok', result: report.result, replayed: report.replayed, attempts: report.attempts });
      continue;
    }
    calls.push({ tool: tool.name, status: report.status, error: messageOf(report.error), decision: report.decision });
    if (report.status === 'escalated') return { status: 'escalated', calls };
  }
  return { status: 'completed', calls };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
