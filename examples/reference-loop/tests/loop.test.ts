import { createRunner, type DedupStore } from '@retrysafe/spec';
import { runContextForTests } from '@retrysafe/spec/testing';
import { createNonDurableMemoryStore } from '@retrysafe/spec/stores/memory';
import { describe, expect, it } from 'vitest';

import { runLoop } from '../src/loop.js';
import { LoyaltyLedger, OrderSearch, PaymentProvider } from '../src/services.js';
import { createTools } from '../src/tools.js';

const noWait = async () => {};

function setUp(options: { outages?: number; timeouts?: number; failAfterWrite?: boolean } = {}) {
  const payments = new PaymentProvider(options.outages ?? 0);
  const loyalty = new LoyaltyLedger(options.failAfterWrite ?? false);
  const tools = createTools({ payments, orders: new OrderSearch(options.timeouts ?? 0), loyalty });
  const store: DedupStore = createNonDurableMemoryStore();
  return { payments, loyalty, tools, runner: createRunner({ store }), run: runContextForTests('job_1') };
}

describe('the reference loop', () => {
  it('retries a safe read after a timeout', async () => {
    const { tools, runner, run } = setUp({ timeouts: 2 });
    const report = await runLoop({ runner, run, sleep: noWait, calls: [{ tool: tools.searchOrders, input: { customerEmail: 'ada@example.test' } }] });
    expect(report).toMatchObject({ status: 'completed', calls: [{ status: 'ok', attempts: 3 }] });
  });

  it('retries a refund with the same key after a 503, and replays it when the job runs again', async () => {
    const { payments, tools, runner, run } = setUp({ outages: 1 });
    const calls = [{ tool: tools.issueRefund, input: { orderId: 'ord_1001', amountCents: 1_300 } }];
    const first = await runLoop({ runner, run, sleep: noWait, calls });
    const again = await runLoop({ runner, run, sleep: noWait, calls });
    expect(first.calls[0]).toMatchObject({ status: 'ok', replayed: false, attempts: 2 });
    expect(again.calls[0]).toMatchObject({ status: 'ok', replayed: true });
    expect(payments.refunds).toHaveLength(1);
    expect(new Set(payments.callsWithKey)).toEqual(new Set(['job_1:ord_1001:refund']));
  });

  it('escalates a refund that keeps failing once max_attempts per key is used', async () => {
    const { payments, tools, runner, run } = setUp({ outages: 10 });
    const report = await runLoop({ runner, run, sleep: noWait, calls: [{ tool: tools.issueRefund, input: { orderId: 'ord_1001', amountCents: 1_300 } }] });
    expect(report).toMatchObject({ status: 'escalated', calls: [{ status: 'escalated' }] });
    expect(payments.callsWithKey).toHaveLength(3);
  });

  it('never retries a not-safely-repeatable tool: it escalates, and the write happened once', async () => {
    const { loyalty, tools, runner, run } = setUp({ failAfterWrite: true });
    const report = await runLoop({ runner, run, sleep: noWait, calls: [{ tool: tools.addLoyaltyPoints, input: { customerEmail: 'ada@example.test', points: 50 } }] });
    expect(report).toMatchObject({ status: 'escalated', calls: [{ decision: { action: 'escalate' } }] });
    expect(loyalty.points.get('ada@example.test')).toBe(50);
  });

  it('refuses invalid input and hands the error back to the model', async () => {
    const { tools, runner, run } = setUp();
    const report = await runLoop({ runner, run, sleep: noWait, calls: [{ tool: tools.issueRefund, input: { orderId: 'ord_1001', amountCents: -1 } }] });
    expect(report).toMatchObject({ status: 'completed', calls: [{ status: 'refused', decision: { action: 'refuse' } }] });
  });
});
