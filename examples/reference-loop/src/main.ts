/**
 * The reference loop, end to end, on the durable SQLite store:
 *
 *   node dist/main.js [jobId]
 *
 * 1. First delivery of a job: a read times out once (retried), a refund meets a 503 (retried with
 *    the same key: one refund).
 * 2. The same job redelivered to a restarted worker: `openRun` reloads the same run id, so the
 *    refund is replayed, not repeated.
 * 3. A not-safely-repeatable tool fails after its write: never retried, escalated.
 *
 * Set RETRYSAFE_DB to a file to keep the records between invocations (default: a temporary folder);
 * run twice with the same job id and the second run replays the refund from the first.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRunner, openRun } from '@retrysafe/spec';
import { createSqliteStore } from '@retrysafe/spec/stores/sqlite';

import { runLoop, type ToolCall } from './loop.js';
import { LoyaltyLedger, OrderSearch, PaymentProvider } from './services.js';
import { createTools, type Tools } from './tools.js';

const jobId = process.argv[2] ?? 'job_1001';
const dbFile = process.env['RETRYSAFE_DB'] ?? path.join(mkdtempSync(path.join(tmpdir(), 'retrysafe-loop-')), 'dedup.db');
const payments = new PaymentProvider(1); // one 503 before the provider works
const orders = new OrderSearch(1); // one timeout
const tools = createTools({ payments, orders, loyalty: new LoyaltyLedger() });
const log = (line: string) => console.log(`  ${line}`);

const plan = (t: Tools): ToolCall[] => [
  { tool: t.searchOrders, input: { customerEmail: 'ada@example.test' } },
  { tool: t.issueRefund, input: { orderId: 'ord_1001', amountCents: 1_300 } },
];

/** One worker process: its own store handle and runner, the run loaded from the job id. */
async function worker(label: string, calls: (t: Tools) => ToolCall[], toolset: Tools) {
  const store = createSqliteStore({ path: dbFile });
  try {
    const run = await openRun(store, { kind: 'job', id: jobId });
    console.log(`${label} (run ${run.id}, ${run.resumed ? 'resumed' : 'new'})`);
    return await runLoop({ runner: createRunner({ store }), run, calls: calls(toolset), log });
  } finally {
    await store.close();
  }
}

console.log(`dedup records in ${dbFile}`);
const first = await worker('1. first delivery of ' + jobId, plan, tools);
const second = await worker('2. the same job redelivered to a restarted worker', plan, tools);
const ledger = new LoyaltyLedger(true);
const unsafe = createTools({ payments, orders, loyalty: ledger });
const third = await worker('3. a not-safely-repeatable tool fails after writing', (t) => [
  { tool: t.addLoyaltyPoints, input: { customerEmail: 'ada@example.test', points: 50 } },
], unsafe);

console.log(`refunds made: ${payments.refunds.length}; provider calls: ${payments.callsWithKey.length}, keys: ${[...new Set(payments.callsWithKey)].join(', ')}`);
console.log(`loyalty points written: ${ledger.points.get('ada@example.test') ?? 0} (once: the loop escalated instead of retrying)`);

const replayed = (report: typeof first) =>
  report.calls.some((c) => c.tool === 'issue_refund' && c.status === 'ok' && c.replayed);
// With RETRYSAFE_DB kept from an earlier invocation, even the first delivery replays: no refund here.
const ok =
  first.status === 'completed' &&
  second.status === 'completed' &&
  third.status === 'escalated' &&
  payments.refunds.length === (replayed(first) ? 0 : 1) &&
  replayed(second) &&
  ledger.points.get('ada@example.test') === 50;
console.log(ok ? 'ok: one refund, replayed on redelivery; the unsafe tool ran once and was escalated' : 'UNEXPECTED OUTCOME');
process.exitCode = ok ? 0 : 1;
