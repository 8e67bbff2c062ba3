import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

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
