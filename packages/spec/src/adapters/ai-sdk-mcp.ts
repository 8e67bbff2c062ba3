/**
 * `@retrysafe/spec/adapters/ai-sdk-mcp`: a client that retries by the declared policy, for
 * `@ai-sdk/mcp`'s `createMCPClient` (2.x). Its own `maxRetries` is one client-wide number, off by
 * default, that re-sends any tool call on a 5xx or a reset whatever the tool does; this wrapper
 * gives every call an idempotency key and re-sends only what the tool's policy allows.
 *
 * ```ts
 * import { createMCPClient } from '@ai-sdk/mcp';
 * import { retrysafeMcpClient, retrysafeTransport } from '@retrysafe/spec/adapters/ai-sdk-mcp';
 *
 * const mcp = retrysafeMcpClient(
 *   await createMCPClient({ transport: retrysafeTransport({ type: 'http', url }) }),
 *   { run, trust: 'trusted' },
 * );
 * const { text } = await generateText({ model, tools: await mcp.tools(), prompt });
 * ```
 *
 * `@ai-sdk/mcp`'s `callTool` sends only a name and arguments, so the key reaches the request
 * through the transport: `retrysafeTransport` wraps an HTTP/SSE transport config (through its
 * `fetch`) or a transport object (through its `send`) and adds the key of the call in progress.
 * The adapter imports nothing from `@ai-sdk/mcp` at run time.
 *
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallToolResult as AiSdkCallToolResult, MCPClient, MCPClientConfig, MCPTransport } from '@ai-sdk/mcp';
import { describeFailure } from '../loop/failureText.js';
import type { RunContext } from '../run.js';
import {
  callByPolicy,
  keyOf,
  MisconfiguredClientError,
  policyView,
  type RetrysafeCallOptions,
  type RetrysafeCallReport,
  type RetrysafeClientOptions,
  type ToolPolicyView,
  type WireConnection,
} from './mcp/clientCore.js';
import { CALL_ID_META, ERROR_META, IDEMPOTENCY_EXTENSION, IDEMPOTENCY_KEY_META, SEP_3182_KEY_PARAM } from './mcp/wire.js';
import { checkRun } from './shared.js';

export {
  AnswerLostError,
  McpRequestError,
  McpToolError,
  type PolicySource,
  type RetrysafeCallOptions,
  type RetrysafeCallReport,
  type RetrysafeClientOptions,
  type ServerTrust,
  type ToolPolicyView,
} from './mcp/clientCore.js';

/** `@ai-sdk/mcp`'s `CallToolResult` without the 2024-10-07 `toolResult` form, which current servers do not send. */
export type CallToolResult = Extract<AiSdkCallToolResult, { content: unknown }>;

/** The call the transport is sending for, set around `client.callTool`. */
interface PendingCall {
  readonly name: string;
  readonly key: string;
  readonly callId: string;
  readonly sepParam: boolean;
  /** Set by the transport once it has put the key on the request. */
  sent: boolean;
}

const pendingCall = new AsyncLocalStorage<PendingCall>();

type TransportOption = MCPClientConfig['transport'];

/**
 * Wraps an `@ai-sdk/mcp` transport so that each `tools/call` made through
 * {@link retrysafeMcpClient} carries its idempotency key: `_meta["io.github.retrysafe/idempotencyKey"]`,
 * and SEP-3182's `params.idempotencyKey` for a server that advertises idempotency. A config
 * (`{ type: 'http' | 'sse', url, ... }`) gets a `fetch` that rewrites the request body; a
 * transport object (`new StdioMCPTransport(...)`, or any `MCPTransport`) gets a `send` that
 * rewrites the message. Everything else passes through unchanged.
 *
 * @returns a transport of the same kind, for `createMCPClient({ transport })`.
 */
export function retrysafeTransport<T extends TransportOption>(transport: T): T {
  if (typeof (transport as { send?: unknown }).send === 'function') {
    const inner = transport as MCPTransport;
    const send: MCPTransport['send'] = (message, options) => inner.send(withKey(message) as typeof message, options);
    // A proxy, not a copy: the client sets onmessage/onclose/onerror on what it was given.
    return new Proxy(inner, { get: (target, property) => (property === 'send' ? send : bound(target, property)) }) as T;
  }
  const config = transport as Extract<TransportOption, { url: string }>;
  const fetchFn = config.fetch ?? globalThis.fetch;
  const keyedFetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (typeof init?.body !== 'string' || pendingCall.getStore() === undefined) return fetchFn(input, init);
    return fetchFn(input, { ...init, body: JSON.stringify(withKey(JSON.parse(init.body) as unknown)) });
  }) as typeof fetch;
  return { ...config, fetch: keyedFetch } as T;
}

function bound(target: object, property: string | symbol): unknown {
  const value: unknown = Reflect.get(target, property, target);
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}

function withKey(message: unknown): unknown {
  const call = pendingCall.getStore();
  const { method, params } = (message ?? {}) as { method?: unknown; params?: { name?: unknown; _meta?: Record<string, unknown> } };
  if (call === undefined || method !== 'tools/call' || params?.name !== call.name) return message;
  call.sent = true;
  const keyed = { ...params, _meta: { ...params._meta, [IDEMPOTENCY_KEY_META]: call.key, [CALL_ID_META]: call.callId }, ...(call.sepParam ? { [SEP_3182_KEY_PARAM]: call.key } : {}) };
  return { ...(message as object), params: keyed };
}

/** Options for {@link retrysafeMcpClient}. */
export interface AiSdkMcpClientOptions extends RetrysafeClientOptions {
  /**
   * A new client when the connection is gone (a stdio server process that exited): the wrapper
   * closes the old one and re-sends through the new one, as MCP 2026-07-28 allows ("the client can
   * retry them against the fresh process"). Create it with a `retrysafeTransport` too.
   */
  readonly reconnect?: () => Promise<MCPClient>;
}

/** A listed tool with the policy the client acts on. */
export type AiSdkToolWithPolicy = Awaited<ReturnType<MCPClient['listTools']>>['tools'][number] & { readonly retrysafe: ToolPolicyView };

/** Where an AI SDK tool call's run comes from in {@link RetrysafeAiSdkMcpClient.tools}. */
export type AiSdkToolRun = RunContext | ((options: { readonly toolCallId?: string; readonly context?: unknown }) => RunContext | PromiseLike<RunContext>);

/** See {@link retrysafeMcpClient}. */
export interface RetrysafeAiSdkMcpClient {
  /** The `@ai-sdk/mcp` client in use (a new one after a `reconnect`). */
  readonly client: MCPClient;
  /** `tools/list` (every page), each tool with the policy the client acts on. */
  listTools(): Promise<AiSdkToolWithPolicy[]>;
  /** Calls a tool with a key that is the same on every re-send, acting on its policy; never rejects for a failed call. */
  callTool(params: { readonly name: string; readonly arguments?: Record<string, unknown> }, options?: RetrysafeCallOptions): Promise<RetrysafeCallReport<CallToolResult>>;
  /**
   * The server's tools as AI SDK tools (`client.toolsFromDefinitions`), each `execute` going
   * through {@link callTool}: the model gets the tool's result (a replay says so in its content)
   * or, when the call was refused or escalated, an `isError` result saying what happened to the
   * effect and whether to call again (`describeFailure`). `run`: the call's durable run, or a
   * function of the AI SDK's execute options (its `context`, say; never the tool-call id: a run
   * id that contains it is refused).
   */
  tools(options?: { readonly run?: AiSdkToolRun }): Promise<Awaited<ReturnType<MCPClient['tools']>>>;
  close(): Promise<void>;
}

/**
 * Wraps an `@ai-sdk/mcp` client (`createMCPClient`, with a {@link retrysafeTransport}) so that
 * every `tools/call` carries an idempotency key and a lost answer is re-sent only as the tool's
 * policy allows, with the same behaviour as `retrysafeClient` for the MCP SDK's `Client` (see
 * there): `callKey(run, tool, arguments)` keys, trust, re-sends, waits on a call in progress,
 * `decideRetry`, `replayed`. Leave the client's own `maxRetries` at 0: it would re-send without
 * regard to the policy.
 *
 * @param client - from `createMCPClient({ transport: retrysafeTransport(...) })`.
 * @param options - see {@link AiSdkMcpClientOptions}.
 * @throws TypeError from a call, if the client's transport was not wrapped with
 *   {@link retrysafeTransport} (the key would never reach the server).
 */
export function retrysafeMcpClient(client: MCPClient, options: AiSdkMcpClientOptions = {}): RetrysafeAiSdkMcpClient {
  const connection = connect(client, options);
  const callTool: RetrysafeAiSdkMcpClient['callTool'] = async ({ name, arguments: args = {} }, call = {}) => {
    if (!connection.views.has(name)) await connection.listAll();
    const view = connection.views.get(name) ?? policyView({ name }, options);
    return callByPolicy(connection.wire, name, args, await keyOf(name, args, options, call), view, options);
  };
  return {
    get client() {
      return connection.current();
    },
    listTools: async () => {
      const { tools } = await connection.listAll();
      return tools.map((tool) => ({ ...tool, retrysafe: connection.views.get(tool.name) as ToolPolicyView }));
    },
    callTool,
    async tools(toolOptions = {}) {
      const tools = connection.current().toolsFromDefinitions(await connection.listAll());
      for (const [name, tool] of Object.entries(tools)) {
        const execute = async (args: unknown, executeOptions: { toolCallId?: string; context?: unknown } = {}) => {
          const run = await runOf(toolOptions.run, executeOptions);
          const report = await callTool({ name, arguments: args as Record<string, unknown> }, run === undefined ? {} : { run });
          return report.status === 'ok' ? report.result : failedResult(name, report);
        };
        tools[name] = { ...tool, execute } as typeof tool;
      }
      return tools;
    },
    close: () => connection.current().close(),
  };
}

// The client in use (a new one after the old one's connection closed and `reconnect` made
// another), its tools' policies, and the wire the policy loop sends through.
function connect(client: MCPClient, options: AiSdkMcpClientOptions) {
  let current = client;
  let closed = false;
  const views = new Map<string, ToolPolicyView>();
  const ensureConnected = async () => {
    if (!closed || options.reconnect === undefined) return;
    await current.close().catch(() => {});
    current = await options.reconnect();
    closed = false;
  };
  const deduplicates = () => {
    const capabilities = current.initializeResult?.capabilities as { extensions?: Record<string, unknown>; tools?: { idempotency?: unknown } } | undefined;
    return capabilities?.extensions?.[IDEMPOTENCY_EXTENSION] !== undefined || capabilities?.tools?.idempotency !== undefined;
  };
  const wire: WireConnection<CallToolResult> = {
    async send(name, args, key, { timeoutMs, callId }) {
      await ensureConnected();
      const call: PendingCall = { name, key, callId, sepParam: deduplicates(), sent: false };
      let result: CallToolResult;
      try {
        result = (await pendingCall.run(call, () => current.callTool({ name, arguments: args, options: { timeout: timeoutMs } }))) as CallToolResult;
      } catch (error) {
        if (isClosed(error)) closed = true;
        if (call.sent || closed) throw error;
        throw unkeyed();
      }
      if (!call.sent) throw unkeyed();
      return result;
    },
    isLost,
    deduplicates,
  };
  const listAll = async () => {
    await ensureConnected();
    let page = await current.listTools();
    const tools = [...page.tools];
    while (page.nextCursor !== undefined) {
      page = await current.listTools({ params: { cursor: page.nextCursor } });
      tools.push(...page.tools);
    }
    views.clear();
    for (const tool of tools) views.set(tool.name, policyView(tool, options));
    return { ...page, tools };
  };
  return { wire, views, listAll, current: () => current };
}

// Not a lost answer: the request went out without its key, and a re-send would not carry one either.
const unkeyed = () =>
  new MisconfiguredClientError('retrysafeMcpClient: the tools/call went out without its idempotency key; create the client with createMCPClient({ transport: retrysafeTransport(...) }).');

async function runOf(source: AiSdkToolRun | undefined, executeOptions: { toolCallId?: string; context?: unknown }): Promise<RunContext | undefined> {
  if (source === undefined) return undefined;
  const run = typeof source === 'function' ? await source(executeOptions) : source;
  return checkRun(run, executeOptions.toolCallId, 'retrysafeMcpClient.tools');
}

function failedResult(tool: string, report: Extract<RetrysafeCallReport<CallToolResult>, { status: 'refused' | 'escalated' }>): CallToolResult {
  const text = describeFailure({ tool, error: report.error, policy: report.policy.policy, attempt: report.attempts, decision: report.decision }, { toolErrorMessages: true });
  return { content: [{ type: 'text', text }], isError: true, _meta: { [ERROR_META]: { name: errorName(report.error), attempt: report.attempts } } };
}

function errorName(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : 'Error';
}

// A JSON-RPC error from the server has a numeric `code`; a 4xx from the HTTP transport means the
// request was refused. Anything else (closed, timed out, fetch failed, a 5xx) lost the answer.
function isLost(error: unknown): boolean {
  const { code, statusCode } = (error ?? {}) as { code?: unknown; statusCode?: unknown };
  if (typeof code === 'number') return false;
  if (typeof statusCode === 'number') return statusCode >= 500;
  return true;
}

function isClosed(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /Connection closed|closed client/.test(message);
}
