/**
 * The MCP adapter with the real MCP TypeScript SDK 1.32: an `McpServer` and a `Client` connected
 * through the SDK's `InMemoryTransport`, so every call is a real `tools/call` request and every
 * listing a real `tools/list`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type } from 'arktype';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { annotationsFor, registerRetrysafeTool, type McpAnnotationOverrides } from '../../src/adapters/mcp.js';
import { key } from '../../src/key.js';
import { policyOf } from '../../src/policy.js';
import { openRun } from '../../src/runs.js';
import { defineTool } from '../../src/tool.js';
import { memoryProvider } from '../helpers/provider.js';
import { incrementTool, refundTool, setStatusTool } from '../helpers/tools.js';
import { chargeTool, sqliteFixture } from './support.js';

const fixture = sqliteFixture();
afterAll(() => fixture.close());

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A server with `register` applied, and a client connected to it. */
async function connect(register: (server: McpServer) => unknown): Promise<Client> {
  const server = new McpServer({ name: 'payments', version: '1.0.0' });
  await register(server);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'agent', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as CallToolResult;

const textOf = (result: CallToolResult): string => {
  const [first] = result.content;
  return first?.type === 'text' ? first.text : '';
};

describe('registerRetrysafeTool', () => {
  it('replays a with_key tool the client calls twice: one refund, the second result flagged replayed', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const run = await fixture.jobRun();
    const client = await connect((server) => registerRetrysafeTool(server, refundTool(provider), { runner: fixture.runner, run }));
    const first = await call(client, 'issue_refund', { orderId: 'o_1', amountCents: 500 });
    const second = await call(client, 'issue_refund', { orderId: 'o_1', amountCents: 500 });
    const refund = { refundId: 're_1', orderId: 'o_1', amountCents: 500 };
    expect(first).toEqual({ content: [{ type: 'text', text: JSON.stringify({ result: refund, replayed: false }) }], structuredContent: { result: refund, replayed: false } });
    expect(second).toEqual({ content: [{ type: 'text', text: JSON.stringify({ result: refund, replayed: true }) }], structuredContent: { result: refund, replayed: true } });
    expect(provider.effects()).toBe(1);
    expect(provider.calls()).toEqual([`${run.id}:o_1:refund`]);
  });

  it('shows the annotations and the policy in tools/list, and on the registered tool', async () => {
    let registered: unknown;
    const client = await connect((server) => {
      registered = registerRetrysafeTool(server, refundTool(memoryProvider()), { runner: fixture.runner, run: { id: 'static-run' } as never });
    });
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      expect.objectContaining({
        name: 'issue_refund',
        description: 'Refund part of an order',
        inputSchema: expect.objectContaining({ type: 'object', required: ['orderId', 'amountCents'] }),
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
        // The reverse-DNS key of MCP 2026-07-28's _meta rules; the bare `retrysafe` key is no longer written.
        _meta: { 'io.github.retrysafe/policy': { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 3 } },
      }),
    ]);
    expect(policyOf(registered)).toEqual({ side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 3 });
  });

  it('maps each class and side effect to the MCP hints', () => {
    expect(annotationsFor({ side_effects: 'none', idempotent: true, retry: 'safe', max_attempts: 3 })).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(annotationsFor({ side_effects: 'internal_write', idempotent: true, retry: 'safe', max_attempts: 3 })).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(annotationsFor({ side_effects: 'message_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 1 })).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(annotationsFor({ side_effects: 'external_write', idempotent: false, retry: 'never', max_attempts: 1 })).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it('takes title, destructiveHint and openWorldHint from the options, and nothing the policy decides', async () => {
    const client = await connect((server) =>
      registerRetrysafeTool(server, refundTool(memoryProvider()), {
        runner: fixture.runner,
        run: { id: 'static-run' } as never,
        annotations: { title: 'Refund', destructiveHint: false, idempotentHint: false } as McpAnnotationOverrides, // idempotentHint is the policy's to say
      }),
    );
    const [listed] = (await client.listTools()).tools;
    expect(listed?.annotations).toEqual({ title: 'Refund', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true });
  });

  it('runs a naturally idempotent tool on every call, and a not-safely-repeatable one once per call', async () => {
    const run = await fixture.jobRun();
    const writes = { count: 0 };
    const balance = { cents: 0 };
    const client = await connect((server) => {
      registerRetrysafeTool(server, setStatusTool(new Map(), writes), { runner: fixture.runner, run });
      registerRetrysafeTool(server, incrementTool(balance), { runner: fixture.runner, run });
    });
    const input = { orderId: 'o_2', status: 'shipped' };
    expect((await call(client, 'set_status', input)).structuredContent).toEqual({ result: input, replayed: false });
    expect((await call(client, 'set_status', input)).structuredContent).toEqual({ result: input, replayed: false });
    expect(writes.count).toBe(2);
    await call(client, 'increment_balance', { cents: 100 });
    await call(client, 'increment_balance', { cents: 100 });
    expect(balance.cents).toBe(200);
  });

  it('answers invalid arguments with an isError result naming the issue, and runs nothing', async () => {
    const provider = memoryProvider();
    const client = await connect((server) => registerRetrysafeTool(server, refundTool(provider), { runner: fixture.runner, run: { id: 'static-run' } as never }));
    const result = await call(client, 'issue_refund', { orderId: 'o_3', amountCents: -5 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Invalid arguments for tool issue_refund.*amountCents/s);
    expect(provider.calls()).toEqual([]);
  });

  it('validates the arguments once: a schema that transforms its input works and replays', async () => {
    const charges: string[] = [];
    const client = await connect(async (server) => registerRetrysafeTool(server, chargeTool(charges), { runner: fixture.runner, run: await fixture.jobRun() }));
    expect((await call(client, 'charge_card', { cardId: 'card_1', amount: '12.50' })).structuredContent).toEqual({ result: { chargeId: 'ch_1', cents: 1250 }, replayed: false });
    expect((await call(client, 'charge_card', { cardId: 'card_1', amount: '12.50' })).structuredContent).toEqual({ result: { chargeId: 'ch_1', cents: 1250 }, replayed: true });
    expect(charges).toEqual(['card_1:1250']);
  });

  it('answers a concurrent twin with an isError "try again later" (409) result and runs the effect once', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const client = await connect(async (server) => registerRetrysafeTool(server, refundTool(provider), { runner: fixture.runner, run: await fixture.jobRun() }));
    const input = { orderId: 'o_5', amountCents: 700 };
    const held = provider.hold();
    const first = call(client, 'issue_refund', input);
    await held.started;
    const twin = await call(client, 'issue_refund', input);
    expect(twin).toEqual({
      content: [
        {
          type: 'text',
          text:
            'issue_refund is already running with these arguments (409 Conflict). This call did not run it again, and nothing has failed. ' +
            'Try again a little later with the same arguments to get its result.',
        },
      ],
      isError: true,
      _meta: { 'io.github.retrysafe/error': { name: 'ConcurrentCallError' } },
    });
    held.release();
    expect((await first).structuredContent).toMatchObject({ replayed: false });
    expect((await call(client, 'issue_refund', input)).structuredContent).toMatchObject({ replayed: true, result: { refundId: 're_1' } });
    expect(provider.effects()).toBe(1);
  });

  it("reports the tool's own error in the result with whether to call again", async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    provider.failNext(1, 'provider returned 503');
    const client = await connect(async (server) => registerRetrysafeTool(server, refundTool(provider), { runner: fixture.runner, run: await fixture.jobRun() }));
    const failed = await call(client, 'issue_refund', { orderId: 'o_6', amountCents: 1 });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe(
      'issue_refund failed: provider returned 503 (attempt 1 of 3). It is safe to call it again with the same arguments: if an earlier attempt took effect, its result is returned instead of repeating it.',
    );
    expect((await call(client, 'issue_refund', { orderId: 'o_6', amountCents: 1 })).structuredContent).toMatchObject({ replayed: false });
    expect(provider.effects()).toBe(1);
  });

  it('takes the run from the request: the same origin replays, another origin is other work', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const client = await connect((server) =>
      registerRetrysafeTool(server, refundTool(provider), {
        runner: fixture.runner,
        run: (extra) => {
          const origin = extra._meta?.['example.com/run'];
          if (typeof origin !== 'string') throw new Error('send _meta["example.com/run"]');
          return openRun(fixture.store, { kind: 'request', id: origin });
        },
      }),
    );
    const input = { orderId: 'o_7', amountCents: 1 };
    const origin = `conv_${Math.random().toString(36).slice(2)}`;
    await call(client, 'issue_refund', input, { 'example.com/run': origin });
    expect((await call(client, 'issue_refund', input, { 'example.com/run': origin })).structuredContent).toMatchObject({ replayed: true });
    expect((await call(client, 'issue_refund', input, { 'example.com/run': `${origin}_other` })).structuredContent).toMatchObject({ replayed: false });
    const missing = await call(client, 'issue_refund', input);
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('send _meta["example.com/run"]');
    expect(provider.effects()).toBe(2);
  });

  it('refuses an input that is not a zod object, saying what to pass', () => {
    const server = new McpServer({ name: 'x', version: '1.0.0' });
    const arkTool = defineTool({
      name: 'create_ticket',
      sideEffects: 'internal_write',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input: type({ subject: 'string' }),
      key: ({ run, input }) => key`${run.id}:${input.subject}:ticket`,
      execute: async () => ({ ticket: 1 }),
    });
    expect(() => registerRetrysafeTool(server, arkTool, { runner: fixture.runner, run: { id: 'r' } as never })).toThrow(
      /\(arktype\) is not a zod object.*z\.object/s,
    );
    expect(() => registerRetrysafeTool(server, refundTool(memoryProvider()), { runner: fixture.runner, run: {} as never })).toThrow(/RunContext/);
  });
});
