/**
 * What the two MCP client wrappers (the official SDK's `Client`, `@ai-sdk/mcp`'s client) share:
 * which policy a listed tool gets (trust), the call's key, and the loop that re-sends a call
 * whose answer was lost only when the policy allows it, always with the same key.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { callKey } from '../../loop/callKey.js';
import { AttemptsExhaustedError, ConcurrentCallError, KeyReuseError, RetrysafeError } from '../../errors.js';
import type { DeterministicKey } from '../../key.js';
import { toToolPolicy, type PolicyDeclaration, type PolicyInput, type ToolPolicy } from '../../policy.js';
import type { RunContext } from '../../run.js';
import type { CallOutcome } from '../../runner.js';
import { retryByPolicy, type RetryLoopOptions, type RetryReport } from '../../loop/retryLoop.js';
import {
  ATTEMPT_META,
  checkWireKey,
  ERROR_META,
  idempotencyErrorData,
  metaOf,
  readPublishedPolicy,
  REPLAYED_META,
  UNKNOWN_TOOL_POLICY,
  type HintAnnotations,
  type WireToolResult,
} from './wire.js';

/**
 * How far the client believes what a server says about its tools. MCP 2026-07-28 (server/tools):
 * "clients MUST consider tool annotations to be untrusted unless they come from trusted servers".
 * - `'untrusted'` (default): the published policy, the annotations and the server's idempotency
 *   capability are advisory, shown but never acted on; a call whose answer was lost is escalated,
 *   unless you declared the tool's policy yourself (`policies`).
 * - `'trusted'`: the server's published policy (else its annotations) decides, and its
 *   idempotency capability makes a re-send with the same key safe.
 *
 * Trust is about the server's claims, not about scope: which calls share a key is the server's
 * decision (`enableIdempotency`'s `scope`, bound to its authorization boundary), never the
 * client's, since a client that could pick its scope could read another's stored results. A
 * trusted server's capability covers what this client does with it, a re-send on the same
 * connection; whether the same key from a new session (an agent restart) replays depends on the
 * server scoping by the authenticated principal (see `retrysafeClient`).
 */
export type ServerTrust = 'trusted' | 'untrusted';

/** Options both client wrappers take. */
export interface RetrysafeClientOptions extends RetryLoopOptions {
  /**
   * The caller's durable run (`openRun`), or a function returning it: every call's key is
   * `callKey(run, tool, arguments)`, the same on every re-send, on a resumed run and on a
   * redelivered job. Never a tool-call id. A call may pass its own `idempotencyKey` instead.
   * The server recognises the same key from a new connection only if it scopes keys by the
   * authenticated principal or its own `scope`, not by session (see `retrysafeClient`).
   */
  readonly run?: RunContext | (() => RunContext | PromiseLike<RunContext>);
  /** See {@link ServerTrust}; default `'untrusted'`. */
  readonly trust?: ServerTrust;
  /** Policies you declare yourself, by tool name (the seed's shape); they win over the server's. */
  readonly policies?: Readonly<Record<string, PolicyDeclaration>>;
  /** How long to wait for one answer before treating it as lost, ms; default 60 000 (the MCP SDK's default). */
  readonly attemptTimeoutMs?: number;
  /** Re-sends of a call whose answer was lost, on a server that deduplicates by key, before escalating; default 3. */
  readonly maxResends?: number;
}

/** Per-call options. */
export interface RetrysafeCallOptions {
  /** Your own key for this call (1–255 characters, the same on every re-send); default `callKey(run, tool, args)`. */
  readonly idempotencyKey?: string;
  /** The run of this call, when it is not the client's. */
  readonly run?: RunContext;
}

/** Where a tool's policy came from. */
export type PolicySource = 'caller' | 'server' | 'annotations' | 'default';

/** The policy the client acts on for one tool, and what the server claims. */
export interface ToolPolicyView {
  /** The policy the client acts on. */
  readonly policy: ToolPolicy;
  /** `caller` (your `policies`), `server` / `annotations` (a trusted server's), or `default` (not safely repeatable). */
  readonly source: PolicySource;
  /** What the server publishes (its `_meta` policy, else its annotations), trusted or not; `undefined` if nothing. */
  readonly published: ToolPolicy | undefined;
}

/**
 * How a call ended, after every re-send and retry the policy allowed: `retryByPolicy`'s report
 * (`status: 'ok'` with `result` and `replayed`; or `'refused'` / `'escalated'` with the error and
 * the decision), plus the key it used and how many times a lost answer was re-sent.
 */
export type RetrysafeCallReport<R extends WireToolResult = WireToolResult> = RetryReport<R> & {
  readonly key: string;
  /** Requests sent again, with the same key, because an answer was lost (not counted as attempts). */
  readonly resends: number;
  /** The policy the call was made under. */
  readonly policy: ToolPolicyView;
};

/**
 * The answer to a `tools/call` never arrived: the connection was reset or closed, or no answer
 * came within `attemptTimeoutMs`. The call may or may not have run.
 */
export class AnswerLostError extends RetrysafeError {
  override readonly name = 'AnswerLostError';
  readonly code = 'answer_lost';
  /** The tool called. */
  readonly tool: string;

  constructor(tool: string, cause: unknown) {
    super(`The answer to ${tool} was lost (${cause instanceof Error ? cause.message : String(cause)}); the call may or may not have run.`, { cause });
    this.tool = tool;
  }
}

/** A `tools/call` answered with an `isError: true` result: the tool ran and reported a failure. */
export class McpToolError extends RetrysafeError {
  override readonly name = 'McpToolError';
  readonly code = 'mcp_tool';
  /** The result as the server sent it. */
  readonly result: WireToolResult;

  constructor(tool: string, result: WireToolResult) {
    const parts = Array.isArray(result.content) ? result.content : [];
    const text = parts.flatMap((part) => (part.type === 'text' && part.text !== undefined ? [part.text] : [])).join('\n');
    super(text !== '' ? text : `${tool} returned an error result`);
    this.result = result;
  }
}

/** A `tools/call` answered with a JSON-RPC error (an unknown tool, invalid parameters ...). */
export class McpRequestError extends RetrysafeError {
  override readonly name = 'McpRequestError';
  readonly code = 'mcp_request';
  /** The JSON-RPC error code. */
  readonly rpcCode: number | undefined;
  /** The JSON-RPC error data. */
  readonly data: unknown;

  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    const { code, data } = (cause ?? {}) as { code?: unknown; data?: unknown };
    this.rpcCode = typeof code === 'number' ? code : undefined;
    this.data = data;
  }
}

/** @internal Thrown by a connection that is set up wrong: not an answer and not a lost one; the call rejects with it. */
export class MisconfiguredClientError extends TypeError {
  override readonly name = 'TypeError';
}

/** @internal The policy the client acts on for a listed tool. */
export function policyView(
  tool: { readonly name: string; readonly _meta?: unknown; readonly annotations?: HintAnnotations | undefined },
  options: Pick<RetrysafeClientOptions, 'trust' | 'policies'>,
): ToolPolicyView {
  const published = readPublishedPolicy(tool);
  const own = options.policies?.[tool.name];
  if (own !== undefined) return { policy: toToolPolicy(own as PolicyInput, `tool "${tool.name}"`), source: 'caller', published: published.policy };
  if (options.trust === 'trusted' && published.policy !== undefined) {
    return { policy: published.policy, source: published.source === 'policy' ? 'server' : 'annotations', published: published.policy };
  }
  return { policy: UNKNOWN_TOOL_POLICY, source: 'default', published: published.policy };
}

/** @internal One connection to a server, as the loop needs it; each wrapper implements it. */
export interface WireConnection<R extends WireToolResult = WireToolResult> {
  /**
   * Sends one `tools/call` with the key (in `_meta`, and as SEP-3182's parameter to a server that
   * deduplicates) and the logical call's id (`_meta[CALL_ID_META]`, the same on its re-sends).
   */
  send(name: string, args: Record<string, unknown>, key: string, options: { readonly timeoutMs: number; readonly callId: string }): Promise<R>;
  /** Whether `error` means the answer was lost (the request may have run), rather than an answer. */
  isLost(error: unknown): boolean;
  /** Whether the server advertises idempotency (`tools.idempotency` or the retrysafe extension). */
  deduplicates(): boolean;
}

/** @internal The key of one call: the caller's, or `callKey(run, tool, args)`. */
export async function keyOf(name: string, args: Record<string, unknown>, options: RetrysafeClientOptions, call: RetrysafeCallOptions): Promise<string> {
  if (call.idempotencyKey !== undefined) {
    const problem = checkWireKey(call.idempotencyKey);
    if (problem !== undefined) throw new TypeError(`retrysafeClient: idempotencyKey for ${name} is not a valid key (${problem}); use 1-255 printable characters, the same on every re-send.`);
    return call.idempotencyKey;
  }
  const run = call.run ?? (typeof options.run === 'function' ? await options.run() : options.run);
  if (run === undefined) {
    throw new TypeError(`retrysafeClient: ${name} needs a key that is the same on every re-send: give the client a durable run (run: await openRun(store, origin)) or pass idempotencyKey.`);
  }
  return callKey(run, name, args);
}

/**
 * @internal Calls a tool and acts on its policy: re-sends with the same key a call whose answer
 * was lost when the server deduplicates and the policy records it (no attempt used: the re-send
 * only learns what the first request did), waits out a call in progress, and otherwise does what
 * `decideRetry` says (retry the safe ones, refuse, escalate).
 */
export async function callByPolicy<R extends WireToolResult>(
  wire: WireConnection<R>,
  name: string,
  args: Record<string, unknown>,
  key: string,
  view: ToolPolicyView,
  options: RetrysafeClientOptions,
): Promise<RetrysafeCallReport<R>> {
  // A server's dedup claim counts only when the caller trusts it or vouches for the tool itself.
  const honoured = wire.deduplicates() && (options.trust === 'trusted' || view.source === 'caller');
  const recorded = view.policy.idempotent !== true;
  // A lost answer is re-sent only where the policy allows a retry at all: with the same key, to a
  // server that deduplicates by it. A `retry: 'never'` tool is escalated even then.
  const resendable = honoured && view.policy.idempotent === 'with_key' && view.policy.retry === 'safe_with_same_key';
  // Without the server's dedup, a with_key tool is not safely repeatable over the wire.
  const policy: ToolPolicy = honoured || !recorded ? view.policy : { ...UNKNOWN_TOOL_POLICY, side_effects: view.policy.side_effects === 'none' ? 'external_write' : view.policy.side_effects };
  const timeoutMs = options.attemptTimeoutMs ?? 60_000;
  const maxResends = options.maxResends ?? 3;
  let resends = 0;
  // One id for every request of this call: a re-send that finds the result its own first request
  // recorded gets it as that execution (replayed: false), not as a replay (CALL_ID_META).
  const callId = randomUUID();
  const attempt = async (n: number): Promise<CallOutcome<R>> => {
    for (;;) {
      try {
        const result = await wire.send(name, args, key, { timeoutMs, callId });
        const meta = metaOf(result);
        const at = typeof meta[ATTEMPT_META] === 'number' ? meta[ATTEMPT_META] : n;
        if (result.isError === true) return { ok: false, error: toolError(name, key, result, honoured), attempt: at, key: key as DeterministicKey };
        return { ok: true, result, replayed: meta[REPLAYED_META] === true, attempt: at, key: key as DeterministicKey };
      } catch (error) {
        if (error instanceof MisconfiguredClientError) throw error;
        if (wire.isLost(error)) {
          if (resendable && resends < maxResends) {
            resends += 1;
            continue;
          }
          return { ok: false, error: new AnswerLostError(name, error), attempt: n, key: key as DeterministicKey };
        }
        return { ok: false, error: honoured ? wireError(name, key, error, n) : new McpRequestError(error), attempt: n, key: key as DeterministicKey };
      }
    }
  };
  const report = await retryByPolicy(policy, attempt, options);
  return { ...report, key: key as DeterministicKey, resends, policy: view };
}

// SEP-3182's error data, as the runner's own errors, so that decideRetry reads them by name: in
// progress waits the server's hint and re-sends; a conflict escalates.
function wireError(tool: string, key: string, error: unknown, attempt: number): Error {
  const data = idempotencyErrorData(error);
  if (data?.type === 'idempotency_key_in_progress') {
    const now = Date.now();
    return new ConcurrentCallError({ tool, key, namespace: '', attempt, lockExpiresAt: now + Math.max(1, data.retryAfterMs), now });
  }
  if (data?.type === 'idempotency_key_conflict') {
    return new KeyReuseError({ tool, key, namespace: '', fingerprint: data.fingerprint, storedFingerprint: data.storedFingerprint });
  }
  return new McpRequestError(error);
}

function toolError(tool: string, key: string, result: WireToolResult, honoured: boolean): Error {
  const named = metaOf(result)[ERROR_META] as { name?: unknown; attempt?: unknown; maxAttempts?: unknown } | undefined;
  if (honoured && named?.name === 'AttemptsExhaustedError' && typeof named.attempt === 'number' && typeof named.maxAttempts === 'number') {
    return new AttemptsExhaustedError({ tool, key, namespace: '', attempts: named.attempt, maxAttempts: named.maxAttempts, errors: [] });
  }
  return new McpToolError(tool, result);
}
