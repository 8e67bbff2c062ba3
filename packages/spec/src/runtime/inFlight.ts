/**
 * Waiting for an in-flight call (`RunnerOptions.waitForInFlightMs`): a concurrent loser polls the
 * record with a short, growing backoff and takes the first call's result as a replay once it
 * completes, instead of being sent away for the lock's length. Each poll is one claim: no write
 * while the record is held (PostgreSQL `INSERT ... ON CONFLICT DO NOTHING`, Redis `SET NX GET`),
 * and the claim decides what a retry would (a replay, or the next attempt if the holder failed or
 * died meanwhile).
 *
 * @module
 */
import type { ClaimResult } from '../stores/types.js';

/** First pause between polls, ms; each pause doubles up to {@link MAX_POLL_MS}. */
export const FIRST_POLL_MS = 5;
/** Longest pause between polls, ms. */
export const MAX_POLL_MS = 200;

/** How a wait ended: the last claim, and the pause a next poll would have taken (the retry hint). */
export interface WaitOutcome {
  readonly claim: ClaimResult;
  readonly nextPauseMs: number;
}

/**
 * Poll `claimAgain` while `claim` is `in_progress`, for at most `waitMs` of real time (`Date.now`,
 * not the runner's injectable clock: the pauses are real).
 */
export async function waitWhileInFlight(claim: ClaimResult, claimAgain: () => Promise<ClaimResult>, waitMs: number): Promise<WaitOutcome> {
  const deadline = Date.now() + waitMs;
  let pause = FIRST_POLL_MS;
  let current = claim;
  while (current.outcome === 'in_progress') {
    const left = deadline - Date.now();
    if (left <= 0) break;
    // Jitter spreads many waiters on one key over the interval instead of polling in step.
    await sleep(Math.min(left, pause * (0.5 + Math.random() / 2)));
    pause = Math.min(MAX_POLL_MS, pause * 2);
    current = await claimAgain();
  }
  return { claim: current, nextPauseMs: pause };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
