/**
 * Idempotency over the MCP wire, server side: a `tools/call` that carries an idempotency key runs
 * at most once per key, and the same key again gets the first result flagged as a replay.
 *
 * `enableIdempotency(server, { runner })` puts a guard in front of the SDK's own `tools/call`
 * handler, so it covers every tool on the server, `registerRetrysafeTool` ones and those
 * registered the plain way (`server.registerTool`). Each keyed call is a guarded call
 * (`runGuarded`, the same primitive the framework guards use) keyed by the client's key behind a
 * digest of the tenant and the calling client (see {@link IdempotencyOptions.scope}), with the
 * arguments' fingerprint in the record. The SEP-3182 semantics
 * (https://github.com/modelcontextprotocol/modelcontextprotocol/pull/3182, closed unmerged): same
 * key and same arguments → the first result, never a second run; still running → a JSON-RPC error
 * with `data.type: "idempotency_key_in_progress"` and a retry hint; other arguments → one with
 * `"idempotency_key_conflict"`. A call without a key runs as it always did (unless `requireKeys`).
 *
 * @module
 */
import { hash } from 'node:crypto';
import { emitWarning } from 'node:process';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { vouchDurable } from '../../durable.js';
import { describeFailure } from '../../loop/failureText.js';
import { runGuarded, type GuardedOutcome } from '../../loop/guard.js';
import { assertValidKey, MAX_KEY_LENGTH, type DeterministicKey } from '../../key.js';
import { policyOf, toToolPolicy, type PolicyDeclaration, type PolicyInput, type ToolPolicy } from '../../policy.js';
import type { Runner } from '../../runner.js';
import { interpose, registeredTool, type McpRequestExtra, type RawHandler } from './sdkHooks.js';
import {
  ATTEMPT_META,
  CALL_ID_META,
  CONFLICT_ERROR_CODE,
  ERROR_META,
  EXECUTED_BY_META,
  IDEMPOTENCY_EXTENSION,
  IN_PROGRESS_ERROR_CODE,
  INTERNAL_ERROR_CODE,
  readPublishedPolicy,
  readRequestKey,
  REPLAYED_META,
  UNKNOWN_TOOL_POLICY,
  WireError,
  type WireErrorMeta,
} from './wire.js';

export type { McpRequestExtra } from './sdkHooks.js';

/** Options for {@link enableIdempotency}. */
export interface IdempotencyOptions {
  /** The runner whose store keeps the dedup records of keyed calls (`createRunner({ store })`). */
  readonly runner: Runner;
  /**
   * Who a call comes from: keys are scoped to it, so one principal's key never replays another's
   * result (SEP-3182, Security Implications: "Servers MUST scope their idempotency records to
   * whatever authorization boundary already governs access to the underlying tool call"; the IETF
   * Idempotency-Key draft scopes keys to the client, not the connection). Two calls with the same
   * key and the same scope are one call, whichever connection or session they came on. Return
   * `undefined` when the call cannot be told apart from other principals' calls: a keyed call is
   * then refused (`idempotency_key_unscoped`) and nothing runs.
   *
   * Default {@link defaultScope}: the authenticated principal (`extra.authInfo`, which the SDK's
   * `requireBearerAuth` middleware or your own token verifier sets: its `clientId`, and its `sub`
   * when the verifier puts one in `authInfo.extra`), so a re-send from a new session (an agent
   * restarted with a new `Client`) replays; else the Streamable HTTP session, so **without
   * authentication or a `scope` of yours there is no deduplication across reconnects** (a new
   * session is another client; the first keyed call scoped so warns once,
   * `RETRYSAFE_MCP_SESSION_SCOPE`); else, for a transport with no HTTP request behind it (stdio,
   * in-memory), the one local user.
   *
   * Your own: `(extra) => (extra.authInfo?.extra as { tenantId?: string } | undefined)?.tenantId`
   * (a tenant or user id your verifier puts in the token's info; use it when `clientId` names an
   * application rather than a person); `headerScope('x-user-id')` (a header your gateway sets
   * after authenticating the caller: a client can send any header); `() => 'local'` (a server on
   * 127.0.0.1 with one user); or compose, `(extra) => headerScope('x-user-id')(extra) ?? defaultScope(extra)`.
   */
  readonly scope?: (extra: McpRequestExtra) => string | undefined;
  /** The tenant the records belong to; default the runner's namespace. */
  readonly namespace?: string | ((extra: McpRequestExtra) => string);
  /**
   * Policies of tools registered the plain way, by tool name, in the seed's shape. A tool may
   * also carry its policy itself: `_meta: { "io.github.retrysafe/policy": policy }` in its
   * config, or `declarePolicy(registeredTool, policy)`; its annotations are read last. A tool that
   * says nothing is treated as not safely repeatable: one attempt per key.
   */
  readonly policies?: Readonly<Record<string, PolicyDeclaration>>;
  /**
   * Refuse a call without an idempotency key to a with_key tool (by the policy above), plain or
   * `registerRetrysafeTool`, with an `isError` result asking for a key
   * (`_meta["io.github.retrysafe/error"].name: "IdempotencyKeyRequiredError"`); nothing runs.
   * Default `false`: a call without a key runs as it would on a plain MCP server, once per
   * request, with no record. The key is optional in SEP-3182 and unknown to MCP clients that do
   * not speak it, so a server that refused unkeyed calls by default would stop working for every
   * such client the day it enabled idempotency. Set it when every client of the server sends keys
   * (`retrysafeClient`, `retrysafeMcpClient`) and a with_key tool must never run unkeyed.
   */
  readonly requireKeys?: boolean;
}

interface GuardState {
  options: IdempotencyOptions;
  /** Made by `registerRetrysafeTool` with only its runner: an explicit `enableIdempotency` replaces its options. */
  implicit: boolean;
  /** Tools registered with `registerRetrysafeTool`: their policy, and their `{ result, replayed }` results. */
  readonly retrysafeTools: Map<string, ToolPolicy>;
}

const guards = new WeakMap<McpServer, GuardState>();

/**
 * Makes an `McpServer` deduplicate `tools/call` requests that carry an idempotency key:
 * `_meta["io.github.retrysafe/idempotencyKey"]`, or SEP-3182's `params.idempotencyKey`.
 *
 * - Same key, same arguments (RFC 8785 canonical JSON, so key order and number spelling do not
 *   matter): the first call's result, with `_meta["io.github.retrysafe/replayed"]: true`; the
 *   tool does not run again. A failed attempt is not stored: the same key may run it again, up to
 *   the tool's `max_attempts` per key (a not-safely-repeatable tool: never), then an `isError`
 *   result says a person must check. (SEP-3182 would replay the error instead; a failure here
 *   leaves the effect undone as far as the tool can tell, and the policy bounds the retries.)
 * - Still running: JSON-RPC error 409, `data: { type: "idempotency_key_in_progress",
 *   idempotencyKey, tool, retryAfterMs }`. Nothing ran twice.
 * - Other arguments: JSON-RPC error 422, `data: { type: "idempotency_key_conflict", ... }`.
 * - A key that is not 1–255 well-formed characters: -32602 `idempotency_key_invalid`.
 * - Capabilities: `tools.idempotency: {}` (SEP-3182) and
 *   `extensions["io.github.retrysafe/idempotency"]: {}` (MCP 2026-07-28 extension negotiation).
 *
 * The effect of a started call is never cancelled by the client going away (MCP 2026-07-28
 * treats a closed response stream as cancellation): it runs to its end and is recorded, so the
 * re-sent request gets its result. Call this before `server.connect(...)` (capabilities cannot
 * change after). Tools may be registered before or after; `registerRetrysafeTool` enables it with
 * only its runner when it is not enabled yet, and a later `enableIdempotency` replaces those options.
 *
 * @param server - an `McpServer` from `@modelcontextprotocol/sdk/server/mcp.js` (1.x; tested with 1.32).
 * @param options - `{ runner, scope?, namespace?, policies? }`; see {@link IdempotencyOptions}.
 * @throws TypeError if the server is already connected, was already enabled by an earlier
 *   `enableIdempotency` with other options, a declared policy contradicts itself, or the SDK keeps
 *   its request handlers or tools elsewhere than 1.x does.
 */
export function enableIdempotency(server: McpServer, options: IdempotencyOptions): void {
  if (server.isConnected()) {
    throw new TypeError('enableIdempotency: call it before server.connect(...): the capabilities it advertises cannot change after the handshake.');
  }
  checkPolicies(options);
  const existing = guards.get(server);
  if (existing === undefined) return void install(server, options, false);
  if (existing.options === options) return;
  if (!existing.implicit) throw new TypeError('enableIdempotency: this server already has idempotency enabled; call it once per server.');
  // registerRetrysafeTool enabled it with only its runner; these options take over.
  existing.options = options;
  existing.implicit = false;
}

/**
 * @internal `enableIdempotency` for `registerRetrysafeTool`: a no-op when the server already has
 * it; after `connect` the guard still works but cannot be advertised, which is warned once.
 */
export function ensureIdempotency(server: McpServer, runner: Runner): GuardState {
  const existing = guards.get(server);
  if (existing !== undefined) return existing;
  if (server.isConnected()) {
    emitWarning('registerRetrysafeTool: the server is already connected, so its idempotency support cannot be advertised in its capabilities; call enableIdempotency(server, { runner }) before connect.', { code: 'RETRYSAFE_MCP_LATE' });
  }
  return install(server, { runner }, true);
}

function checkPolicies(options: IdempotencyOptions): void {
  for (const [name, declared] of Object.entries(options.policies ?? {})) toToolPolicy(declared as PolicyInput, `tool "${name}"`);
}

function install(server: McpServer, options: IdempotencyOptions, implicit: boolean): GuardState {
  const state: GuardState = { options, implicit, retrysafeTools: new Map() };
  guards.set(server, state);
  if (!server.isConnected()) {
    server.server.registerCapabilities({ tools: { idempotency: {} }, extensions: { [IDEMPOTENCY_EXTENSION]: {} } } as Parameters<typeof server.server.registerCapabilities>[0]);
  }
  interpose(server, (request, extra, next) => guardedCall(server, state, request, extra, next));
  return state;
}

/** @internal Records a `registerRetrysafeTool` tool with the server's guard. */
export function noteRetrysafeTool(state: GuardState, name: string, policy: ToolPolicy): void {
  state.retrysafeTools.set(name, policy);
}

async function guardedCall(server: McpServer, state: GuardState, request: { method: string; params?: unknown }, extra: McpRequestExtra, next: RawHandler): Promise<unknown> {
  const key = readRequestKey(request.params);
  const params = request.params as { name?: unknown; arguments?: unknown };
  const name = params.name;
  // An unknown or disabled tool is the SDK's to refuse; it runs nothing, so it needs no record.
  if (typeof name !== 'string' || registeredTool(server, name)?.enabled !== true) return next(request, extra);
  const { options } = state;
  if (key === undefined) {
    if (options.requireKeys === true && policyFor(server, state, name).idempotent === 'with_key') return keyRequired(name);
    return next(request, extra);
  }
  const principal = (options.scope ?? defaultScope)(extra);
  if (principal === undefined || principal === '') {
    throw new WireError(
      INTERNAL_ERROR_CODE,
      'This server cannot tell its clients apart (no authenticated client, no session), so it does not accept idempotency keys; nothing ran. Its operator sets `scope` in enableIdempotency.',
      { type: 'idempotency_key_unscoped' },
    );
  }
  if (options.scope === undefined && principal.startsWith('session:')) warnSessionScope();
  const tenant = typeof options.namespace === 'function' ? options.namespace(extra) : (options.namespace ?? options.runner.namespace);
  const policy = policyFor(server, state, name);
  const callId = readCallId(request.params);
  const outcome = await runGuarded(options.runner, {
    tool: name,
    policy,
    args: params.arguments ?? {},
    key: scopedKey(tenant, principal, key),
    // A run per client and key, so a retrysafe tool's own key (built from run.id) is the same on
    // every re-send and never the same for two clients.
    run: { id: vouchDurable(`mcp_${sha256(JSON.stringify([tenant, principal, key])).slice(0, 32)}`) },
    namespace: tenant,
    execute: async () => {
      const result = (await next(request, extra)) as CallToolResult;
      // A failed call is not stored for replay: its attempt is counted and the claim released.
      if (result.isError === true) throw new ToolResultError(name, result);
      // Which logical call ran it, stored with the result: its own re-sends get it as theirs.
      return callId === undefined ? result : { ...result, _meta: { ...result._meta, [EXECUTED_BY_META]: callId } };
    },
  });
  // A naturally idempotent tool has no record, so no attempt count of its own to report.
  const attempt = policy.idempotent === true ? undefined : outcome.attempt;
  if (outcome.ok) {
    // A re-send of the call that ran the tool (its answer was lost, or it waited while the tool
    // ran) gets that execution's result as its own: the caller did it, this call, not before.
    const own = outcome.replayed && callId !== undefined && executedBy(outcome.result) === callId;
    return answer(outcome.result, outcome.replayed && !own, attempt, state.retrysafeTools.has(name));
  }
  return failure(outcome, { key, tool: name, policy, retrysafe: state.retrysafeTools.has(name) });
}

/** @internal The `isError` result of a call that needs an idempotency key and came without one; nothing ran. */
export function keyRequired(tool: string): CallToolResult {
  const meta: WireErrorMeta = { name: 'IdempotencyKeyRequiredError' };
  return {
    content: [{ type: 'text', text: keyRequiredText(tool) }],
    isError: true,
    _meta: { [ERROR_META]: meta },
  };
}

/** @internal What a call that needs a key and came without one is told. */
export const keyRequiredText = (tool: string): string =>
  `${tool} did not run: it needs an idempotency key to be safe to call again. Send one in _meta["io.github.retrysafe/idempotencyKey"] (the same on every re-send of this call).`;

let warnedSessionScope = false;

// Once per process: the default scope fell back to the Streamable HTTP session, so the same key
// from a new session (a restarted agent, a new Client) is another call.
function warnSessionScope(): void {
  if (warnedSessionScope) return;
  warnedSessionScope = true;
  emitWarning(
    'enableIdempotency: a keyed call came unauthenticated on a Streamable HTTP session, so its key is scoped to that session: the same key from a new session (an agent restarted with a new Client) runs the tool again. Authenticate the clients (extra.authInfo, e.g. requireBearerAuth) or set `scope` (docs/mcp.md, "How keys are scoped").',
    { code: 'RETRYSAFE_MCP_SESSION_SCOPE' },
  );
}

/**
 * The record's key: the client's key behind a digest of the tenant and the client, so that two
 * clients' equal keys are two records, and a tool that passes its key downstream (`currentCall()`)
 * never hands a provider another client's key. `m1:<96-bit digest>:<key>`, or
 * `m1:<digest>:h:<sha256 of the key>` when that would pass 255 characters.
 */
function scopedKey(tenant: string, principal: string, key: string): DeterministicKey {
  const scope = sha256(JSON.stringify([tenant, principal])).slice(0, 24);
  const readable = `m1:${scope}:${key}`;
  // The client vouches for its key: the same key is its promise that this is the same call.
  return assertValidKey(vouchDurable(readable.length <= MAX_KEY_LENGTH ? readable : `m1:${scope}:h:${sha256(key)}`));
}

const sha256 = (text: string): string => hash('sha256', text, 'hex');

/**
 * The default {@link IdempotencyOptions.scope}, first match:
 *
 * - `JSON.stringify(["oauth", clientId, sub])` for an authenticated call (`extra.authInfo`, as the
 *   SDK's `requireBearerAuth` middleware sets it from `req.auth`; `sub` from `authInfo.extra.sub`
 *   when the token verifier sets it, else `null`): the same for every session and connection of
 *   that principal, so a re-send after a reconnect or an agent restart replays.
 * - `"session:<id>"` for an unauthenticated Streamable HTTP session (`Mcp-Session-Id`): a new
 *   session is another client, so the same key from it runs the tool again.
 * - `undefined` for an HTTP request with neither (stateless and unauthenticated: anyone), which
 *   makes a keyed call refused.
 * - `"local"` for a transport with no HTTP request (stdio: the local user who started the process;
 *   a restarted server process with a durable store replays).
 */
export function defaultScope(extra: McpRequestExtra): string | undefined {
  const auth = extra.authInfo;
  if (auth !== undefined) {
    const sub = (auth.extra as { sub?: unknown } | undefined)?.sub;
    return JSON.stringify(['oauth', auth.clientId, typeof sub === 'string' ? sub : null]);
  }
  if (typeof extra.sessionId === 'string' && extra.sessionId !== '') return `session:${extra.sessionId}`;
  if (extra.requestInfo !== undefined) return undefined;
  return 'local';
}

/**
 * A {@link IdempotencyOptions.scope} from one request header, for a header that a gateway in front
 * of the server sets after authenticating the caller (a user or tenant id): `"header:<name>:<value>"`,
 * or `undefined` (a keyed call is refused) when the header is absent, empty or sent more than
 * once. Never use a header the client picks freely: anyone sending another's value would get
 * that principal's stored results. Node lower-cases header names; `name` is matched
 * case-insensitively.
 *
 * @param name - the header's name, such as `"x-user-id"`.
 * @returns the scope function for `enableIdempotency(server, { runner, scope })`.
 */
export function headerScope(name: string): (extra: McpRequestExtra) => string | undefined {
  const header = name.toLowerCase();
  return (extra) => {
    const value = extra.requestInfo?.headers[header];
    return typeof value === 'string' && value !== '' ? `header:${header}:${value}` : undefined;
  };
}

function policyFor(server: McpServer, state: GuardState, name: string): ToolPolicy {
  const own = state.retrysafeTools.get(name);
  if (own !== undefined) return own;
  const declared = state.options.policies?.[name];
  if (declared !== undefined) return toToolPolicy(declared as PolicyInput, `tool "${name}"`);
  const registered = registeredTool(server, name);
  const attached = policyOf(registered);
  if (attached !== undefined) return attached;
  return (registered && readPublishedPolicy({ ...registered, name }).policy) ?? UNKNOWN_TOOL_POLICY;
}

/** A tool's `isError` result, thrown inside the guarded call so its attempt is released, not stored. */
class ToolResultError extends Error {
  override readonly name = 'McpToolError';
  readonly result: CallToolResult;

  constructor(tool: string, result: CallToolResult) {
    const [first] = result.content;
    super(first?.type === 'text' ? first.text : `${tool} returned an error result`);
    this.result = result;
  }
}

/** The client's id of this logical call (`_meta[CALL_ID_META]`), when it is a short string. */
function readCallId(params: unknown): string | undefined {
  const meta = (params as { _meta?: unknown } | undefined)?._meta;
  const id = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)[CALL_ID_META] : undefined;
  return typeof id === 'string' && id.length > 0 && id.length <= 128 ? id : undefined;
}

function executedBy(stored: unknown): unknown {
  return (stored as CallToolResult)._meta?.[EXECUTED_BY_META];
}

function answer(stored: unknown, replayed: boolean, attempt: number | undefined, retrysafe: boolean): CallToolResult {
  const result = stored as CallToolResult;
  const kept: Record<string, unknown> = { ...result._meta };
  delete kept[EXECUTED_BY_META]; // the server's own bookkeeping, not the client's
  const meta = { ...kept, [REPLAYED_META]: replayed, ...(attempt === undefined ? {} : { [ATTEMPT_META]: attempt }) };
  if (!replayed) return { ...result, _meta: meta };
  const structured = result.structuredContent as { result?: unknown; replayed?: unknown } | undefined;
  if (retrysafe && structured !== undefined && 'replayed' in structured) {
    // registerRetrysafeTool's `{ result, replayed }`: the model reads the flag in the answer itself.
    const shown = { result: structured.result, replayed: true };
    return { ...result, content: [{ type: 'text', text: JSON.stringify(shown) }], structuredContent: shown, _meta: meta };
  }
  const note = 'Replayed: this exact call had already run, so it did not run again; above is its first result (the action happened once).';
  return { ...result, content: [...result.content, { type: 'text', text: note }], _meta: meta };
}

function failure(outcome: Extract<GuardedOutcome, { ok: false }>, call: { key: string; tool: string; policy: ToolPolicy; retrysafe: boolean }): CallToolResult {
  const { error, attempt, decision } = outcome;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'ConcurrentCallError') {
    const retryAfterMs = (error as { retryAfterMs: number }).retryAfterMs;
    throw new WireError(IN_PROGRESS_ERROR_CODE, `${call.tool} is already running with this idempotency key; nothing ran twice. Re-send the same request after ${retryAfterMs} ms to get its result.`, {
      type: 'idempotency_key_in_progress',
      idempotencyKey: call.key,
      tool: call.tool,
      retryAfterMs,
    });
  }
  if (name === 'KeyReuseError') {
    const { fingerprint, storedFingerprint } = error as { fingerprint: string; storedFingerprint: string };
    throw new WireError(CONFLICT_ERROR_CODE, `This idempotency key was first used with other arguments for ${call.tool}; nothing ran. Use a new key for other work.`, {
      type: 'idempotency_key_conflict',
      idempotencyKey: call.key,
      tool: call.tool,
      fingerprint,
      storedFingerprint,
    });
  }
  if (error instanceof ToolResultError) {
    const advice = call.retrysafe ? [] : [{ type: 'text' as const, text: describeFailure({ tool: call.tool, error, policy: call.policy, attempt, decision }) }];
    const meta: WireErrorMeta = { name: 'ToolError', attempt };
    return { ...error.result, content: [...error.result.content, ...advice], _meta: { ...error.result._meta, [ERROR_META]: meta, [ATTEMPT_META]: attempt } };
  }
  const maxAttempts = (error as { maxAttempts?: unknown } | null)?.maxAttempts;
  const meta: WireErrorMeta = { name: typeof name === 'string' ? name : 'Error', attempt, ...(typeof maxAttempts === 'number' ? { maxAttempts } : {}) };
  return {
    content: [{ type: 'text', text: describeFailure({ tool: call.tool, error, policy: call.policy, attempt, decision }, { toolErrorMessages: true }) }],
    isError: true,
    _meta: { [ERROR_META]: meta, [ATTEMPT_META]: attempt },
  };
}
