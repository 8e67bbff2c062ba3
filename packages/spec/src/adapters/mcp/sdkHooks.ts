/**
 * The two places the MCP guard reaches into the MCP TypeScript SDK 1.x beyond its public API,
 * kept here so that a change in the SDK has one file to look at. Both are checked, and a missing
 * one is a `TypeError` naming the supported versions rather than a silent loss of deduplication.
 *
 * - The request-handler table of the protocol (`server.server._requestHandlers`): McpServer turns
 *   a tool handler's throw into an `isError` result, and the SDK's schema parse drops request
 *   parameters it does not know (SEP-3182's `params.idempotencyKey`), so the guard sits in front of
 *   the `tools/call` entry, where it sees the raw request and can answer with a JSON-RPC error.
 * - The registered tools (`server._registeredTools`), to read a plain tool's `_meta`, annotations
 *   and `declarePolicy`.
 *
 * @module
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** What the MCP SDK passes a tool handler (and the guard) besides the arguments. */
export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** @internal A request handler as the protocol's table holds it: the raw request in, the result out. */
export type RawHandler = (request: { method: string; params?: unknown }, extra: McpRequestExtra) => Promise<unknown>;

/** @internal What sits in front of the SDK's `tools/call` handler (`next`). */
export type Guard = (request: { method: string; params?: unknown }, extra: McpRequestExtra, next: RawHandler) => Promise<unknown>;

/**
 * @internal Puts `guard` in front of the server's `tools/call` handler: now, if McpServer has
 * installed it, and again whenever a handler is (re)installed (McpServer installs it with its
 * first tool).
 *
 * @throws TypeError if the SDK keeps its handlers or its tools elsewhere than 1.x does.
 */
export function interpose(server: McpServer, guard: Guard): void {
  const protocol = server.server as unknown as { _requestHandlers?: unknown; setRequestHandler: (...args: unknown[]) => unknown };
  const table = protocol._requestHandlers;
  const tools = (server as unknown as { _registeredTools?: unknown })._registeredTools;
  if (!(table instanceof Map) || typeof tools !== 'object' || tools === null) {
    throw new TypeError('enableIdempotency: this @modelcontextprotocol/sdk keeps its request handlers elsewhere than 1.x does; retrysafe supports @modelcontextprotocol/sdk 1.20 to 1.x.');
  }
  const handlers = table as Map<string, RawHandler>;
  const ours = new WeakSet<RawHandler>();
  const wrap = () => {
    const current = handlers.get('tools/call');
    if (current === undefined || ours.has(current)) return;
    const guarded: RawHandler = (request, extra) => guard(request, extra, current);
    ours.add(guarded);
    handlers.set('tools/call', guarded);
  };
  wrap();
  const setRequestHandler = protocol.setRequestHandler;
  protocol.setRequestHandler = function patched(this: unknown, ...args: unknown[]) {
    const result = setRequestHandler.apply(this, args);
    wrap();
    return result;
  };
}

/** @internal The tool registered under `name`, or `undefined`. */
export function registeredTool(server: McpServer, name: string): RegisteredTool | undefined {
  const tools = (server as unknown as { _registeredTools?: Record<string, RegisteredTool> })._registeredTools;
  return tools !== undefined && Object.hasOwn(tools, name) ? tools[name] : undefined;
}
