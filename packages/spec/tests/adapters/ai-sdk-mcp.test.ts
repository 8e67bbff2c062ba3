/**
 * `retrysafeMcpClient` over the real `@ai-sdk/mcp` 2 client: over Streamable HTTP on 127.0.0.1
 * through the proxy that loses the answer after the server ran the tool, and over stdio with the
 * server process SIGKILLed before it answers. The provider stand-in's ledger counts the effects.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import { StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { retrysafeMcpClient, retrysafeTransport, type AiSdkMcpClientOptions } from '../../src/adapters/ai-sdk-mcp.js';
import { enableIdempotency, registerRetrysafeTool } from '../../src/adapters/mcp.js';
import { callKey } from '../../src/loop/callKey.js';
import { vouchDurable } from '../../src/durable.js';
import { startProviderStandIn, type ProviderStandIn } from '../helpers/ledger.js';
import { startDroppingProxy, startHttpMcp, type DroppingProxy, type HttpMcp } from '../helpers/mcpHttp.js';
import { stdioServerArgs } from '../helpers/mcpStdio.js';
import { ledgerRefundTool, registerPlainRefund } from '../helpers/mcpTools.js';
import { sqliteFixture } from './support.js';

const fixture = sqliteFixture();
let ledger: ProviderStandIn;
let http: HttpMcp;
let proxy: DroppingProxy;
const dirs: string[] = [];

beforeAll(async () => {
  ledger = await startProviderStandIn();
  http = await startHttpMcp({
    tokens: { 'token-a': 'client-a' },
    build: (server) => {
      enableIdempotency(server, { runner: fixture.runner });
      registerRetrysafeTool(server, ledgerRefundTool(ledger.url), { runner: fixture.runner });
      registerPlainRefund(server, ledger.url);
    },
  });
  proxy = await startDroppingProxy(http.url);
});
afterAll(async () => {
  await proxy.close();
  await http.close();
  await ledger.close();
  await fixture.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
});

async function overHttp(options: AiSdkMcpClientOptions, transport = retrysafeTransport({ type: 'http', url: proxy.url, headers: { authorization: 'Bearer token-a' } })) {
  const client = await createMCPClient({ transport });
  const mcp = retrysafeMcpClient(client, { maxDelayMs: 20, ...options });
  opened.push(mcp);
  return mcp;
}

const refund = { orderId: 'o_1', amountCents: 500 };

describe('retrysafeMcpClient (@ai-sdk/mcp): a lost answer over Streamable HTTP', () => {
  it('re-sends with the same key and call id, through the transport, and gets its first request\'s result as its own: one refund', async () => {
    const run = await fixture.jobRun();
    const mcp = await overHttp({ run, trust: 'trusted' });
    const before = { effects: ledger.effects().length, calls: proxy.calls().length };
    proxy.dropNext();
    const report = await mcp.callTool({ name: 'issue_refund', arguments: refund });
    expect(report).toMatchObject({ status: 'ok', replayed: false, resends: 1, attempts: 1 });
    expect(ledger.effects().length - before.effects).toBe(1);
    const key = callKey(run, 'issue_refund', refund);
    const sent = proxy.calls().slice(before.calls);
    const callId = (sent[0]?.params['_meta'] as Record<string, unknown>)['io.github.retrysafe/callId'];
    expect(callId).toEqual(expect.any(String));
    const meta = { 'io.github.retrysafe/idempotencyKey': key, 'io.github.retrysafe/callId': callId };
    expect(sent.map((call) => [call.params['_meta'], call.params['idempotencyKey']])).toEqual([
      [meta, key],
      [meta, key],
    ]);
  });

  it('gives the AI SDK tools whose execute re-sends by policy, and words an escalation for the model', async () => {
    const trusted = await (await overHttp({ trust: 'trusted' })).tools({ run: await fixture.jobRun() });
    const before = ledger.effects().length;
    proxy.dropNext();
    const options = { toolCallId: 'call_1', messages: [], context: {} };
    expect(await trusted['create_refund']?.execute?.(refund, options)).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': false } });
    const untrusted = await (await overHttp({})).tools({ run: await fixture.jobRun() });
    proxy.dropNext();
    const escalated = (await untrusted['create_refund']?.execute?.(refund, options)) as { isError: boolean; content: { text: string }[] };
    expect(escalated.isError).toBe(true);
    expect(escalated.content[0]?.text).toMatch(/may or may not have happened\. Do not call it again; tell the user a person needs to check/);
    expect(ledger.effects().length - before).toBe(2);
  });

  it('refuses a run built from the tool-call id, which is new on every model turn', async () => {
    const tools = await (await overHttp({ trust: 'trusted' })).tools({ run: ({ toolCallId }) => ({ id: vouchDurable(`run_${toolCallId ?? ''}`) }) });
    await expect(tools['create_refund']?.execute?.(refund, { toolCallId: 'call_9', messages: [], context: {} })).rejects.toThrow(/contains the tool call id/);
  });

  it('rejects a call whose transport was not wrapped: the key would never reach the server', async () => {
    const mcp = await overHttp({ run: await fixture.jobRun(), trust: 'trusted' }, { type: 'http', url: proxy.url, headers: { authorization: 'Bearer token-a' } });
    await expect(mcp.callTool({ name: 'get_missing', arguments: {} })).rejects.toThrow(/without its idempotency key/);
  });
});

describe('retrysafeMcpClient (@ai-sdk/mcp) over stdio, the server killed mid-call', () => {
  it('starts a new client on a fresh server process, re-sends the same key, and gets its first request\'s answer as its own: one refund', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'retrysafe-ai-stdio-'));
    dirs.push(dir);
    const local = await startProviderStandIn();
    const args = { dbPath: join(dir, 'dedup.db'), ledgerUrl: local.url, lockMs: 30_000 };
    const transport = (kill: 'before-answer' | 'none') => retrysafeTransport(new StdioMCPTransport({ command: process.execPath, args: stdioServerArgs({ ...args, kill }), stderr: 'ignore' }));
    let restarts = 0;
    const mcp = retrysafeMcpClient(await createMCPClient({ transport: transport('before-answer') }), {
      run: { id: vouchDurable(`run_ai_stdio_${process.pid}_${Date.now()}`) },
      trust: 'trusted',
      reconnect: (): Promise<MCPClient> => {
        restarts += 1;
        return createMCPClient({ transport: transport('none') });
      },
    });
    opened.push(mcp, local);
    const report = await mcp.callTool({ name: 'issue_refund', arguments: refund });
    expect(report).toMatchObject({ status: 'ok', replayed: false, resends: 1 });
    expect(report.status === 'ok' && report.result.structuredContent).toEqual({ result: { refundId: 're_1', ...refund }, replayed: false });
    expect(restarts).toBe(1);
    expect(local.effects().length).toBe(1);
  });
});
