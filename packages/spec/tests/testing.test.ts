/** The called-twice helper: passes for safe tools, fails with a clear AssertionError otherwise. */
import { AssertionError } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { key } from '../src/key.js';
import { createRunner, type Runner } from '../src/runner.js';
import { createNonDurableMemoryStore } from '../src/stores/memory.js';
import { createSqliteStore } from '../src/stores/sqlite.js';
import { defineTool } from '../src/tool.js';
import { callTwice, expectSingleEffect, runContextForTests } from '../src/testing.js';
import { memoryProvider } from './helpers/provider.js';
import { incrementTool, refundTool, setStatusTool } from './helpers/tools.js';

describe('expectSingleEffect', () => {
  it('passes for a with_key tool: one execution, one effect, the second call replayed', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const report = await expectSingleEffect(refundTool(provider), { orderId: 'o_1', amountCents: 5 }, { effects: () => provider.effects() });
    expect(report).toMatchObject({ executions: 1, effects: 1, first: { replayed: false }, second: { replayed: true } });
  });

  it('fails when the effect lands twice although execute ran once (a key the provider never sees)', async () => {
    let landed = 0;
    const leaky = defineTool({
      name: 'send_email',
      sideEffects: 'message_out',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input: z.object({ to: z.string() }),
      key: ({ run, input }) => key`${run.id}:${input.to}:welcome`,
      execute: async () => {
        landed += 2; // e.g. a background job that also sends
        return { sent: true };
      },
    });
    const error = await expectSingleEffect(leaky, { to: 'a@example.com' }, { effects: () => landed }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AssertionError);
    expect((error as Error).message).toContain('2 effects landed');
  });

  it('fails for a with_key tool whose record does not replay (a runner with a fresh store per call)', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const base = createRunner({ store: createNonDurableMemoryStore() });
    const forgetful: Runner = { ...base, call: (tool, input, options) => createRunner({ store: createNonDurableMemoryStore() }).call(tool, input, options) };
    const error = await expectSingleEffect(refundTool(provider), { orderId: 'o_2', amountCents: 5 }, { runner: forgetful }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AssertionError);
    expect((error as Error).message).toMatch(/execute ran 2 times/);
  });

  it('passes again on a durable store that kept the first suite run\'s records (a new run per test by default)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'retrysafe-called-twice-'));
    try {
      const path = join(dir, 'suite.db');
      // Two suite runs: each opens the same SQLite file, as a test suite on a durable store does.
      for (const suiteRun of [1, 2]) {
        const store = createSqliteStore({ path });
        const provider = memoryProvider({ dedupeByKey: false });
        const report = await expectSingleEffect(refundTool(provider), { orderId: 'o_rerun', amountCents: 5 }, { runner: createRunner({ store }), effects: () => provider.effects() });
        expect(report, `suite run ${suiteRun}`).toMatchObject({ executions: 1, effects: 1, first: { replayed: false } });
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the stored record when a fixed run replays an earlier suite run\'s record', async () => {
    const runner = createRunner({ store: createNonDurableMemoryStore() });
    const provider = memoryProvider({ dedupeByKey: false });
    const run = runContextForTests('fixed-run');
    await expectSingleEffect(refundTool(provider), { orderId: 'o_fixed', amountCents: 5 }, { runner, run });
    const error = await expectSingleEffect(refundTool(provider), { orderId: 'o_fixed', amountCents: 5 }, { runner, run }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AssertionError);
    expect((error as Error).message).toMatch(/both replayed a record the store already held/);
  });

  it('refuses to bless a not-safely-repeatable tool, without calling it', async () => {
    const balance = { cents: 0 };
    await expect(expectSingleEffect(incrementTool(balance), { cents: 1 })).rejects.toThrow(/not safely repeatable/);
    expect(balance.cents).toBe(0);
    // The assertion's numbers read as the message does: two calls would land two effects, a safe tool one.
    await expect(expectSingleEffect(incrementTool(balance), { cents: 1 })).rejects.toMatchObject({ actual: 2, expected: 1, operator: 'calledTwice' });
  });

  it('checks a naturally idempotent tool for the same end state', async () => {
    const state = new Map<string, string>();
    const writes = { count: 0 };
    expect(await expectSingleEffect(setStatusTool(state, writes), { orderId: 'o_3', status: 'open' })).toMatchObject({ executions: 2 });
    let n = 0;
    const drifting = defineTool({
      name: 'touch',
      sideEffects: 'internal_write',
      idempotent: true,
      retry: 'safe',
      input: z.object({}),
      execute: async () => ({ version: (n += 1) }),
    });
    await expect(expectSingleEffect(drifting, {})).rejects.toThrow(/different results/);
    // The second call's result is what was received, the first's what was expected (new-user trial 6
    // read the diff the wrong way round: "- Expected 200, + Received 100" for 100 then 200).
    await expect(expectSingleEffect(drifting, {})).rejects.toMatchObject({ actual: { version: 4 }, expected: { version: 3 } });
  });

  it('fails a tool declared naturally idempotent whose second call adds to the counted effects', async () => {
    // Found by a new-user trial: an append declared idempotent: true passed with two effects counted.
    const rows: string[] = [];
    const addNote = defineTool({
      name: 'add_note',
      sideEffects: 'external_write',
      idempotent: true,
      retry: 'safe',
      input: z.object({ text: z.string() }),
      execute: async ({ text }) => {
        rows.push(text);
        return { ok: true };
      },
    });
    await expect(expectSingleEffect(addNote, { text: 'hi' }, { effects: () => rows.length })).rejects.toThrow(/second identical call changed/);
    const state = new Map<string, string>();
    const report = await expectSingleEffect(setStatusTool(state, { count: 0 }), { orderId: 'o_4', status: 'open' }, { effects: () => state.size });
    expect(report).toMatchObject({ effects: 1, effectsOfSecondCall: 0 });
  });

  it('callTwice reports without asserting', async () => {
    const balance = { cents: 0 };
    const report = await callTwice(incrementTool(balance), { cents: 1 }, { run: runContextForTests('run-1') });
    expect(report).toMatchObject({ executions: 2, first: { result: { balanceCents: 1 } }, second: { result: { balanceCents: 2 } } });
  });

  it('does not import vitest (usable from any test runner)', () => {
    const source = readFileSync(new URL('../src/testing.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/from ['"]vitest['"]/);
  });
});

describe('a defineTool tool and the name option', () => {
  it('one entry of a tool set is the tool it holds (named by its own name); a name option that contradicts it is a TypeError', async () => {
    const provider = memoryProvider();
    const issueRefund = refundTool(provider);
    const input = { orderId: 'o_1', amountCents: 500 };
    expect(await expectSingleEffect({ issueRefund }, input)).toMatchObject({ executions: 1, second: { replayed: true } });
    expect(await callTwice(issueRefund, input, { name: 'issue_refund' })).toMatchObject({ executions: 1 });
    await expect(callTwice(issueRefund, input, { name: 'refund' })).rejects.toThrow(
      new TypeError('callTwice(): the tool is named "issue_refund" (defineTool); the name option says "refund". Leave the option out, or make it "issue_refund".'),
    );
  });
});
