/**
 * Run resumption by a durable-execution engine, end to end: DBOS Transact (`@dbos-inc/dbos-sdk`),
 * which runs in the application's process on the test PostgreSQL, with no server of its own.
 *
 * DBOS runs a step at least once: it checkpoints a step's output after the step returns, so a
 * process that dies after the step's effect and before that checkpoint runs the step again when
 * the workflow is recovered. A real worker process starts `refundWorkflow` under a workflow id;
 * its step refunds at the provider stand-in and is SIGKILLed inside the step, before DBOS
 * records it. A new process launches DBOS, which recovers the PENDING workflow and runs the step
 * again. With the run opened from the workflow id (`openRun(store, { kind: 'workflow', id:
 * `dbos:${DBOS.workflowID}` })`) and the step's call made through `runGuarded`, that repeat is a
 * replay: the ledger counts one refund and the recovered step reads `replayed: true`. Without the
 * guard the same crash refunds twice, which is what the guard is for.
 *
 * DBOS's system tables and the retrysafe store share one schema made for this run, dropped after.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startProviderStandIn } from '../helpers/ledger.js';
import { PG_URL, RUN_TAG } from '../helpers/stores.js';
import { spawnFixture } from '../helpers/tsChild.js';

const schema = `rs_durable_${RUN_TAG}`;
const admin = new pg.Client({ connectionString: PG_URL });

beforeAll(async () => {
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
});
afterAll(async () => {
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
});

interface Report {
  readonly result: { workflowId: string; refund: { result: unknown; replayed: boolean; runId: string | undefined } };
  readonly status: string;
  readonly recoveryAttempts: number;
}

/** Starts the worker; resolves with its stdout once `until` matches or it exits. */
function worker(args: object, until?: RegExp): Promise<{ out: string; kill: () => void }> {
  const proc = spawnFixture('dbos-worker.ts', args);
  let out = '';
  let err = '';
  proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    const done = () => resolve({ out, kill: () => proc.kill('SIGKILL') });
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (until?.test(out)) done();
    });
    proc.on('exit', (code, signal) => (code === 0 || signal === 'SIGKILL' ? done() : reject(new Error(`worker exited with ${code ?? signal}: ${err}`))));
  });
}

function reportOf(out: string): Report {
  const line = out.split('\n').find((l) => l.startsWith('REPORT '));
  if (line === undefined) throw new Error(`the worker printed no report: ${out}`);
  return JSON.parse(line.slice('REPORT '.length)) as Report;
}

async function crashThenRecover(guarded: boolean, workflowId: string) {
  const provider = await startProviderStandIn();
  try {
    const args = { pgUrl: PG_URL, schema, providerUrl: provider.url, workflowId, guarded };
    const crashed = await worker({ ...args, mode: 'crash' }, /CRASH_POINT/);
    crashed.kill();
    expect(provider.effects()).toHaveLength(1); // the effect landed before the crash
    const recovered = await worker({ ...args, mode: 'recover' });
    return { report: reportOf(recovered.out), effects: provider.effects() };
  } finally {
    await provider.close();
  }
}

it('DBOS recovers a workflow SIGKILLed inside its step, after the effect: one refund, the recovered step reads replayed: true', async () => {
  const workflowId = `wf_refund_${RUN_TAG}`;
  const { report, effects } = await crashThenRecover(true, workflowId);
  expect(report.status).toBe('SUCCESS');
  expect(report.recoveryAttempts).toBeGreaterThanOrEqual(1);
  expect(report.result.workflowId).toBe(workflowId);
  expect(report.result.refund).toMatchObject({ result: { refundId: 're_1', orderId: 'ord_1001', amountCents: 1300 }, replayed: true });
  expect(effects).toHaveLength(1);
  expect(effects[0]?.key).toMatch(new RegExp(`^c1:${report.result.refund.runId}:issue_refund:`));
}, 60_000);

it('without the guard, the same crash and recovery refund twice (DBOS runs the step again)', async () => {
  const { report, effects } = await crashThenRecover(false, `wf_unguarded_${RUN_TAG}`);
  expect(report.status).toBe('SUCCESS');
  expect(report.result.refund).toMatchObject({ result: { refundId: 're_2' }, replayed: false });
  expect(effects).toHaveLength(2);
}, 60_000);
