/**
 * `retrysafeClient` over stdio with the server's child process killed mid-call (SIGKILL), the
 * client restarting it and re-sending with the same key, as MCP 2026-07-28 (basic/transports/
 * stdio) says a client may: "any in-flight requests are simply lost and the client can retry them
 * against the fresh process". The dedup records are in a SQLite file both server processes open;
 * the provider stand-in's ledger counts the effects.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { retrysafeClient } from '../../src/adapters/mcp.js';
import { vouchDurable } from '../../src/durable.js';
import { startProviderStandIn, type ProviderStandIn } from '../helpers/ledger.js';
import { stdioServerArgs, type StdioServerArgs } from '../helpers/mcpStdio.js';

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

describe('retrysafeClient over stdio, the server killed mid-call', () => {
  it('restarts the server after it died holding a recorded answer, re-sends the same key, and is told it was a replay: one refund', async () => {
    const { mcp, ledger, restarts } = await setUp({ kill: 'before-answer' });
    const report = await mcp.callTool({ name: 'issue_refund', arguments: { orderId: 'o_1', amountCents: 500 } });
    expect(report).toMatchObject({ status: 'ok', replayed: true, resends: 1, attempts: 1 });
    expect(report.status === 'ok' && report.result.structuredContent).toEqual({ result: { refundId: 're_1', orderId: 'o_1', amountCents: 500 }, replayed: true });
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
