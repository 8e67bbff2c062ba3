/**
 * The seed's fifth source of repetition, end to end: queue redelivery. A real BullMQ queue on the
 * Redis the tests use, two workers, and a lock (BullMQ's visibility timeout) shorter than the job:
 * the first delivery refunds, then keeps working past its lock, so the stalled-job check hands
 * the same job to the second worker while the first still runs. Both deliveries open the run
 * from the job id (`openRun`: one run id), run the same AI SDK loop over the guarded refund, and
 * the ledger counts one refund; the redelivery is told it was a replay. "Keys scoped to the run
 * make this survivable."
 */
import { Queue, Worker, type Job } from 'bullmq';
import { afterAll, expect, it } from 'vitest';
import { openRun } from '../../src/runs.js';
import { answer, AI_SDKS } from '../adapters/scripted.js';
import { sqliteFixture } from '../adapters/support.js';
import { startProviderStandIn } from '../helpers/ledger.js';
import { REDIS_URL, RUN_TAG } from '../helpers/stores.js';
import { REFUND, refundTools, resultsRead } from './agent.js';

const fixture = sqliteFixture();
afterAll(() => fixture.close());

const LOCK_MS = 400;
const JOB_MS = 2_000;
const connection = { url: REDIS_URL, maxRetriesPerRequest: null };
const prefix = `rs_t:${RUN_TAG}:bull`;

it('BullMQ redelivers a job whose lock lapsed while it ran: one refund, the redelivery reads replayed: true', async () => {
  const sdk = AI_SDKS[0]!;
  const provider = await startProviderStandIn();
  const queue = new Queue('refunds', { connection, prefix });
  const deliveries: { worker: string; jobId: string; runId: string; read: unknown[] }[] = [];
  let redelivered!: () => void;
  const secondDelivery = new Promise<void>((resolve) => (redelivered = resolve));

  const processor = (worker: string) => async (job: Job) => {
    const run = await openRun(fixture.store, { kind: 'queue_message', id: `bullmq:${job.id}` });
    let read: unknown[] = [];
    const model = new sdk.MockLanguageModelV3({
      doGenerate: async (options) => {
        read = resultsRead(options.prompt as never);
        return answer(read.length === 0 ? { call: 'issue_refund', input: REFUND } : { text: 'Refunded.' });
      },
    });
    await sdk.generateText({ model, tools: refundTools(sdk, provider.url, { runner: fixture.runner, run }), stopWhen: sdk.stepCountIs(3), prompt: 'Refund order ord_1001.' });
    deliveries.push({ worker, jobId: String(job.id), runId: run.id, read });
    if (deliveries.length === 1) await new Promise((resolve) => setTimeout(resolve, JOB_MS)); // the rest of a long job
    else redelivered();
  };
  // Lock renewal off: the lock lapses after LOCK_MS while the first delivery still runs.
  const options = { connection, prefix, lockDuration: LOCK_MS, skipLockRenewal: true, stalledInterval: 200, maxStalledCount: 1, autorun: false };
  const first = new Worker('refunds', processor('first'), options);
  const second = new Worker('refunds', processor('second'), options);
  first.on('error', () => {}); // the first delivery's completion is refused: it lost its lock
  second.on('error', () => {});
  try {
    await queue.add('refund', REFUND);
    void first.run();
    await provider.landed(1);
    void second.run();
    await secondDelivery;
    expect(deliveries.map((d) => d.jobId)).toEqual([deliveries[0]!.jobId, deliveries[0]!.jobId]);
    expect(deliveries[1]!.runId).toBe(deliveries[0]!.runId);
    expect(deliveries[0]!.read).toEqual([{ type: 'json', value: { result: { refundId: 're_1', ...REFUND }, replayed: false } }]);
    expect(deliveries[1]!.read).toEqual([{ type: 'json', value: { result: { refundId: 're_1', ...REFUND }, replayed: true } }]);
    expect(provider.effects()).toHaveLength(1);
  } finally {
    await Promise.all([first.close(true), second.close(true)]);
    await queue.obliterate({ force: true });
    await queue.close();
    await provider.close();
  }
}, 20_000);
