/**
 * A client that retries by the declared policy, for the MCP TypeScript SDK's `Client`.
 *
 * ```ts
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import { retrysafeClient } from '@retrysafe/spec/adapters/mcp';
 *
 * const client = new Client({ name: 'agent', version: '1.0.0' });
 * await client.connect(transport);
 * const mcp = retrysafeClient(client, { run, trust: 'trusted' });
 * const report = await mcp.callTool({ name: 'issue_refund', arguments: { orderId: 'o_1', amountCents: 500 } });
 * // { status: 'ok', result, replayed, attempts, key, resends } or { status: 'escalated', decision, ... }
 * ```
 *
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  callByPolicy,
  keyOf,
  policyView,
  type RetrysafeCallOptions,
  type RetrysafeCallReport,
  type RetrysafeClientOptions,
  type ToolPolicyView,
  type WireConnection,
} from './clientCore.js';
import { CALL_ID_META, IDEMPOTENCY_EXTENSION, IDEMPOTENCY_KEY_META, SEP_3182_KEY_PARAM } from './wire.js';

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
} from './clientCore.js';

/** Options for {@link retrysafeClient}. */
export interface McpClientOptions extends RetrysafeClientOptions {
  /**
   * A fresh transport when the connection is gone, for stdio: the server process exited, so the
   * client starts a new one and re-sends ("If the server process exits unexpectedly, the client
   * SHOULD restart it ... any in-flight requests are simply lost and the client can retry them
   * against the fresh process", MCP 2026-07-28, basic/transports/stdio). Without it, a closed
   * connection is the SDK's own error.
   */
  readonly reconnect?: () => Transport | PromiseLike<Transport>;
}

/** A listed tool with the policy the client acts on. */
export type ToolWithPolicy = Tool & { readonly retrysafe: ToolPolicyView };

/** See {@link retrysafeClient}. */
export interface RetrysafeMcpClient {
  /** The SDK client underneath. */
  readonly client: Client;
  /** `tools/list` (every page), each tool with the policy the client acts on; refreshes the cache. */
  listTools(): Promise<ToolWithPolicy[]>;
  /**
   * Calls a tool with a key that is the same on every re-send and acts on its policy; see
   * {@link retrysafeClient}. Resolves with the report, never rejects for a failed call.
   */
  callTool(params: { readonly name: string; readonly arguments?: Record<string, unknown> }, options?: RetrysafeCallOptions): Promise<RetrysafeCallReport<CallToolResult>>;
}

/**
 * Wraps a connected SDK `Client` so that every `tools/call` carries an idempotency key and a
 * call whose answer was lost is re-sent only when the tool's policy allows it.
 *
 * - The key: `callKey(run, tool, arguments)` (`c1:<run id>:<tool>:<sha256 of the canonical
 *   arguments>`), or the call's own `idempotencyKey`; sent in
 *   `_meta["io.github.retrysafe/idempotencyKey"]`, and as SEP-3182's `params.idempotencyKey` to a
 *   server that advertises idempotency. The client sends the same key on every re-send, and, with
 *   a durable `run` (`openRun`), after a resume, a redelivery or a restart of the agent: never the
 *   JSON-RPC id, which MCP 2026-07-28 makes new on every re-issue.
 * - What the server makes of the same key is its scope (`enableIdempotency`'s `scope`), which the
 *   client neither chooses nor sees. A re-send by this wrapper goes over the same connection (on
 *   stdio, to the restarted process: the one local user) and is recognised. A call from a new
 *   `Client` (the agent restarted, a new Streamable HTTP session) with the same key replays only
 *   on a server that scopes keys to something the restart keeps: the authenticated principal
 *   (`authInfo`, the server's default when it authenticates its clients: send the same token) or
 *   a `scope` its operator set. An unauthenticated Streamable HTTP server scopes by session by
 *   default, and runs the new session's call as new work.
 * - The policy: yours (`policies`), else a trusted server's published one
 *   (`_meta["io.github.retrysafe/policy"]`, the bare `_meta.retrysafe`, else the annotations),
 *   else not safely repeatable. An untrusted server's claims are shown (`published`) and not acted
 *   on, as MCP asks of annotations from untrusted servers.
 * - A lost answer (connection reset or closed, no answer within `attemptTimeoutMs`): re-sent with
 *   the same key when the tool is `with_key` / `safe_with_same_key` and the server deduplicates
 *   (its capability, believed only from a trusted server or for a tool whose policy you declared):
 *   the re-send learns what the first request did and cannot run it twice; up to `maxResends`
 *   times, counted as no attempt. A naturally idempotent tool is retried up to `max_attempts`.
 *   Anything else (`retry: 'never'`, no dedup on the server, an untrusted server's tool) is
 *   escalated, never re-sent. A stdio server that died is restarted first (`reconnect`).
 * - In progress (SEP-3182 `idempotency_key_in_progress`): waits the server's `retryAfterMs` (at
 *   most `maxDelayMs`) and re-sends; a conflict escalates; a tool's `isError` result is retried,
 *   refused or escalated by `decideRetry` under the policy.
 * - `replayed`: `true` when the server returned the stored result of an earlier request with the
 *   key (`_meta["io.github.retrysafe/replayed"]`).
 *
 * @param client - a connected `Client` (`@modelcontextprotocol/sdk/client/index.js`).
 * @param options - see {@link McpClientOptions}; `run` or a per-call `idempotencyKey` is needed.
 * @returns the wrapper; the client is used, not copied.
 */
export function retrysafeClient(client: Client, options: McpClientOptions = {}): RetrysafeMcpClient {
  const views = new Map<string, ToolPolicyView>();
  const listTools = async (): Promise<ToolWithPolicy[]> => {
    await ensureConnected(client, options);
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    views.clear();
    return tools.map((tool) => {
      const view = policyView(tool, options);
      views.set(tool.name, view);
      return { ...tool, retrysafe: view };
    });
  };
  const wire: WireConnection<CallToolResult> = {
    async send(name, args, key, { timeoutMs, callId }) {
      await ensureConnected(client, options);
      const params = { name, arguments: args, _meta: { [IDEMPOTENCY_KEY_META]: key, [CALL_ID_META]: callId }, ...(deduplicates(client) ? { [SEP_3182_KEY_PARAM]: key } : {}) };
      return (await client.callTool(params, undefined, { timeout: timeoutMs })) as CallToolResult;
    },
    isLost,
    deduplicates: () => deduplicates(client),
  };
  return {
    client,
    listTools,
    async callTool({ name, arguments: args = {} }, call = {}) {
      if (!views.has(name)) await listTools();
      const view = views.get(name) ?? policyView({ name }, options);
      return callByPolicy(wire, name, args, await keyOf(name, args, options, call), view, options);
    },
  };
}

async function ensureConnected(client: Client, options: McpClientOptions): Promise<void> {
  if (client.transport !== undefined || options.reconnect === undefined) return;
  await client.connect(await options.reconnect());
}

function deduplicates(client: Client): boolean {
  const capabilities = client.getServerCapabilities() as { extensions?: Record<string, unknown>; tools?: { idempotency?: unknown } } | undefined;
  return capabilities?.extensions?.[IDEMPOTENCY_EXTENSION] !== undefined || capabilities?.tools?.idempotency !== undefined;
}

// The SDK's own "no answer" errors (ConnectionClosed -32000, RequestTimeout -32001), an HTTP
// failure of the transport (fetch rejected; a 5xx or a non-MCP body from something in between)
// are lost answers; a JSON-RPC error from the server is an answer.
function isLost(error: unknown): boolean {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  if (name === 'McpError') return code === -32000 || code === -32001;
  if (typeof code === 'number' && code >= 400 && code < 500) return false;
  return true;
}
