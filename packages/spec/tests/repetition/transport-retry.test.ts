/**
 * The seed's first source of repetition, end to end: the transport retry ("handled by the key").
 * MCP 2026-07-28 makes it routine: a broken response stream "loses the in-flight request; clients
 * MUST re-issue it as a new request with a new request ID", and on stdio in-flight requests "are
 * simply lost and the client can retry them against the fresh process". `retrysafeClient` (the MCP
 * SDK's `Client`) re-sends with the same key:
 * - over Streamable HTTP on 127.0.0.1, through a proxy that reads the server's whole answer (the
 *   tool ran and was recorded) and then drops the connection;
 * - over stdio, the server's child process SIGKILLed before it answers, and between the effect
 *   and its record, the client starting a fresh server process and re-sending to it.
 * The HTTP provider stand-in's own ledger counts the refunds, and the re-send is told it was a
 * replay. (`@ai-sdk/mcp`'s client: tests/adapters/ai-sdk-mcp.test.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { enableIdempotency, registerRetrysafeTool, retrysafeClient } from '../../src/adapters/mcp.js';
import { vouchDurable } from '../../src/durable.js';
import { callKey } from '../../src/loop/callKey.js';
import { sqliteFixture } from '../adapters/support.js';
import { startProviderStandIn, type ProviderStandIn } from '../helpers/ledger.js';
import { startDroppingProxy, startHttpMcp } from '../helpers/mcpHttp.js';
import { stdioServerArgs, type StdioServerArgs } from '../helpers/mcpStdio.js';
import { ledgerRefundTool } from '../helpers/mcpTools.js';

const here = dirname(fileURLToPath(import.meta.url));
const dirs: string[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A transport that starts the fixture server as a child process. */
function serverProcess(args: StdioServerArgs): StdioClientTransport {
  return new StdioClientTransport({ command: process.execPath, args: stdioServerArgs(args), cwd: join(here, '../..'), stderr: 'ignore' });
}

async function setUp(options: { readonly kill: StdioServerArgs['kill']; readonly dedupeByKey?: boolean; readonly lockMs?: number }) {
  const dir = mkdtempSync(join(tmpdir(), 'retrysafe-stdio-'));
  dirs.push(dir);
  const ledger: ProviderStandIn = await startProviderStandIn({ dedupeByKey: options.dedupeByKey ?? false });
  const args: StdioServerArgs = { dbPath: join(dir, 'dedup.db'), ledgerUrl: ledger.url, lockMs: options.lockMs ?? 30_000, kill: options.kill };
  const restarts: StdioClientTransport[] = [];
  const client = new Client({ name: 'agent', version: '1.0.0' });
  await client.connect(serverProcess(args));
  cleanups.push(() => client.close(), () => ledger.close());
  const mcp = retrysafeClient(client, {
    run: { id: vouchDurable(`run_stdio_${process.pid}_${Date.now()}`) },
    trust: 'trusted',
    maxDelayMs: 100,
    reconnect: () => {
      const next = serverProcess({ ...args, kill: 'none' });
      restarts.push(next);
      return next;
    },
  });
  return { mcp, ledger, restarts };
}

const refund = { orderId: 'o_1', amountCents: 500 };

describe('transport retry over Streamable HTTP: the answer lost after the server ran the tool', () => {
  const fixture = sqliteFixture();
  afterAll(() => fixture.close());

  it('re-sends with the same key and call id (a new JSON-RPC id) and gets the result its first request recorded, as its own; a later call with the key is told it was a replay: one refund', async () => {
    const ledger = await startProviderStandIn();
    const http = await startHttpMcp({
      tokens: { 'token-a': 'client-a' },
      build: (server) => {
        enableIdempotency(server, { runner: fixture.runner });
        registerRetrysafeTool(server, ledgerRefundTool(ledger.url), { runner: fixture.runner });
      },
    });
    const proxy = await startDroppingProxy(http.url);
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url), { requestInit: { headers: { authorization: 'Bearer token-a' } } }));
    cleanups.push(() => client.close(), () => proxy.close(), () => http.close(), () => ledger.close());
    const run = await fixture.jobRun();
    proxy.dropNext();
    const report = await retrysafeClient(client, { run, trust: 'trusted' }).callTool({ name: 'issue_refund', arguments: refund });
    // This call's first request ran the refund; the re-send only learned its answer.
    expect(report).toMatchObject({ status: 'ok', replayed: false, resends: 1, attempts: 1, policy: { source: 'server' } });
    expect(report.status === 'ok' && report.result.structuredContent).toEqual({ result: { refundId: 're_1', ...refund }, replayed: false });
    expect(report.status === 'ok' && report.result._meta).toEqual({ 'io.github.retrysafe/replayed': false, 'io.github.retrysafe/attempt': 1 });
    expect(ledger.effects()).toHaveLength(1);
    // On the wire: two requests, two JSON-RPC ids, one key, in _meta and as SEP-3182's parameter, one call id.
    const key = callKey(run, 'issue_refund', refund);
    const sent = proxy.calls();
    const callId = (sent[0]?.params['_meta'] as Record<string, unknown>)['io.github.retrysafe/callId'];
    expect(callId).toEqual(expect.any(String));
    const meta = { 'io.github.retrysafe/idempotencyKey': key, 'io.github.retrysafe/callId': callId };
    expect(sent.map((call) => call.params['_meta'])).toEqual([meta, meta]);
    expect(sent.map((call) => call.params['idempotencyKey'])).toEqual([key, key]);
    expect(sent[0]?.id).not.toEqual(sent[1]?.id);
    // The same call again later (the model repeating it): a new call id, told it was a replay.
    const again = await retrysafeClient(client, { run, trust: 'trusted' }).callTool({ name: 'issue_refund', arguments: refund });
    expect(again).toMatchObject({ status: 'ok', replayed: true, resends: 0 });
    expect(again.status === 'ok' && again.result.structuredContent).toEqual({ result: { refundId: 're_1', ...refund }, replayed: true });
    expect(ledger.effects()).toHaveLength(1);
  });
});

describe('transport retry over stdio: the server process killed mid-call', () => {
  it('restarts the server after it died holding a recorded answer, re-sends the same key, and gets that answer as its own (the durable record names the call that ran it): one refund', async () => {
    const { mcp, ledger, restarts } = await setUp({ kill: 'before-answer' });
    const report = await mcp.callTool({ name: 'issue_refund', arguments: refund });
    expect(report).toMatchObject({ status: 'ok', replayed: false, resends: 1, attempts: 1 });
    expect(report.status === 'ok' && report.result.structuredContent).toEqual({ result: { refundId: 're_1', ...refund }, replayed: false });
    expect(restarts).toHaveLength(1);
    expect(ledger.effects().length).toBe(1);
  });

  it('killed between the effect and its record: the re-send waits out the dead lock, runs again with the same key, and the provider dedupes it: one refund', async () => {
    const { mcp, ledger, restarts } = await setUp({ kill: 'after-effect', dedupeByKey: true, lockMs: 300 });
    const report = await mcp.callTool({ name: 'issue_refund', arguments: { orderId: 'o_2', amountCents: 700 } });
    // At retrysafe's layer the effect ran again (attempt 2, after the lock lapsed); the provider
    // saw the same key and returned the first refund.
    expect(report).toMatchObject({ status: 'ok', replayed: false, resends: 1, attempts: 2 });
    expect(report.status === 'ok' && report.result.structuredContent).toEqual({ result: { refundId: 're_1', orderId: 'o_2', amountCents: 700 }, replayed: false });
    expect(restarts).toHaveLength(1);
    const [firstKey, secondKey] = ledger.requests();
    expect(secondKey).toBe(firstKey);
    expect(ledger.effects().length).toBe(1);
  });
});
