/**
 * Crash recovery, with real processes: a child claims the key, runs the effect (the refund lands
 * at a provider that dedupes by key) and is killed with SIGKILL before it records the result.
 * While the lock is live, another process (this one) gets ConcurrentCallError and no effect. Once the lock
 * has lapsed (a clock set past lockMs, so nothing sleeps), a new process reclaims the record and
 * runs the effect again with the same key passed downstream: the provider sees two calls with one
 * key and lands one refund. The memory store cannot span processes, so it gets the same story in
 * one process, with an effect that never returns standing in for the dead process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { vouchDurable } from '../src/durable.js';
import { ConcurrentCallError } from '../src/errors.js';
import { createRunner } from '../src/runner.js';
import { createNonDurableMemoryStore } from '../src/stores/memory.js';
import { fileProvider, memoryProvider } from './helpers/provider.js';
import { storeFromConfig, storesUnderTest } from './helpers/stores.js';
import { refundTool } from './helpers/tools.js';
import { spawnFixture } from './helpers/tsChild.js';

const LOCK_MS = 60_000;
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Spawn the child; resolve with its stdout lines once `until` matches a line or it exits. */
function child(args: object, until?: RegExp) {
  const proc = spawnFixture('crash-child.ts', args);
  let out = '';
  let err = '';
  proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const lines = new Promise<string[]>((resolve, reject) => {
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (until && until.test(out)) resolve(out.trim().split('\n'));
    });
    proc.on('exit', (code, signal) => {
      if (code === 0 || signal === 'SIGKILL') resolve(out.trim().split('\n'));
      else reject(new Error(`child exited with ${code ?? signal}: ${err}`));
    });
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => proc.on('exit', (code, signal) => resolve(signal ?? code)));
  return { proc, lines, exited };
}

// The lapse of a lock is simulated by a clock set ahead, so PostgreSQL and Redis decide by the
// caller's clock here (by their own, a clock ahead is not a lapse: tests/faults.store-clock.test.ts).
const crossProcess = storesUnderTest({ clock: 'caller' }).filter((s) => s.name !== 'memory');

describe.concurrent.each(crossProcess)('crash recovery on the $name store', (subject) => {
  afterAll(() => subject.cleanUp());

  it('reclaims a key whose process was killed mid-effect, passing the same key downstream: one refund', async () => {
    const providerDir = mkdtempSync(join(tmpdir(), 'retrysafe-provider-'));
    dirs.push(providerDir);
    const base = { store: subject.config, providerDir, runId: `run_crash_${subject.name}_${Date.now()}`, orderId: 'o_42', lockMs: LOCK_MS };

    const crashing = child({ ...base, mode: 'crash', clockOffsetMs: 0 }, /EFFECT_DONE/);
    const [effectLine] = await crashing.lines;
    crashing.proc.kill('SIGKILL');
    expect(await crashing.exited).toBe('SIGKILL');
    const crashed = JSON.parse((effectLine ?? '').replace('EFFECT_DONE ', '')) as { key: string; refund: { refundId: string } };

    // Lock still live: this (test) process must not run the effect.
    const store = storeFromConfig(subject.config);
    const tool = refundTool(fileProvider(providerDir));
    const input = { orderId: 'o_42', amountCents: 1200 };
    const run = { id: vouchDurable(base.runId) };
    try {
      await expect(createRunner({ store }).call(tool, input, { run })).rejects.toBeInstanceOf(ConcurrentCallError);
    } catch (error) {
      await store.close();
      throw error;
    }

    // Lock lapsed: a new process reclaims and runs again with the same key.
    const late = JSON.parse((await child({ ...base, mode: 'call', clockOffsetMs: LOCK_MS + 1 }).lines).at(-1) ?? '{}');
    expect(late).toMatchObject({ ok: true, replayed: false, attempt: 2, key: crashed.key, result: { refundId: crashed.refund.refundId } });

    const provider = fileProvider(providerDir);
    expect(provider.calls()).toEqual([crashed.key, crashed.key]);
    expect(provider.effects()).toBe(1);

    // The record now replays, and its history says what happened to attempt 1.
    try {
      const runner = createRunner({ store, now: () => Date.now() + LOCK_MS + 1 });
      expect(await runner.call(tool, input, { run })).toMatchObject({ replayed: true, attempt: 2 });
      const record = await runner.recordFor(tool, input, { run });
      expect(record?.errors).toEqual([expect.objectContaining({ attempt: 1, name: 'LockExpired' })]);
      expect(provider.effects()).toBe(1);
    } finally {
      await store.close();
    }
  });
});

describe('crash recovery on the memory store (one process)', () => {
  it('reclaims after the lock lapses and passes the same key downstream: one refund', async () => {
    const store = createNonDurableMemoryStore();
    const provider = memoryProvider();
    let clock = 1_000_000;
    const now = () => clock;
    const run = { id: vouchDurable('run_crash_memory') };
    const input = { orderId: 'o_42', amountCents: 1200 };
    const dying = refundTool({
      async refund(orderId, amountCents, idempotencyKey) {
        await provider.refund(orderId, amountCents, idempotencyKey);
        return new Promise<never>(() => {}); // never returns: the "process" is gone
      },
    });
    void createRunner({ store, now, lockMs: LOCK_MS, heartbeat: false }).call(dying, input, { run });
    await new Promise((resolve) => setTimeout(resolve, 0));
    while (provider.calls().length === 0 || provider.effects() === 0) await new Promise((resolve) => setImmediate(resolve));

    const survivor = createRunner({ store, now, lockMs: LOCK_MS });
    await expect(survivor.call(refundTool(provider), input, { run })).rejects.toBeInstanceOf(ConcurrentCallError);
    clock += LOCK_MS;
    const recovered = await survivor.call(refundTool(provider), input, { run });
    expect(recovered).toMatchObject({ replayed: false, attempt: 2, result: { refundId: 're_1' } });
    expect(provider.calls()).toEqual([recovered.key, recovered.key]);
    expect(provider.effects()).toBe(1);
  });
});
