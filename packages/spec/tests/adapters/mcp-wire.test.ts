/**
 * The retrysafe MCP wire format, server side, asserted on the JSON that crosses the wire: raw
 * JSON-RPC POSTs to a real MCP TypeScript SDK 1.32 server over Streamable HTTP on 127.0.0.1
 * (stateless, JSON answers, bearer tokens naming two OAuth clients), every effect counted by the
 * provider stand-in's own ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableIdempotency, registerRetrysafeTool } from '../../src/adapters/mcp.js';
import { startProviderStandIn, type ProviderStandIn } from '../helpers/ledger.js';
import { postJsonRpc, startHttpMcp, type HttpMcp } from '../helpers/mcpHttp.js';
import { gate, ledgerRefundTool, registerPlainRead, registerPlainRefund } from '../helpers/mcpTools.js';
import { sqliteFixture } from './support.js';

const fixture = sqliteFixture();
let ledger: ProviderStandIn;
let http: HttpMcp;
const reads = { count: 0 };
let held: ReturnType<typeof gate> | undefined;

beforeAll(async () => {
  ledger = await startProviderStandIn();
  http = await startHttpMcp({
    json: true,
    tokens: { 'token-a': 'client-a', 'token-b': 'client-b' },
    build: (server) => {
      enableIdempotency(server, { runner: fixture.runner, namespace: 'tenant-1' });
      registerRetrysafeTool(server, ledgerRefundTool(ledger.url), { runner: fixture.runner });
      registerPlainRefund(server, ledger.url, { gate: held?.wait });
      registerPlainRead(server, reads);
    },
  });
});
afterAll(async () => {
  await http.close();
  await ledger.close();
  await fixture.close();
});

let ids = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${(ids += 1)}`;

const rpc = (method: string, params: Record<string, unknown>, token = 'token-a') => postJsonRpc(http.url, method, params, { authorization: `Bearer ${token}` });

const call = (name: string, args: Record<string, unknown>, extra: Record<string, unknown>, token?: string) => rpc('tools/call', { name, arguments: args, ...extra }, token);
const withKey = (key: string) => ({ _meta: { 'io.github.retrysafe/idempotencyKey': key } });

describe('the wire: capabilities and tools/list', () => {
  it('advertises SEP-3182 tools.idempotency and the io.github.retrysafe/idempotency extension', async () => {
    const { body } = await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    const capabilities = (body['result'] as { capabilities: Record<string, unknown> }).capabilities;
    expect(capabilities['tools']).toEqual({ idempotency: {}, listChanged: true });
    expect(capabilities['extensions']).toEqual({ 'io.github.retrysafe/idempotency': {} });
  });

  it('publishes each declared policy under _meta["io.github.retrysafe/policy"], not the bare key', async () => {
    const { body } = await rpc('tools/list', {});
    const tools = (body['result'] as { tools: { name: string; _meta?: Record<string, unknown> }[] }).tools;
    const policy = { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 1 };
    expect(tools.find((tool) => tool.name === 'issue_refund')?._meta).toEqual({ 'io.github.retrysafe/policy': policy });
    expect(tools.find((tool) => tool.name === 'create_refund')?._meta).toEqual({ 'io.github.retrysafe/policy': policy });
  });
});

describe('the wire: a keyed tools/call', () => {
  it('runs a retrysafe tool once per key: the re-send (a new JSON-RPC id) gets the first result flagged replayed', async () => {
    const key = unique('k');
    const before = ledger.effects().length;
    const first = await call('issue_refund', { orderId: 'o_1', amountCents: 500 }, withKey(key));
    const second = await call('issue_refund', { amountCents: 500, orderId: 'o_1' }, withKey(key));
    const refund = { refundId: expect.stringMatching(/^re_/), orderId: 'o_1', amountCents: 500 };
    expect(first.body['result']).toEqual({
      content: [{ type: 'text', text: expect.stringContaining('"replayed":false') }],
      structuredContent: { result: refund, replayed: false },
      _meta: { 'io.github.retrysafe/replayed': false, 'io.github.retrysafe/attempt': 1 },
    });
    const firstRefund = (first.body['result'] as { structuredContent: { result: unknown } }).structuredContent.result;
    expect(second.body['result']).toEqual({
      content: [{ type: 'text', text: JSON.stringify({ result: firstRefund, replayed: true }) }],
      structuredContent: { result: firstRefund, replayed: true },
      _meta: { 'io.github.retrysafe/replayed': true, 'io.github.retrysafe/attempt': 1 },
    });
    expect(ledger.effects().length - before).toBe(1);
  });

  it('takes SEP-3182 params.idempotencyKey for a tool registered the plain way, and replays with a note for the model', async () => {
    const key = unique('sep');
    const before = ledger.effects().length;
    const first = await call('create_refund', { orderId: 'o_2', amountCents: 100 }, { idempotencyKey: key });
    const second = await call('create_refund', { orderId: 'o_2', amountCents: 100 }, { idempotencyKey: key, ...withKey(key) });
    const firstResult = first.body['result'] as { content: { text: string }[] };
    expect(first.body['result']).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': false } });
    expect(second.body['result']).toEqual({
      content: [firstResult.content[0], { type: 'text', text: expect.stringMatching(/^Replayed: this exact call had already run/) }],
      _meta: { 'io.github.retrysafe/replayed': true, 'io.github.retrysafe/attempt': 1 },
    });
    expect(ledger.effects().length - before).toBe(1);
    // The key the provider got is the client's key behind the client's scope, never the bare key.
    expect(ledger.requests().at(-1)).toMatch(new RegExp(`^m1:[0-9a-f]{24}:${key}$`));
  });

  it('answers the same key with other arguments with SEP-3182 idempotency_key_conflict (422), and runs nothing', async () => {
    const key = unique('conflict');
    await call('create_refund', { orderId: 'o_3', amountCents: 100 }, withKey(key));
    const before = ledger.effects().length;
    const other = await call('create_refund', { orderId: 'o_3', amountCents: 999 }, withKey(key));
    expect(other.body['error']).toEqual({
      code: 422,
      message: expect.stringContaining('first used with other arguments'),
      data: { type: 'idempotency_key_conflict', idempotencyKey: key, tool: 'create_refund', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), storedFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(ledger.effects().length).toBe(before);
  });

  it('answers a re-send while the first call still runs with idempotency_key_in_progress (409) and a retry hint', async () => {
    held = gate();
    try {
      const key = unique('busy');
      const before = ledger.effects().length;
      const first = call('create_refund', { orderId: 'o_4', amountCents: 100 }, withKey(key));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const busy = await call('create_refund', { orderId: 'o_4', amountCents: 100 }, withKey(key));
      expect(busy.body['error']).toEqual({
        code: 409,
        message: expect.stringContaining('already running'),
        data: { type: 'idempotency_key_in_progress', idempotencyKey: key, tool: 'create_refund', retryAfterMs: expect.any(Number) },
      });
      expect((busy.body['error'] as { data: { retryAfterMs: number } }).data.retryAfterMs).toBeGreaterThan(0);
      held.open();
      expect((await first).body['result']).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': false } });
      expect(ledger.effects().length - before).toBe(1);
    } finally {
      held.open();
      held = undefined;
    }
  });

  it('scopes keys to the calling client: the same key from another OAuth client is another call, never a replay', async () => {
    const key = unique('shared');
    const before = ledger.effects().length;
    const fromA = await call('create_refund', { orderId: 'o_5', amountCents: 100 }, withKey(key), 'token-a');
    const fromB = await call('create_refund', { orderId: 'o_5', amountCents: 100 }, withKey(key), 'token-b');
    const againA = await call('create_refund', { orderId: 'o_5', amountCents: 100 }, withKey(key), 'token-a');
    expect(fromB.body['result']).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': false } });
    expect(fromB.body['result']).not.toEqual(fromA.body['result']);
    expect(againA.body['result']).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': true } });
    expect(ledger.effects().length - before).toBe(2);
    const [providerKeyA, providerKeyB] = ledger.requests().slice(-2);
    expect(providerKeyA).not.toBe(providerKeyB);
  });

  it('rejects a key that is not a key with -32602 idempotency_key_invalid, before anything runs', async () => {
    const before = ledger.requests().length;
    const cases: [Record<string, unknown>, string][] = [
      [withKey(''), 'empty'],
      [withKey('x'.repeat(256)), 'too_long'],
      [withKey('bad\u0000key'), 'control_character'],
      [withKey('lone\ud800'), 'not_well_formed'],
      [{ _meta: { 'io.github.retrysafe/idempotencyKey': 42 } }, 'not_a_string'],
      [{ idempotencyKey: 'a', ...withKey('b') }, 'two_keys_differ'],
    ];
    for (const [extra, reason] of cases) {
      const { body } = await call('create_refund', { orderId: 'o_6', amountCents: 1 }, extra);
      expect(body['error']).toEqual({ code: -32602, message: expect.stringContaining('Invalid idempotency key'), data: { type: 'idempotency_key_invalid', reason } });
    }
    expect(ledger.requests().length).toBe(before);
  });

  it('runs a naturally idempotent read on every call, key or not', async () => {
    const key = unique('read');
    const before = reads.count;
    const first = await call('get_order', { orderId: 'o_7' }, withKey(key));
    await call('get_order', { orderId: 'o_7' }, withKey(key));
    // No record, so no attempt count of its own.
    expect((first.body['result'] as { _meta: unknown })._meta).toEqual({ 'io.github.retrysafe/replayed': false });
    expect(reads.count - before).toBe(2);
  });

  it('runs an unkeyed call as a plain MCP server would, with no retrysafe _meta', async () => {
    const before = ledger.effects().length;
    const { body } = await call('create_refund', { orderId: 'o_8', amountCents: 1 }, {});
    expect(body['result']).toEqual({ content: [{ type: 'text', text: expect.stringContaining('"orderId":"o_8"') }] });
    expect(ledger.effects().length - before).toBe(1);
  });
});

describe('the wire: a server that cannot tell clients apart', () => {
  it('refuses keys with idempotency_key_unscoped on stateless HTTP without auth, and runs nothing', async () => {
    const open = await startHttpMcp({
      json: true,
      build: (server) => {
        enableIdempotency(server, { runner: fixture.runner });
        registerPlainRefund(server, ledger.url);
      },
    });
    try {
      const before = ledger.requests().length;
      const { body } = await postJsonRpc(open.url, 'tools/call', { name: 'create_refund', arguments: { orderId: 'o_9', amountCents: 1 }, ...withKey(unique('u')) });
      expect(body['error']).toEqual({ code: -32603, message: expect.stringContaining('cannot tell its clients apart'), data: { type: 'idempotency_key_unscoped' } });
      expect(ledger.requests().length).toBe(before);
    } finally {
      await open.close();
    }
  });
});
