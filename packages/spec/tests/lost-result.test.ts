import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

import { createRunner } from '../src/runner.js';
import { createNonDurableMemoryStore } from '../src/stores/memory.js';
import type { DedupStore } from '../src/stores/types.js';
import { memoryProvider } from './helpers/provider.js';
import { freshRun, refundTool } from './helpers/tools.js';

// The effect ran but the store failed to record its result: the caller still gets the result, and a
// RETRYSAFE_RECORD warning says what a retry will do, which depends on max_attempts (a reclaim
// counts as an attempt, docs/runtime.md).

const warnings: string[] = [];
const onWarning = (warning: Error & { code?: string }) => {
  if (warning.code === 'RETRYSAFE_RECORD') warnings.push(warning.message);
};
// While these tests run, the warnings they provoke are collected here instead of printed (Node's
// own listener prints every warning to stderr, which reads like a failure in a passing run).
const printers = process.listeners('warning');
beforeAll(() => {
  process.removeAllListeners('warning');
  process.on('warning', onWarning);
});
afterAll(() => {
  process.off('warning', onWarning);
  for (const printer of printers) process.on('warning', printer);
});
afterEach(() => {
  warnings.length = 0;
});

/** A memory store whose completion fails, as a store that went down mid-call. */
function storeThatLosesResults(): DedupStore {
  const store = createNonDurableMemoryStore();
  return { ...store, complete: () => Promise.reject(new Error('connection reset')) };
}

const nextWarning = async (): Promise<string | undefined> => {
  for (let tick = 0; tick < 20 && warnings.length === 0; tick += 1) await new Promise((resolve) => setImmediate(resolve));
  return warnings[0];
};

it('with max_attempts 1 the warning says a retry escalates instead of running the effect again', async () => {
  const provider = memoryProvider({ dedupeByKey: false });
  const outcome = await createRunner({ store: storeThatLosesResults() }).call(refundTool(provider, 1), { orderId: 'o_l1', amountCents: 5 }, { run: freshRun() });
  expect(outcome.replayed).toBe(false);
  expect(provider.effects()).toBe(1);
  const warning = await nextWarning();
  expect(warning).toContain('could not be recorded (connection reset)');
  expect(warning).toContain('AttemptsExhaustedError');
  expect(warning).not.toContain('runs it again');
  // The result says it too, for a caller that exits before a warning is printed.
  expect(outcome.unrecorded).toEqual({ reason: 'store_unavailable', detail: warning?.replace(/^retrysafe: /, '') });
});

it('a result that was recorded carries no unrecorded field, first call and replay', async () => {
  const provider = memoryProvider({ dedupeByKey: false });
  const runner = createRunner({ store: createNonDurableMemoryStore() });
  const [tool, input, run] = [refundTool(provider, 3), { orderId: 'o_ok', amountCents: 5 }, freshRun()] as const;
  const first = await runner.call(tool, input, { run });
  const replay = await runner.call(tool, input, { run });
  expect([first.replayed, replay.replayed, provider.effects()]).toEqual([false, true, 1]);
  expect('unrecorded' in first || 'unrecorded' in replay).toBe(false);
});

it('with more attempts the warning says a retry runs it again with the same key', async () => {
  const provider = memoryProvider({ dedupeByKey: false });
  const outcome = await createRunner({ store: storeThatLosesResults() }).call(refundTool(provider, 3), { orderId: 'o_l3', amountCents: 5 }, { run: freshRun() });
  const warning = await nextWarning();
  expect(warning).toContain('runs it again with the same key, so the provider must dedupe by key');
  expect(outcome.unrecorded?.reason).toBe('store_unavailable');
  expect(outcome.unrecorded?.detail).toContain('runs it again with the same key');
});
