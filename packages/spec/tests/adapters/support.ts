/**
 * What the adapter tests share: a durable SQLite store in a temporary folder, a runner over it,
 * runs opened the way an application opens them (`openRun` with a job id), and the tools the
 * frameworks are given beyond those in ../helpers/tools.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { key } from '../../src/key.js';
import { createRunner, type Runner } from '../../src/runner.js';
import { openRun } from '../../src/runs.js';
import type { RunContext } from '../../src/run.js';
import { createSqliteStore } from '../../src/stores/sqlite.js';
import type { DedupStore } from '../../src/stores/types.js';
import { defineTool } from '../../src/tool.js';

export interface AdapterFixture {
  readonly store: DedupStore;
  readonly runner: Runner;
  /** A durable run for a job id no other test uses. */
  jobRun(): Promise<RunContext>;
  close(): Promise<void>;
}

let jobs = 0;

/** A SQLite store (WAL, a real file) and a runner over it; close it in `afterAll`. */
export function sqliteFixture(): AdapterFixture {
  const dir = mkdtempSync(join(tmpdir(), 'retrysafe-adapters-'));
  const store = createSqliteStore({ path: join(dir, 'dedup.db') });
  const runner = createRunner({ store });
  return {
    store,
    runner,
    jobRun: async () => {
      jobs += 1;
      const opened = await openRun(store, { kind: 'job', id: `job_${process.pid}_${jobs}` });
      return { id: opened.id };
    },
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A with_key tool whose schema transforms its input (an amount typed as text becomes cents). A
 * schema's output does not pass the schema again (a number is not a string), so this tool only
 * works if the adapter validates the model's arguments exactly once.
 */
export function chargeTool(charges: string[]) {
  return defineTool({
    name: 'charge_card',
    description: 'Charge a card, amount in dollars as text',
    sideEffects: 'money_out',
    idempotent: 'with_key',
    retry: 'safe_with_same_key',
    input: z.object({
      cardId: z.string(),
      amount: z.string().regex(/^\d+(\.\d{1,2})?$/).transform((text) => Math.round(Number(text) * 100)),
    }),
    key: ({ run, input }) => key`${run.id}:${input.cardId}:charge`,
    execute: async ({ cardId, amount }) => {
      charges.push(`${cardId}:${amount}`);
      return { chargeId: `ch_${charges.length}`, cents: amount };
    },
  });
}

/**
 * A keyed tool over any input schema, typed as `{ subject: string }` (the schema tests hand it
 * arktype, valibot, zod 3 or a non-object schema): records each subject it runs for in `effects`.
 */
export function ticketTool(input: unknown, effects: string[]) {
  return defineTool({
    name: 'create_ticket',
    sideEffects: 'internal_write',
    idempotent: 'with_key',
    retry: 'safe_with_same_key',
    input: input as z.ZodType<{ subject: string }>,
    key: ({ run, input: { subject } }) => key`${run.id}:${subject}:ticket`,
    execute: async ({ subject }) => {
      effects.push(subject);
      return { ticket: effects.length };
    },
  });
}
