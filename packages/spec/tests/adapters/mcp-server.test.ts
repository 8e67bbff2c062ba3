/**
 * `enableIdempotency` for tools registered the plain way: where a tool's policy comes from (the
 * options, `declarePolicy`, its `_meta`, nothing), what a failed attempt does under it, and how
 * keys are scoped (tenant namespace, Streamable HTTP session). Real MCP SDK 1.32 servers over
 * Streamable HTTP on 127.0.0.1; effects counted by the provider stand-in's ledger.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enableIdempotency, headerScope, registerRetrysafeTool, retrysafeClient, type IdempotencyOptions } from '../../src/adapters/mcp.js';
import { declarePolicy } from '../../src/policy.js';
import { startProviderStandIn, type ProviderStandIn } from '../helpers/ledger.js';
import { postJsonRpc, startHttpMcp, type HttpMcpOptions } from '../helpers/mcpHttp.js';
import { ledgerRefundTool, registerPlainRead, registerPlainRefund } from '../helpers/mcpTools.js';
import { vouchDurable } from '../../src/durable.js';
import { sqliteFixture } from './support.js';

const fixture = sqliteFixture();
let ledger: ProviderStandIn;
beforeAll(async () => {
  ledger = await startProviderStandIn();
});
afterAll(async () => {
  await ledger.close();
  await fixture.close();
});
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function serve(register: (server: McpServer) => void, options: Partial<IdempotencyOptions> & Pick<HttpMcpOptions, 'mode'> = {}) {
  const { mode, ...idempotency } = options;
  const http = await startHttpMcp({
    json: true,
    tokens: { 'token-a': 'client-a' },
    ...(mode !== undefined ? { mode } : {}),
    build: (server) => {
      enableIdempotency(server, { runner: fixture.runner, ...idempotency });
      register(server);
    },
  });
  cleanups.push(() => http.close());
  return http;
}

let keys = 0;
const freshKey = () => `k-${process.pid}-${Date.now()}-${(keys += 1)}`;
const args = { orderId: 'o_1', amountCents: 100 };

async function keyedCall(url: string, key: string, headers: Record<string, string> = {}) {
  const { body } = await postJsonRpc(url, 'tools/call', { name: 'create_refund', arguments: args, _meta: { 'io.github.retrysafe/idempotencyKey': key } }, { authorization: 'Bearer token-a', ...headers });
  return body['result'] as { isError?: boolean; content: { text: string }[]; _meta: Record<string, unknown> };
}

describe('enableIdempotency: where a plain tool gets its policy', () => {
  it('treats a tool that declares nothing as not safely repeatable: after a failed attempt the key never runs it again', async () => {
    const http = await serve((server) => registerPlainRefund(server, ledger.url, { policy: null }));
    const key = freshKey();
    const requests = ledger.requests().length;
    ledger.failNext(1);
    const failed = await keyedCall(http.url, key);
    expect(failed).toMatchObject({ isError: true, _meta: { 'io.github.retrysafe/error': { name: 'ToolError', attempt: 1 }, 'io.github.retrysafe/attempt': 1 } });
    expect(failed.content.at(-1)?.text).toMatch(/may or may not have happened\. Do not call it again/);
    const again = await keyedCall(http.url, key);
    expect(again).toEqual({
      content: [{ type: 'text', text: expect.stringMatching(/every attempt allowed for this work is used up.*Do not call it again/s) }],
      isError: true,
      _meta: { 'io.github.retrysafe/error': { name: 'AttemptsExhaustedError', attempt: 1, maxAttempts: 1 }, 'io.github.retrysafe/attempt': 1 },
    });
    expect(ledger.requests().length - requests).toBe(1);
  });

  it('takes a policy from the options: a with_key tool that failed runs again under the same key, then replays', async () => {
    const policies = { create_refund: { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 3 } } as const;
    const http = await serve((server) => registerPlainRefund(server, ledger.url, { policy: null }), { policies });
    const key = freshKey();
    const effects = ledger.effects().length;
    ledger.failNext(1);
    const failed = await keyedCall(http.url, key);
    expect(failed.content.at(-1)?.text).toMatch(/attempt 1 of 3\)\. It is safe to call it again with the same arguments/);
    expect(await keyedCall(http.url, key)).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': false, 'io.github.retrysafe/attempt': 2 } });
    expect(await keyedCall(http.url, key)).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': true, 'io.github.retrysafe/attempt': 2 } });
    expect(ledger.effects().length - effects).toBe(1);
  });

  it('reads declarePolicy on the registered tool: a naturally idempotent one runs on every call', async () => {
    const http = await serve((server) => declarePolicy(registerPlainRefund(server, ledger.url, { policy: null }), { side_effects: 'internal_write', idempotent: true, retry: 'safe' }));
    const key = freshKey();
    const effects = ledger.effects().length;
    await keyedCall(http.url, key);
    await keyedCall(http.url, key);
    expect(ledger.effects().length - effects).toBe(2);
  });

  it('lets retrysafeClient retry a failed with_key call by its policy, with the same key: one refund', async () => {
    const policies = { create_refund: { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 3 } } as const;
    const http = await serve((server) => registerPlainRefund(server, ledger.url, { policy: null }), { policies });
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: 'Bearer token-a' } } }));
    cleanups.push(() => client.close());
    const effects = ledger.effects().length;
    ledger.failNext(1);
    const report = await retrysafeClient(client, { run: await fixture.jobRun(), policies, maxDelayMs: 10 }).callTool({ name: 'create_refund', arguments: args });
    expect(report).toMatchObject({ status: 'ok', replayed: false, attempts: 2, resends: 0 });
    expect(ledger.effects().length - effects).toBe(1);
  });

  it('leaves an unknown or disabled tool to the SDK: refused, no record, and the key still free once the tool is enabled', async () => {
    let disabled = true;
    const http = await serve((server) => {
      const registered = registerPlainRefund(server, ledger.url, { policy: null });
      if (disabled) registered.disable();
    });
    const key = freshKey();
    expect((await keyedCall(http.url, key)).content[0]?.text).toMatch(/disabled/);
    const { body } = await postJsonRpc(http.url, 'tools/call', { name: 'no_such_tool', arguments: {}, _meta: { 'io.github.retrysafe/idempotencyKey': key } }, { authorization: 'Bearer token-a' });
    expect(JSON.stringify(body)).toMatch(/not found/);
    disabled = false;
    expect(await keyedCall(http.url, key)).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': false, 'io.github.retrysafe/attempt': 1 } });
  });

  it('lets an explicit enableIdempotency take over from registerRetrysafeTool, once', async () => {
    const { McpServer: Server } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const server = new Server({ name: 'x', version: '1' });
    registerRetrysafeTool(server, ledgerRefundTool(ledger.url), { runner: fixture.runner });
    const options = { runner: fixture.runner, namespace: 'acme' };
    enableIdempotency(server, options);
    enableIdempotency(server, options);
    expect(() => enableIdempotency(server, { runner: fixture.runner })).toThrow(/already has idempotency enabled/);
  });

  it('refuses a contradictory policy in the options', async () => {
    const bad = { create_refund: { side_effects: 'money_out', idempotent: false, retry: 'safe' } } as never;
    const { McpServer: Server } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    expect(() => enableIdempotency(new Server({ name: 'x', version: '1' }), { runner: fixture.runner, policies: bad })).toThrow(/not safely repeatable/);
  });
});

describe('enableIdempotency: how keys are scoped', () => {
  it('scopes to the tenant namespace: the same client and key in two tenants are two calls', async () => {
    const http = await serve((server) => registerPlainRefund(server, ledger.url), { namespace: (extra) => String(extra.requestInfo?.headers['x-tenant']) });
    const key = freshKey();
    const effects = ledger.effects().length;
    await keyedCall(http.url, key, { 'x-tenant': 'acme' });
    expect(await keyedCall(http.url, key, { 'x-tenant': 'globex' })).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': false } });
    expect(await keyedCall(http.url, key, { 'x-tenant': 'acme' })).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': true } });
    expect(ledger.effects().length - effects).toBe(2);
  });

  it('scopes to the Streamable HTTP session when nobody is authenticated: another session is another client', async () => {
    const http = await startHttpMcp({
      mode: 'stateful',
      build: (server) => {
        enableIdempotency(server, { runner: fixture.runner });
        registerPlainRefund(server, ledger.url);
      },
    });
    cleanups.push(() => http.close());
    const session = async () => {
      const client = new Client({ name: 'agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      cleanups.push(() => client.close());
      return client;
    };
    const [first, second] = [await session(), await session()];
    const key = freshKey();
    const call = (client: Client) => client.callTool({ name: 'create_refund', arguments: args, _meta: { 'io.github.retrysafe/idempotencyKey': key } });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on('warning', onWarning);
    const effects = ledger.effects().length;
    try {
      await call(first);
      expect(await call(second)).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': false } });
      expect(await call(first)).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': true } });
      await new Promise((resolve) => setImmediate(resolve)); // emitWarning delivers on the next tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(ledger.effects().length - effects).toBe(2);
    // Said once, with what to do about it.
    expect(warnings.filter((warning) => (warning as { code?: string }).code === 'RETRYSAFE_MCP_SESSION_SCOPE')).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/scoped to that session.*Authenticate the clients.*or set `scope`/s) }),
    ]);
  });

  /** A stateful Streamable HTTP server behind the SDK's bearer-auth middleware (unless `tokens` is null), with a retrysafe and a plain refund. */
  async function statefulWithAuth(idempotency: Partial<IdempotencyOptions> = {}, tokens: HttpMcpOptions['tokens'] | null = { 'token-a': 'client-a', 'token-b': 'client-b' }) {
    const http = await startHttpMcp({
      mode: 'stateful',
      json: true,
      ...(tokens === null ? {} : { tokens }),
      build: (server) => {
        enableIdempotency(server, { runner: fixture.runner, ...idempotency });
        registerRetrysafeTool(server, ledgerRefundTool(ledger.url), { runner: fixture.runner });
        registerPlainRefund(server, ledger.url);
      },
    });
    cleanups.push(() => http.close());
    return http;
  }

  /** A new `Client` on a new Streamable HTTP session: what an agent restarted from scratch makes. */
  async function newSession(url: string, headers: Record<string, string>) {
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    cleanups.push(() => client.close());
    return client;
  }
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('scopes to the authenticated principal, not the session: the same run from a restarted agent (a new session) replays, one refund', async () => {
    const http = await statefulWithAuth();
    const run = await fixture.jobRun();
    const refund = { name: 'issue_refund', arguments: { orderId: 'o_20', amountCents: 300 } };
    const effects = ledger.effects().length;
    const before = await newSession(http.url, bearer('token-a'));
    const first = await retrysafeClient(before, { run, trust: 'trusted' }).callTool(refund);
    await before.close(); // the agent process exits ...
    const after = await newSession(http.url, bearer('token-a')); // ... and its successor connects again
    expect(after.transport?.sessionId).not.toBe(before.transport?.sessionId);
    const again = await retrysafeClient(after, { run, trust: 'trusted' }).callTool(refund);
    expect(first).toMatchObject({ status: 'ok', replayed: false });
    expect(again).toMatchObject({ status: 'ok', replayed: true, key: first.key });
    expect(again.status === 'ok' && again.result.structuredContent).toEqual({ result: first.status === 'ok' && (first.result.structuredContent as { result: unknown }).result, replayed: true });
    // The plain tool behind enableIdempotency, raw keys from two sessions: one refund too.
    const key = freshKey();
    const raw = (client: Client) => client.callTool({ name: 'create_refund', arguments: args, _meta: { 'io.github.retrysafe/idempotencyKey': key } });
    expect(await raw(after)).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': false } });
    expect(await raw(await newSession(http.url, bearer('token-a')))).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': true } });
    expect(ledger.effects().length - effects).toBe(2);
  });

  it('isolates principals: the same run and key from another OAuth client, or another user of the same client, is another refund', async () => {
    const tokens = { 'token-a': 'client-a', 'token-b': 'client-b', 'token-a-ann': { clientId: 'client-a', sub: 'ann' }, 'token-a-bob': { clientId: 'client-a', sub: 'bob' } };
    const http = await statefulWithAuth({}, tokens);
    const run = await fixture.jobRun();
    const refund = { name: 'issue_refund', arguments: { orderId: 'o_21', amountCents: 300 } };
    const callAs = async (token: string) => retrysafeClient(await newSession(http.url, bearer(token)), { run, trust: 'trusted' }).callTool(refund);
    const effects = ledger.effects().length;
    const reports = [];
    for (const token of ['token-a', 'token-b', 'token-a-ann', 'token-a-bob', 'token-b', 'token-a-ann']) reports.push(await callAs(token));
    expect(reports.map((report) => report.status === 'ok' && report.replayed)).toEqual([false, false, false, false, true, true]);
    expect(new Set(reports.map((report) => report.key)).size).toBe(1); // one key on the wire, four principals
    expect(ledger.effects().length - effects).toBe(4);
    const providerKeys = ledger.requests().slice(-4);
    expect(new Set(providerKeys).size).toBe(4);
  });

  it('takes a scope from a header a gateway sets (headerScope): sessions of one user replay, other users are isolated, none is refused', async () => {
    const http = await statefulWithAuth({ scope: headerScope('X-User-Id') }, null);
    const key = freshKey();
    const raw = async (headers: Record<string, string>) =>
      (await newSession(http.url, headers)).callTool({ name: 'create_refund', arguments: args, _meta: { 'io.github.retrysafe/idempotencyKey': key } });
    const effects = ledger.effects().length;
    expect(await raw({ 'x-user-id': 'u-1' })).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': false } });
    expect(await raw({ 'x-user-id': 'u-1' })).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': true } });
    expect(await raw({ 'x-user-id': 'u-2' })).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': false } });
    await expect(raw({})).rejects.toMatchObject({ code: -32603, data: { type: 'idempotency_key_unscoped' } });
    expect(ledger.effects().length - effects).toBe(2);
  });
});

describe('enableIdempotency: calls without a key', () => {
  it('runs an unkeyed call of a with_key plain tool once per request by default, as a plain MCP server would', async () => {
    const http = await serve((server) => registerPlainRefund(server, ledger.url));
    const effects = ledger.effects().length;
    for (let i = 0; i < 2; i += 1) {
      const { body } = await postJsonRpc(http.url, 'tools/call', { name: 'create_refund', arguments: args }, { authorization: 'Bearer token-a' });
      expect(body['result']).not.toHaveProperty('isError');
    }
    expect(ledger.effects().length - effects).toBe(2);
  });

  it('with requireKeys refuses an unkeyed call of every with_key tool, plain or retrysafe, and runs nothing; other tools and keyed calls run', async () => {
    const reads = { count: 0 };
    const http = await serve(
      (server) => {
        registerPlainRefund(server, ledger.url);
        // With a run for unkeyed calls, which requireKeys overrules.
        registerRetrysafeTool(server, ledgerRefundTool(ledger.url), { runner: fixture.runner, run: { id: vouchDurable('job-unkeyed') } });
        registerPlainRead(server, reads);
      },
      { requireKeys: true },
    );
    const requests = ledger.requests().length;
    for (const name of ['create_refund', 'issue_refund']) {
      const { body } = await postJsonRpc(http.url, 'tools/call', { name, arguments: args }, { authorization: 'Bearer token-a' });
      expect(body['result']).toEqual({
        content: [{ type: 'text', text: `${name} did not run: it needs an idempotency key to be safe to call again. Send one in _meta["io.github.retrysafe/idempotencyKey"] (the same on every re-send of this call).` }],
        isError: true,
        _meta: { 'io.github.retrysafe/error': { name: 'IdempotencyKeyRequiredError' } },
      });
    }
    expect(ledger.requests().length).toBe(requests);
    await postJsonRpc(http.url, 'tools/call', { name: 'get_order', arguments: { orderId: 'o_1' } }, { authorization: 'Bearer token-a' });
    expect(reads.count).toBe(1);
    const key = freshKey();
    expect(await keyedCall(http.url, key)).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': false } });
    expect(await keyedCall(http.url, key)).toMatchObject({ _meta: { 'io.github.retrysafe/replayed': true } });
    expect(ledger.requests().length - requests).toBe(1);
  });
});
