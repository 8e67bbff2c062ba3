// MCP wire benchmark: what enableIdempotency's guard costs a tools/call, against the same server
// answering unkeyed calls, measured interleaved in one run. The MCP SDK's in-memory transport
// keeps the network out of it; the dedup store is a SQLite file (WAL). Ratios and percentiles,
// never assertions.
//
//   node bench/mcp-wire.mjs [--rounds 5] [--calls 300]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createRunner, defineTool, key } from '@retrysafe/spec';
import { enableIdempotency, registerRetrysafeTool } from '@retrysafe/spec/adapters/mcp';
import { createSqliteStore } from '@retrysafe/spec/stores/sqlite';
import { z } from 'zod';
import { formatLoad, median, readFlags, table } from './lib.mjs';

const flags = readFlags(['rounds', 'calls']);
const rounds = Number(flags.rounds ?? 5);
const calls = Number(flags.calls ?? 300);
const dir = mkdtempSync(join(tmpdir(), 'retrysafe-bench-mcp-'));
const store = createSqliteStore({ path: join(dir, 'dedup.db') });
const runner = createRunner({ store });

const server = new McpServer({ name: 'bench', version: '1.0.0' });
enableIdempotency(server, { runner, scope: () => 'bench' });
server.registerTool(
  'create_ticket',
  { inputSchema: { subject: z.string() }, _meta: { 'io.github.retrysafe/policy': { side_effects: 'internal_write', idempotent: 'with_key', retry: 'safe_with_same_key' } } },
  async ({ subject }) => ({ content: [{ type: 'text', text: JSON.stringify({ ticket: subject }) }] }),
);
registerRetrysafeTool(
  server,
  defineTool({
    name: 'issue_refund',
    sideEffects: 'money_out',
    idempotent: 'with_key',
    retry: 'safe_with_same_key',
    input: z.object({ orderId: z.string() }),
    key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`,
    execute: async ({ orderId }) => ({ refundId: `re_${orderId}` }),
  }),
  { runner },
);
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
const client = new Client({ name: 'bench', version: '1.0.0' });
await Promise.all([server.connect(serverSide), client.connect(clientSide)]);

let n = 0;
const targets = {
  'plain tool, no key (baseline)': () => client.callTool({ name: 'create_ticket', arguments: { subject: `s${(n += 1)}` } }),
  'plain tool, keyed, first call': () => {
    n += 1;
    return client.callTool({ name: 'create_ticket', arguments: { subject: `s${n}` }, _meta: { 'io.github.retrysafe/idempotencyKey': `k${n}` } });
  },
  'plain tool, keyed, replay': () => client.callTool({ name: 'create_ticket', arguments: { subject: 'same' }, _meta: { 'io.github.retrysafe/idempotencyKey': 'replayed' } }),
  'retrysafe tool, keyed, first call (two records)': () => {
    n += 1;
    return client.callTool({ name: 'issue_refund', arguments: { orderId: `o${n}` }, _meta: { 'io.github.retrysafe/idempotencyKey': `r${n}` } });
  },
};

const perCall = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
for (let round = 0; round < rounds; round += 1) {
  for (const [name, call] of Object.entries(targets)) {
    for (let i = 0; i < 20; i += 1) await call(); // warm up
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i += 1) await call();
    perCall[name].push(Number(process.hrtime.bigint() - started) / 1e3 / calls);
  }
}
const baseline = median(perCall['plain tool, no key (baseline)']);
console.log(`mcp-wire: ${rounds} rounds x ${calls} calls per target, interleaved; load average ${formatLoad(loadavg())}`);
console.log(
  table(
    ['target', 'median µs per call', 'vs baseline'],
    Object.entries(perCall).map(([name, xs]) => [name, median(xs).toFixed(0), `${(median(xs) / baseline).toFixed(2)}x`]),
  ),
);
await client.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
