// The agent's side of the example: one runner over a durable SQLite store, shared by every tool
// call of every run, so a retry, a resumed run or a redelivered task finds the first call's
// dedup record (the seed's audit question 4: the record outlives the run).
import { createRunner, type RunContext } from '@retrysafe/spec';
import { createSqliteStore } from '@retrysafe/spec/stores/sqlite';

import { createServices } from './services.js';
import { createTools } from './tools/index.js';

/** The example agent: its services, tools and a runner whose records live in `dedupFile`. */
export function createAgent(dedupFile = '.retrysafe/dedup.db') {
  const services = createServices();
  const tools = createTools(services);
  const store = createSqliteStore({ path: dedupFile });
  const runner = createRunner({ store });
  return {
    services,
    /** Refund part of an order in `run`; a repeat in the same run replays the first refund. */
    refund: (run: RunContext, orderId: string, amountCents: number) =>
      runner.call(tools.issueRefund, { orderId, amountCents }, { run }),
    /** Email the customer about an order in `run`; a repeat replays the first send. */
    notify: (run: RunContext, orderId: string, to: string, template: 'refund_issued' | 'order_shipped') =>
      runner.call(tools.sendEmail, { orderId, to, template }, { run }),
    /** Closes the dedup store. */
    close: () => store.close(),
  };
}
