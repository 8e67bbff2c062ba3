import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it, onTestFinished } from 'vitest';

import { StoreUnavailableError } from '../src/errors.js';
import { createRunner } from '../src/runner.js';
import { createSqliteStore } from '../src/stores/sqlite.js';
import { memoryProvider } from './helpers/provider.js';
import { freshRun, refundTool } from './helpers/tools.js';

// The SQLite store creates the folders above its file. Node 20's recursive mkdir loops forever
// where mkdir answers ENOENT for a folder whose parent exists (everywhere under /proc); the store
// creates one level at a time instead, so such a path fails closed instead of hanging.

const scratch = mkdtempSync(join(tmpdir(), 'retrysafe-sqlite-folders-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it('creates every missing folder above the database file', async () => {
  const path = join(scratch, 'a', 'b', 'c', 'dedup.db');
  const store = createSqliteStore({ path });
  await store.ready();
  expect(existsSync(path)).toBe(true);
  await store.close();
});

it.skipIf(!existsSync('/proc/self'))('a folder that cannot be made (under /proc) fails closed with the path, and does not hang', async () => {
  const path = '/proc/retrysafe-cannot-exist/deeper/dedup.db';
  const store = createSqliteStore({ path });
  const provider = memoryProvider({ dedupeByKey: false });
  const outcome = await createRunner({ store }).tryCall(refundTool(provider), { orderId: 'o_p', amountCents: 5 }, { run: freshRun() });
  expect(outcome.ok).toBe(false);
  const error = outcome.ok ? undefined : outcome.error;
  expect(error).toBeInstanceOf(StoreUnavailableError);
  expect((error as Error).message).toContain('/proc/retrysafe-cannot-exist');
  expect(provider.calls()).toEqual([]);
  await store.close();
}, 10_000);

// New-user trial 3: `{ path: ':memory:' }` was resolved as a file path, so the store wrote a file
// named `:memory:` in the current folder, and the next test run replayed its records (the provider
// saw no call). SQLite's in-memory name is an in-memory database, as better-sqlite3 opens it.
it("path ':memory:' is an in-memory database: no file, nothing shared with a later store, replays within the store, not durable", async () => {
  const file = resolve(':memory:');
  const existedBefore = existsSync(file);
  // Whatever the assertions below find, leave no such file behind.
  onTestFinished(() => {
    if (existedBefore) return;
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  });
  const provider = memoryProvider({ dedupeByKey: false });
  const input = { orderId: 'o_mem', amountCents: 5 };
  const run = freshRun();
  const first = createSqliteStore({ path: ':memory:' });
  const runner = createRunner({ store: first });
  const calls = [await runner.call(refundTool(provider), input, { run }), await runner.call(refundTool(provider), input, { run })];
  expect(calls.map((call) => call.replayed)).toEqual([false, true]);
  expect(first.info.durable).toBe(false);
  await first.close();
  const later = createSqliteStore({ path: ':memory:' });
  expect((await createRunner({ store: later }).call(refundTool(provider), input, { run })).replayed).toBe(false);
  await later.close();
  expect(provider.calls()).toHaveLength(2);
  expect(!existedBefore && existsSync(file)).toBe(false);
});
