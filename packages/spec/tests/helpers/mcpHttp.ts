/**
 * Real MCP over Streamable HTTP on 127.0.0.1 for the wire tests: an `McpServer` behind the SDK's
 * `StreamableHTTPServerTransport` on a node:http server, and a proxy in front of it that can lose
 * an answer after the server has produced it (the server ran the tool; the client never hears).
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';

export interface HttpMcp {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  close(): Promise<void>;
}

export interface HttpMcpOptions {
  /** Registers the tools (and `enableIdempotency`) on each new server. */
  readonly build: (server: McpServer) => void;
  /**
   * `stateless` (default): a new server and transport per request, no session (the shape MCP
   * 2026-07-28 asks for). `stateful`: one server per `Mcp-Session-Id`.
   */
  readonly mode?: 'stateless' | 'stateful';
  /** Answer with one JSON object instead of an SSE stream. */
  readonly json?: boolean;
  /**
   * Bearer tokens the server accepts, each naming its OAuth client (`authInfo.clientId`), and the
   * user (`authInfo.extra.sub`) when given; checked by the SDK's own `requireBearerAuth`
   * middleware, which puts the `AuthInfo` on `req.auth` for the transport to pass as `extra.authInfo`.
   */
  readonly tokens?: Readonly<Record<string, string | { readonly clientId: string; readonly sub: string }>>;
}

export async function startHttpMcp(options: HttpMcpOptions): Promise<HttpMcp> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const bearer = options.tokens === undefined ? undefined : bearerAuth(options.tokens);
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (bearer !== undefined && !(await authenticated(bearer, req, res))) return;
    const parsed = JSON.parse(await read(req)) as unknown;
    if (options.mode === 'stateful') return stateful(req, res, parsed);
    const mcp = new McpServer({ name: 'payments', version: '1.0.0' });
    options.build(mcp);
    // No sessionIdGenerator: stateless, as the SDK documents it.
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: options.json === true });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, parsed);
  }
  async function stateful(req: IncomingMessage, res: ServerResponse, parsed: unknown) {
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (transport === undefined) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: options.json === true,
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport as StreamableHTTPServerTransport),
      });
      const mcp = new McpServer({ name: 'payments', version: '1.0.0' });
      options.build(mcp);
      await mcp.connect(transport);
    }
    await transport.handleRequest(req, res, parsed);
  }
  const url = await listen(server);
  return {
    url: `${url}/mcp`,
    close: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      await stop(server);
    },
  };
}

/** A `tools/call` body as the proxy saw it. */
export interface SeenCall {
  readonly id: unknown;
  readonly name: string;
  readonly params: Record<string, unknown>;
}

export interface DroppingProxy {
  /** The proxy's MCP endpoint. */
  readonly url: string;
  /** Every `tools/call` forwarded, in order. */
  calls(): SeenCall[];
  /** Lose the answers to the next `count` `tools/call` requests (default 1). */
  dropNext(count?: number): void;
  close(): Promise<void>;
}

/**
 * Forwards every request to `upstream` and reads the whole upstream answer; for a `tools/call`
 * marked by `dropNext`, it then destroys the client's connection instead of answering: the tool
 * ran, its answer is lost.
 */
export async function startDroppingProxy(upstream: string): Promise<DroppingProxy> {
  const seen: SeenCall[] = [];
  let drops = 0;
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    void read(req).then((text) => {
      const message = text === '' ? undefined : (JSON.parse(text) as { id?: unknown; method?: string; params?: Record<string, unknown> });
      const isCall = message?.method === 'tools/call';
      if (isCall) seen.push({ id: message?.id, name: String(message?.params?.['name']), params: message?.params ?? {} });
      const drop = isCall && drops > 0;
      if (drop) drops -= 1;
      const forward = httpRequest(
        { host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers: { ...req.headers, host: target.host } },
        (upstreamRes) => {
          if (!drop) {
            res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
            return void upstreamRes.pipe(res);
          }
          // Read the whole answer (the server has finished the call), then never deliver it.
          upstreamRes.resume();
          upstreamRes.on('end', () => req.socket.destroy());
        },
      );
      forward.on('error', () => req.socket.destroy());
      forward.end(text);
    });
  });
  const url = await listen(server);
  return {
    url: `${url}${target.pathname}`,
    calls: () => [...seen],
    dropNext: (count = 1) => void (drops += count),
    close: () => stop(server),
  };
}

/** One raw JSON-RPC request over Streamable HTTP, JSON both ways (the server answers with JSON). */
export async function postJsonRpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ readonly status: number; readonly body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: (rpcIds += 1), method, params }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

let rpcIds = 0;

type Middleware = ReturnType<typeof requireBearerAuth>;

// The SDK's bearer-auth middleware over a verifier that knows `tokens`.
function bearerAuth(tokens: NonNullable<HttpMcpOptions['tokens']>): Middleware {
  return requireBearerAuth({
    verifier: {
      async verifyAccessToken(token: string): Promise<AuthInfo> {
        const known = Object.hasOwn(tokens, token) ? tokens[token] : undefined;
        if (known === undefined) throw new InvalidTokenError('Unknown token');
        const { clientId, sub } = typeof known === 'string' ? { clientId: known, sub: undefined } : known;
        return { token, clientId, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600, ...(sub === undefined ? {} : { extra: { sub } }) };
      },
    },
  });
}

// Runs the Express-style middleware on node:http: it sets `req.auth` and calls `next`, or answers
// through `res.set/status/json`, given here over the plain response.
function authenticated(middleware: Middleware, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const reply = Object.assign(res, {
    set: (name: string, value: string) => (res.setHeader(name, value), reply),
    status: (code: number) => ((res.statusCode = code), reply),
    json: (body: unknown) => (res.setHeader('content-type', 'application/json'), res.end(JSON.stringify(body)), reply),
  });
  return new Promise((resolve, reject) => {
    Promise.resolve(middleware(req as never, reply as never, () => resolve(true)))
      .then(() => res.writableEnded && resolve(false))
      .catch(reject);
  });
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
