/**
 * `retrysafeClient` over the official MCP SDK 1.32 `Client` and Streamable HTTP on 127.0.0.1,
 * through a proxy that loses the answer after the server ran the tool: what it does under each
 * policy and trust (the seed's transport retry end to end: tests/repetition/transport-retry.test.ts).
 * The provider stand-in's ledger does not deduplicate, so one effect is retrysafe's doing.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enableIdempotency, registerRetrysafeTool, retrysafeClient, type McpClientOptions } from '../../src/adapters/mcp.js';
import { isRetrysafeError } from '../../src/errors.js';
import type { RunContext } from '../../src/run.js';
import { startProviderStandIn, type ProviderStandIn } from '../helpers/ledger.js';
import { startDroppingProxy, startHttpMcp, type DroppingProxy, type HttpMcp } from '../helpers/mcpHttp.js';
import { gate, ledgerRefundTool, registerPlainRead, registerPlainRefund } from '../helpers/mcpTools.js';
import { sqliteFixture } from './support.js';

const fixture = sqliteFixture();
const reads = { count: 0 };
let held: ReturnType<typeof gate> | undefined;
let ledger: ProviderStandIn;
let http: HttpMcp;
let proxy: DroppingProxy;

beforeAll(async () => {
  ledger = await startProviderStandIn();
  http = await startHttpMcp({
    tokens: { 'token-a': 'client-a' },
    build: (server) => {
      enableIdempotency(server, { runner: fixture.runner });
      registerRetrysafeTool(server, ledgerRefundTool(ledger.url), { runner: fixture.runner });
      registerPlainRefund(server, ledger.url, { gate: held?.wait });
      registerPlainRead(server, reads);
    },
  });
  proxy = await startDroppingProxy(http.url);
});
afterAll(async () => {
  await proxy.close();
  await http.close();
  await ledger.close();
  await fixture.close();
});

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(options: McpClientOptions & { run: RunContext }) {
  const client = new Client({ name: 'agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url), { requestInit: { headers: { authorization: 'Bearer token-a' } } }));
  clients.push(client);
  return retrysafeClient(client, { maxDelayMs: 20, ...options });
}

const refund = { orderId: 'o_1', amountCents: 500 };

describe('retrysafeClient: a lost answer over Streamable HTTP', () => {
  // The retrysafe tool's case, with the wire checked too, is tests/repetition/transport-retry.test.ts.
  it('re-sends a tool registered the plain way, whose policy is in its _meta, with the same key: one refund', async () => {
    const mcp = await connect({ run: await fixture.jobRun(), trust: 'trusted' });
    const before = ledger.effects().length;
    proxy.dropNext();
    const report = await mcp.callTool({ name: 'create_refund', arguments: refund });
    expect(report).toMatchObject({ status: 'ok', replayed: false, resends: 1 });
    // A plain tool's result gets no replay note: this call ran it.
    expect(report.status === 'ok' && report.result.content).toHaveLength(1);
    expect(ledger.effects().length - before).toBe(1);
  });

  it('escalates instead of re-sending when the server is not trusted (its policy is only advisory)', async () => {
    const mcp = await connect({ run: await fixture.jobRun() });
    const before = { effects: ledger.effects().length, calls: proxy.calls().length };
    proxy.dropNext();
    const report = await mcp.callTool({ name: 'issue_refund', arguments: refund });
    expect(report).toMatchObject({
      status: 'escalated',
      resends: 0,
      error: { name: 'AnswerLostError', code: 'answer_lost' },
      policy: { source: 'default', published: { idempotent: 'with_key', retry: 'safe_with_same_key' } },
    });
    expect(report.status === 'escalated' && isRetrysafeError(report.error)).toBe(true);
    expect(proxy.calls().length - before.calls).toBe(1);
    expect(ledger.effects().length - before.effects).toBe(1);
  });

  it('acts on a policy the caller declares itself, even for an untrusted server', async () => {
    const policies = { issue_refund: { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 1 } } as const;
    const mcp = await connect({ run: await fixture.jobRun(), policies });
    const before = ledger.effects().length;
    proxy.dropNext();
    expect(await mcp.callTool({ name: 'issue_refund', arguments: refund })).toMatchObject({ status: 'ok', replayed: false, resends: 1, policy: { source: 'caller' } });
    expect(ledger.effects().length - before).toBe(1);
  });

  it('escalates a lost answer of a retry: never tool without re-sending it', async () => {
    const policies = { create_refund: { side_effects: 'money_out', idempotent: false, retry: 'never' } } as const;
    const mcp = await connect({ run: await fixture.jobRun(), trust: 'trusted', policies });
    const before = { effects: ledger.effects().length, calls: proxy.calls().length };
    proxy.dropNext();
    const report = await mcp.callTool({ name: 'create_refund', arguments: refund });
    expect(report).toMatchObject({ status: 'escalated', decision: { action: 'escalate' }, resends: 0 });
    expect(proxy.calls().length - before.calls).toBe(1);
    expect(ledger.effects().length - before.effects).toBe(1);
  });

  it('retries a naturally idempotent read whose answer was lost, as an attempt of its own', async () => {
    const mcp = await connect({ run: await fixture.jobRun(), trust: 'trusted' });
    const before = reads.count;
    proxy.dropNext();
    expect(await mcp.callTool({ name: 'get_order', arguments: { orderId: 'o_2' } })).toMatchObject({ status: 'ok', replayed: false, attempts: 2, resends: 0 });
    expect(reads.count - before).toBe(2);
  });

  it('waits out a call still in progress (no answer within attemptTimeoutMs, then 409s with a retry hint) and gets its result', async () => {
    held = gate();
    try {
      const mcp = await connect({ run: await fixture.jobRun(), trust: 'trusted', attemptTimeoutMs: 150 });
      const before = ledger.effects().length;
      const pending = mcp.callTool({ name: 'create_refund', arguments: { orderId: 'o_3', amountCents: 5 } });
      setTimeout(() => held?.open(), 400);
      const report = await pending;
      // It waited for its own first request: that execution's result, not a replay.
      expect(report).toMatchObject({ status: 'ok', replayed: false, resends: 1 });
      expect(ledger.effects().length - before).toBe(1);
    } finally {
      held.open();
      held = undefined;
    }
  });

  it('escalates a caller key reused with other arguments (SEP-3182 conflict), running nothing', async () => {
    const mcp = await connect({ run: await fixture.jobRun(), trust: 'trusted' });
    const idempotencyKey = `reuse-${process.pid}-${Date.now()}`;
    await mcp.callTool({ name: 'create_refund', arguments: { orderId: 'o_4', amountCents: 1 } }, { idempotencyKey });
    const before = ledger.effects().length;
    const report = await mcp.callTool({ name: 'create_refund', arguments: { orderId: 'o_4', amountCents: 2 } }, { idempotencyKey });
    expect(report).toMatchObject({ status: 'escalated', error: { name: 'KeyReuseError' }, key: idempotencyKey });
    expect(ledger.effects().length).toBe(before);
  });

  it('refuses to call without a key source: a key must be the same on every re-send', async () => {
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url), { requestInit: { headers: { authorization: 'Bearer token-a' } } }));
    clients.push(client);
    await expect(retrysafeClient(client).callTool({ name: 'issue_refund', arguments: refund })).rejects.toThrow(/durable run/);
  });
});
