// The seed's audit in one line, for every tool of the example: call it twice with identical
// arguments and assert one effect, with the second result flagged as a replay.
import { expectSingleEffect, runContextForTests } from '@retrysafe/spec/testing';
import { createRunner } from '@retrysafe/spec';
import { createSqliteStore } from '@retrysafe/spec/stores/sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { createAgent } from '../src/agent.js';
import { createServices } from '../src/services.js';
import { createTools } from '../src/tools/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'retrysafe-example-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the example tools, called twice', () => {
  it('issue_refund refunds once and replays the first refund', async () => {
    const services = createServices();
    const { issueRefund } = createTools(services);
    const report = await expectSingleEffect(issueRefund, { orderId: 'ord_1001', amountCents: 500 }, {
      effects: () => services.payments.refunds.length,
    });
    expect(report.second.result).toEqual({ refundId: 're_1', orderId: 'ord_1001', amountCents: 500 });
  });

  it('send_email sends one email', async () => {
    const services = createServices();
    const { sendEmail } = createTools(services);
    await expectSingleEffect(sendEmail, { orderId: 'ord_1001', to: 'ada@example.test', template: 'refund_issued' }, {
      effects: () => services.mailer.sent.length,
    });
  });

  it('set_order_status reaches the same end state twice', async () => {
    const services = createServices();
    const { setOrderStatus } = createTools(services);
    // What a second call could add to: without a count the helper compares the two results only.
    await expectSingleEffect(setOrderStatus, { orderId: 'ord_1001', status: 'shipped' }, {
      effects: () => services.orders.get('ord_1001')?.notes.length ?? 0,
    });
    expect(services.orders.get('ord_1001')?.status).toBe('shipped');
  });

  it('a resumed run on the durable SQLite store replays the refund instead of refunding again', async () => {
    const services = createServices();
    const { issueRefund } = createTools(services);
    const file = path.join(dir, 'dedup.db');
    const run = runContextForTests('job_42');

    const firstProcess = createSqliteStore({ path: file });
    const first = await createRunner({ store: firstProcess }).call(issueRefund, { orderId: 'ord_1002', amountCents: 1300 }, { run });
    await firstProcess.close();

    const resumedProcess = createSqliteStore({ path: file });
    const second = await createRunner({ store: resumedProcess }).call(issueRefund, { orderId: 'ord_1002', amountCents: 1300 }, { run });
    await resumedProcess.close();

    expect(first.replayed).toBe(false);
    expect(second).toMatchObject({ replayed: true, result: first.result });
    expect(services.payments.refunds).toHaveLength(1);
  });

  it("the agent's refund and notify, each called twice in one run, refund once and email once", async () => {
    const agent = createAgent(path.join(dir, 'agent.db'));
    const run = runContextForTests('conversation_7');
    try {
      const first = await agent.refund(run, 'ord_1001', 500);
      const again = await agent.refund(run, 'ord_1001', 500);
      await agent.notify(run, 'ord_1001', 'ada@example.test', 'refund_issued');
      const emailAgain = await agent.notify(run, 'ord_1001', 'ada@example.test', 'refund_issued');
      expect(again).toMatchObject({ replayed: true, result: first.result });
      expect(emailAgain.replayed).toBe(true);
      expect(agent.services.payments.refunds).toHaveLength(1);
      expect(agent.services.mailer.sent).toHaveLength(1);
    } finally {
      await agent.close();
    }
  });
});
