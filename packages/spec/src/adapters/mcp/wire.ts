/**
 * The retrysafe MCP wire format: the names and shapes that cross the wire between a client that
 * re-sends `tools/call` requests and a server that deduplicates them. Decided once and documented
 * in docs/mcp.md; tests check them in the JSON that actually crosses the wire.
 *
 * Why a key on the wire at all: the MCP 2026-07-28 revision makes re-sending routine. "A broken
 * response stream loses the in-flight request; clients MUST re-issue it as a new request with a
 * new request ID" (changelog, SEP-2575), and on stdio "any in-flight requests are simply lost and
 * the client can retry them against the fresh process" (basic/transports/stdio). A new JSON-RPC id
 * cannot tell the server "this is the same call again"; an idempotency key can.
 *
 * Key names follow the `_meta` rules of MCP 2026-07-28 (basic/index, `_meta`): a prefix of dot
 * separated labels in reverse DNS notation, then a slash and a name; prefixes whose second label
 * is `modelcontextprotocol` or `mcp` are reserved. `io.github.retrysafe/` is the reverse DNS of
 * the project's home, github.com/retrysafe. The SEP-3182 shapes (an `idempotencyKey` parameter on
 * `tools/call`, the `tools.idempotency` capability, `error.data.type` of
 * `idempotency_key_in_progress` / `idempotency_key_conflict`) are accepted and produced too; that
 * proposal was closed unmerged
 * (https://github.com/modelcontextprotocol/modelcontextprotocol/pull/3182).
 *
 * This module imports nothing from an MCP SDK: the server, client and errors are plain shapes.
 *
 * @module
 */
import { MAX_KEY_LENGTH } from '../../key.js';
import { toToolPolicy, type PolicyInput, type ToolPolicy } from '../../policy.js';

/** The vendor prefix of every retrysafe `_meta` key and extension identifier. */
export const RETRYSAFE_META_PREFIX = 'io.github.retrysafe/';

/**
 * Request `_meta` key carrying the call's idempotency key: a string of 1 to 255 UTF-16 code units
 * (Stripe's limit, {@link MAX_KEY_LENGTH}), well-formed, without control characters. The same key
 * on a re-sent request tells the server it is the same call again.
 */
export const IDEMPOTENCY_KEY_META = 'io.github.retrysafe/idempotencyKey';

/**
 * Request `_meta` key carrying the id of one logical call of a retrysafe client: a random id,
 * the same on every request of that call (its re-sends after a lost answer, its waits while it
 * runs), new for the next call even with the same key. The server stores it with the result it
 * records ({@link EXECUTED_BY_META}), so that a re-send of the call that ran the tool gets that
 * result as its own (`replayed: false`), and a later call with the key gets it as a replay.
 */
export const CALL_ID_META = 'io.github.retrysafe/callId';

/**
 * `_meta` key of a result the server recorded: the {@link CALL_ID_META} of the request that ran
 * the tool. Kept in the stored result only; never sent to a client.
 */
export const EXECUTED_BY_META = 'io.github.retrysafe/executedBy';

/** SEP-3182's request parameter for the same key (`params.idempotencyKey` of `tools/call`). */
export const SEP_3182_KEY_PARAM = 'idempotencyKey';

/** Tool `_meta` key (in `tools/list`) carrying the declared policy in the seed's shape. */
export const POLICY_META = 'io.github.retrysafe/policy';

/** The bare `_meta` key of earlier retrysafe releases; still read, no longer written. */
export const LEGACY_POLICY_META = 'retrysafe';

/** Result `_meta` key: `true` when the server returned a stored result instead of running the tool. */
export const REPLAYED_META = 'io.github.retrysafe/replayed';

/** Result `_meta` key: the attempt, per key, that produced the result (from the dedup record). */
export const ATTEMPT_META = 'io.github.retrysafe/attempt';

/** Result `_meta` key on an `isError` result the server produced itself: see {@link WireErrorMeta}. */
export const ERROR_META = 'io.github.retrysafe/error';

/**
 * The extension identifier a server advertises in `capabilities.extensions` (MCP 2026-07-28,
 * basic/versioning, "Extension Negotiation": identifiers follow the `_meta` key rules with a
 * mandatory prefix), with an empty settings object. Beside it the server advertises SEP-3182's
 * `capabilities.tools.idempotency: {}`.
 */
export const IDEMPOTENCY_EXTENSION = 'io.github.retrysafe/idempotency';

/**
 * JSON-RPC `error.code` of a call refused because another call with its key is still running.
 * 409, the IETF Idempotency-Key draft's status for this case; MCP 2026-07-28 asks for application
 * codes outside JSON-RPC's reserved range (-32768 to -32000). Clients should read `error.data.type`.
 */
export const IN_PROGRESS_ERROR_CODE = 409;

/** JSON-RPC `error.code` of a key first used with other arguments: 422, the IETF draft's status. */
export const CONFLICT_ERROR_CODE = 422;

/** JSON-RPC Invalid params, for a key that is not a valid key. */
export const INVALID_PARAMS_ERROR_CODE = -32602;

/** JSON-RPC Internal error, for a server that cannot tell its clients apart (see `scope`). */
export const INTERNAL_ERROR_CODE = -32603;

/** `error.data` of a call refused because its key is in use: SEP-3182's data types, extended. */
export type IdempotencyErrorData =
  | {
      /** SEP-3182: another request with this key is still running; nothing ran twice. */
      readonly type: 'idempotency_key_in_progress';
      readonly idempotencyKey: string;
      readonly tool: string;
      /** Retry hint: re-send the same request with the same key after this long, ms. */
      readonly retryAfterMs: number;
    }
  | {
      /** SEP-3182: the key was first used with other arguments; nothing ran. */
      readonly type: 'idempotency_key_conflict';
      readonly idempotencyKey: string;
      readonly tool: string;
      /** SHA-256 of the RFC 8785 canonical JSON of this request's arguments. */
      readonly fingerprint: string;
      /** The same of the arguments the key was first used with. */
      readonly storedFingerprint: string;
    }
  | {
      /** The key is not a valid key (type, length, characters); nothing ran. */
      readonly type: 'idempotency_key_invalid';
      readonly reason: 'not_a_string' | 'empty' | 'too_long' | 'not_well_formed' | 'control_character' | 'two_keys_differ';
    }
  | {
      /** The server cannot tell this client apart from others, so it does not accept keys; nothing ran. */
      readonly type: 'idempotency_key_unscoped';
    };

/** What the server puts under {@link ERROR_META} on an `isError` result it produced. */
export interface WireErrorMeta {
  /** The runner's error name (`AttemptsExhaustedError`, `StoreUnavailableError`, ...) or `ToolError`. */
  readonly name: string;
  /** Attempts made under the key so far. */
  readonly attempt?: number;
  /** For `AttemptsExhaustedError`: the tool's `max_attempts`. */
  readonly maxAttempts?: number;
}

/**
 * @internal A JSON-RPC error as a thrown value: the MCP SDK sends the `code`, `message` and `data`
 * of what a request handler throws. Its `code` is the JSON-RPC integer.
 */
export class WireError extends Error {
  override readonly name = 'McpWireError';
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The JSON-RPC error data. */
  readonly data: IdempotencyErrorData;

  constructor(code: number, message: string, data: IdempotencyErrorData) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

// String.prototype.isWellFormed is ES2024; this is the same test on the ES2023 lib.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a key was rejected, for {@link checkWireKey}. */
export type WireKeyProblem = Extract<IdempotencyErrorData, { type: 'idempotency_key_invalid' }>['reason'];

/**
 * Checks a key taken from the wire: a well-formed string of 1 to {@link MAX_KEY_LENGTH} UTF-16
 * code units with no control characters (a store must hold it exactly; a lone surrogate or a NUL
 * would not survive every driver). Returns the problem, or `undefined` for a good key.
 */
export function checkWireKey(value: unknown): WireKeyProblem | undefined {
  if (typeof value !== 'string') return 'not_a_string';
  if (value === '') return 'empty';
  if (value.length > MAX_KEY_LENGTH) return 'too_long';
  if (LONE_SURROGATE.test(value)) return 'not_well_formed';
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'control_character';
  return undefined;
}

/**
 * The idempotency key of a `tools/call` request's params: `_meta["io.github.retrysafe/idempotencyKey"]`
 * or SEP-3182's `idempotencyKey`. `undefined` when the request carries neither.
 *
 * @throws {@link WireError} (-32602, `idempotency_key_invalid`) for a key that is not valid, or two
 *   keys that differ.
 */
export function readRequestKey(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  const fromMeta = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)[IDEMPOTENCY_KEY_META] : undefined;
  const fromParam = (params as Record<string, unknown>)[SEP_3182_KEY_PARAM];
  if (fromMeta === undefined && fromParam === undefined) return undefined;
  if (fromMeta !== undefined && fromParam !== undefined && fromMeta !== fromParam) throw invalidKey('two_keys_differ');
  const candidate = fromMeta ?? fromParam;
  const problem = checkWireKey(candidate);
  if (problem !== undefined) throw invalidKey(problem);
  return candidate as string;
}

function invalidKey(reason: WireKeyProblem): WireError {
  const why: Record<WireKeyProblem, string> = {
    not_a_string: 'is not a string',
    empty: 'is empty',
    too_long: `is longer than ${MAX_KEY_LENGTH} characters`,
    not_well_formed: 'holds a lone UTF-16 surrogate',
    control_character: 'holds a control character',
    two_keys_differ: `differs between _meta["${IDEMPOTENCY_KEY_META}"] and params.${SEP_3182_KEY_PARAM}`,
  };
  return new WireError(INVALID_PARAMS_ERROR_CODE, `Invalid idempotency key: it ${why[reason]}. Nothing ran.`, {
    type: 'idempotency_key_invalid',
    reason,
  });
}

/** Where a tool's policy came from; see {@link readPublishedPolicy}. */
export type PublishedPolicySource = 'policy' | 'annotations' | 'none';

/** What a tool definition (from `tools/list`) says about its retry policy. */
export interface PublishedPolicy {
  /** The policy, from `_meta` or derived from the annotations; `undefined` when neither says anything. */
  readonly policy: ToolPolicy | undefined;
  readonly source: PublishedPolicySource;
}

/** The MCP tool annotations that say something about repetition (all hints, MCP schema `ToolAnnotations`). */
export interface HintAnnotations {
  readonly readOnlyHint?: boolean | undefined;
  readonly destructiveHint?: boolean | undefined;
  readonly idempotentHint?: boolean | undefined;
  readonly openWorldHint?: boolean | undefined;
}

/**
 * Reads a tool definition's policy: `_meta["io.github.retrysafe/policy"]`, else the bare
 * `_meta.retrysafe` of earlier releases, else what the annotations imply (`readOnlyHint: true`: a
 * read, naturally idempotent; `idempotentHint: true`: naturally idempotent; anything else says
 * nothing, and the spec's defaults, `destructiveHint: true` and `idempotentHint: false`, make it
 * not safely repeatable). A published policy that contradicts itself is ignored, as if absent.
 * Whether to believe any of it is the reader's decision: MCP 2026-07-28 (server/tools): "clients
 * MUST consider tool annotations to be untrusted unless they come from trusted servers".
 */
export function readPublishedPolicy(tool: { readonly _meta?: unknown; readonly annotations?: HintAnnotations | undefined; readonly name?: string }): PublishedPolicy {
  const meta = typeof tool._meta === 'object' && tool._meta !== null ? (tool._meta as Record<string, unknown>) : {};
  for (const key of [POLICY_META, LEGACY_POLICY_META]) {
    const declared = meta[key];
    if (typeof declared !== 'object' || declared === null) continue;
    try {
      return { policy: toToolPolicy(declared as PolicyInput, `tool "${tool.name ?? '?'}"`), source: 'policy' };
    } catch {
      // A contradictory published policy says nothing reliable; fall through to the hints.
    }
  }
  const hints = tool.annotations;
  if (hints?.readOnlyHint === true) {
    return { policy: Object.freeze({ side_effects: 'none', idempotent: true, retry: 'safe', max_attempts: 3 }), source: 'annotations' };
  }
  if (hints?.idempotentHint === true) {
    const sideEffects = hints.openWorldHint === false ? 'internal_write' : 'external_write';
    return { policy: Object.freeze({ side_effects: sideEffects, idempotent: true, retry: 'safe', max_attempts: 3 }), source: 'annotations' };
  }
  return { policy: undefined, source: 'none' };
}

/**
 * The policy a tool gets when nothing trustworthy says otherwise: not safely repeatable. A call
 * whose answer was lost is escalated, never re-sent automatically (the seed: "refuse to
 * auto-retry the unsafe ones, escalate instead").
 */
export const UNKNOWN_TOOL_POLICY: ToolPolicy = Object.freeze({
  side_effects: 'external_write',
  idempotent: false,
  retry: 'never',
  max_attempts: 1,
});

/**
 * A `tools/call` result as the client wrappers read it, whichever SDK produced it (the MCP SDK's
 * and `@ai-sdk/mcp`'s `CallToolResult` both fit).
 */
export interface WireToolResult {
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>;
  readonly isError?: boolean | undefined;
  readonly structuredContent?: unknown;
  readonly _meta?: Record<string, unknown> | undefined;
}

/** The `_meta` of a result, as a record (an absent or non-object `_meta` reads as empty). */
export function metaOf(result: unknown): Record<string, unknown> {
  const meta = typeof result === 'object' && result !== null ? (result as { _meta?: unknown })._meta : undefined;
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : {};
}

/** The `error.data` of a JSON-RPC error (an SDK's error object), if it is one of {@link IdempotencyErrorData}. */
export function idempotencyErrorData(error: unknown): IdempotencyErrorData | undefined {
  const data = typeof error === 'object' && error !== null ? (error as { data?: unknown }).data : undefined;
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  switch (type) {
    case 'idempotency_key_in_progress':
    case 'idempotency_key_conflict':
    case 'idempotency_key_invalid':
    case 'idempotency_key_unscoped':
      return data as IdempotencyErrorData;
    default:
      return undefined;
  }
}
