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
import { startProviderStandIn, type ProviderStandIn, type ProviderStandInOptions } from '../helpers/ledger.js';

const here = dirname(fileURLToPath(import.meta.url));
const dirs: string[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

interface ServerArgs {
  readonly dbPath: string;
  readonly ledgerUrl: string;
  readonly lockMs: number;
  readonly holdAnswer: boolean;
}

/** A transport that starts the fixture server as a child process. */
function serverProcess(args: ServerArgs): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: ['--import', join(here, '../helpers/ts-loader.mjs'), join(here, '../fixtures/mcp-stdio-server.ts'), JSON.stringify(args)],
    cwd: join(here, '../..'),
    stderr: 'pipe',
  });
}

async function setUp(ledgerOptions: ProviderStandInOptions & { readonly holdAnswer: boolean; readonly lockMs?: number }) {
  const dir = mkdtempSync(join(tmpdir(), 'retrysafe-stdio-'));
  dirs.push(dir);
  let kill = () => {};
  const ledger: ProviderStandIn = await startProviderStandIn({ ...ledgerOptions, onRequest: () => ledgerOptions.onRequest?.() ?? kill() });
  const args: ServerArgs = { dbPath: join(dir, 'dedup.db'), ledgerUrl: ledger.url, lockMs: ledgerOptions.lockMs ?? 30_000, holdAnswer: ledgerOptions.holdAnswer };
  const first = serverProcess(args);
  const restarts: StdioClientTransport[] = [];
  const client = new Client({ name: 'agent', version: '1.0.0' });
  await client.connect(first);
  cleanups.push(() => client.close(), () => ledger.close());
  // Once: the restarted server's request must reach the provider.
  kill = () => {
    kill = () => {};
    process.kill(first.pid ?? 0, 'SIGKILL');
  };
  const mcp = retrysafeClient(client, {
    run: { id: vouchDurable(`run_stdio_${process.pid}_${Date.now()}`) },
    trust: 'trusted',
    maxDelayMs: 100,
    reconnect: () => {
      const next = serverProcess({ ...args, holdAnswer: false });
      restarts.push(next);
      return next;
    },
  });
  return { mcp, ledger, first, restarts, disarm: () => (kill = () => {}) };
}

describe('retrysafeClient over stdio, the server killed mid-call', () => {
  it('restarts the server after it died holding a recorded answer, re-sends the same key, and is told it was a replay: one refund', async () => {
    const { mcp, ledger, first, restarts, disarm } = await setUp({ holdAnswer: true });
    disarm();
    first.stderr?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ANSWER_HELD')) process.kill(first.pid ?? 0, 'SIGKILL');
    });
    const report = await mcp.callTool({ name: 'issue_refund', arguments: { orderId: 'o_1', amountCents: 500 } });
    expect(report).toMatchObject({ status: 'ok', replayed: true, resends: 1, attempts: 1 });
    expect(report.status === 'ok' && report.result.structuredContent).toEqual({ result: { refundId: 're_1', orderId: 'o_1', amountCents: 500 }, replayed: true });
    expect(restarts).toHaveLength(1);
    expect(ledger.effects().length).toBe(1);
  });

  it('killed between the effect and its record: the re-send waits out the dead lock, runs again with the same key, and the provider dedupes it: one refund', async () => {
    const { mcp, ledger, restarts } = await setUp({ holdAnswer: false, dedupeByKey: true, lockMs: 300 });
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
