/**
 * `@retrysafe/spec/adapters/mcp`: retrysafe on the MCP wire, for the MCP TypeScript SDK 1.x.
 *
 * Server side: `registerRetrysafeTool(server, tool, { runner })` registers a `defineTool` tool
 * with every call going through the runner and its policy published in `tools/list` (tool
 * annotations, and `_meta["io.github.retrysafe/policy"]`); `enableIdempotency(server, { runner })`
 * makes every tool on the server, plain ones included, deduplicate calls that carry an
 * idempotency key (`_meta["io.github.retrysafe/idempotencyKey"]`, or SEP-3182's
 * `params.idempotencyKey`), scoped to the calling client. Client side: `retrysafeClient(client, {
 * run })` gives each call a key stable across re-sends and re-sends a call whose answer was lost
 * only when the tool's policy allows it. The wire format is in docs/mcp.md.
 *
 * ```ts
 * import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
 * import { enableIdempotency, registerRetrysafeTool } from '@retrysafe/spec/adapters/mcp';
 *
 * const server = new McpServer({ name: 'payments', version: '1.0.0' });
 * enableIdempotency(server, { runner });
 * registerRetrysafeTool(server, issueRefund, { runner });
 * ```
 *
 * The adapter imports nothing from the MCP SDK at run time: the server and client are passed in.
 *
 * @module
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { currentCall } from '../loop/guard.js';
import { vouchDurable } from '../durable.js';
import type { PolicyShape } from '../policy.js';
import type { RunContext } from '../run.js';
import type { Runner } from '../runner.js';
import type { AnyTool } from '../tool.js';
import { ensureIdempotency, keyRequiredText, noteRetrysafeTool, type McpRequestExtra } from './mcp/server.js';
import { ERROR_META, POLICY_META, type WireErrorMeta } from './mcp/wire.js';
import {
  assertRetrysafeTool,
  callForModel,
  checkRun,
  declareToolPolicy,
  failureText,
  isZodObject,
  resolveRun,
  validatedByFramework,
  vendorOf,
  type ModelResult,
  type RunSource,
} from './shared.js';

export type { ModelResult, RunSource } from './shared.js';
export { defaultScope, enableIdempotency, headerScope, type IdempotencyOptions, type McpRequestExtra } from './mcp/server.js';
export {
  ATTEMPT_META,
  checkWireKey,
  CONFLICT_ERROR_CODE,
  ERROR_META,
  IDEMPOTENCY_EXTENSION,
  IDEMPOTENCY_KEY_META,
  idempotencyErrorData,
  IN_PROGRESS_ERROR_CODE,
  INTERNAL_ERROR_CODE,
  INVALID_PARAMS_ERROR_CODE,
  LEGACY_POLICY_META,
  POLICY_META,
  readPublishedPolicy,
  readRequestKey,
  REPLAYED_META,
  RETRYSAFE_META_PREFIX,
  SEP_3182_KEY_PARAM,
  UNKNOWN_TOOL_POLICY,
  type HintAnnotations,
  type IdempotencyErrorData,
  type PublishedPolicy,
  type PublishedPolicySource,
  type WireErrorMeta,
  type WireKeyProblem,
  type WireToolResult,
} from './mcp/wire.js';
export * from './mcp/client.js';

/** The hints {@link registerRetrysafeTool} lets you set because a retry policy cannot say them. */
export type McpAnnotationOverrides = Pick<ToolAnnotations, 'title' | 'destructiveHint' | 'openWorldHint'>;

/** Options for {@link registerRetrysafeTool}. */
export interface McpToolOptions {
  /** The runner every call goes through (`createRunner({ store })`). */
  readonly runner: Runner;
  /**
   * The run of a call that carries no idempotency key. A keyed call (see `enableIdempotency`)
   * gets a run of its own from the client and the key, the same on every re-send, so a with_key
   * tool's key (`key\`${run.id}:...\``) is stable across re-sends and differs between clients.
   *
   * For unkeyed calls: a `RunContext` from `openRun(store, origin)`, or a function of the
   * handler's `extra` returning one, taken from something the client sends again when it retries
   * the same work (a run origin in the request's `_meta`), or from the server's own job. Never
   * from `extra.requestId`: a retried request has a new JSON-RPC id. Omitted: an unkeyed call of a
   * with_key tool is refused with an `isError` result asking for a key; other tools run with the
   * run id `mcp:unkeyed` (they have no record, so nothing is keyed by it). The refusal is not a
   * dedup promise but a correctness one: the tool's key is built from `run.id`, and with neither a
   * client's key nor a run of yours, one shared run would make every caller's refund of an order
   * the same record (the second caller would get the first caller's result). A tool registered
   * the plain way keys nothing, so behind `enableIdempotency` its unkeyed calls run, once per
   * request, as on a plain MCP server, unless `requireKeys` refuses them too.
   */
  readonly run?: RunSource<[extra: McpRequestExtra]>;
  /**
   * `title`, and the two hints a retry policy does not determine: `destructiveHint` (a write may
   * be purely additive, such as creating a ticket; the policy does not say) and `openWorldHint`
   * for a read (does it reach outside systems?).
   */
  readonly annotations?: McpAnnotationOverrides;
}

/**
 * The MCP tool annotations a retry policy implies (MCP specification, `ToolAnnotations`; all of
 * them are hints, and a client must not trust them from an untrusted server):
 *
 * - `readOnlyHint`: `side_effects === 'none'`.
 * - `destructiveHint`: `false` for a read; `true` for every write, the spec's default, because
 *   the policy says what a tool changes, not whether the change is purely additive, and claiming
 *   "additive" for a tool that overwrites or sends would be the dangerous direction. Override it
 *   in `registerRetrysafeTool`'s `annotations` for an additive write.
 * - `idempotentHint`: `idempotent !== false`. For a with_key tool this is true only because the
 *   runner replays: a repeat within the same run (same key) returns the first result and has no
 *   additional effect. The same arguments in another run are other work with another key.
 * - `openWorldHint`: `true` for `external_write`, `money_out` and `message_out`; `false` for
 *   `internal_write`; left out for a read (the policy does not say whether a read reaches outside
 *   systems, so the spec's default applies unless you set it).
 *
 * Pure; the policy is not checked.
 */
export function annotationsFor(policy: PolicyShape): ToolAnnotations {
  const readOnly = policy.side_effects === 'none';
  return {
    readOnlyHint: readOnly,
    destructiveHint: !readOnly,
    idempotentHint: policy.idempotent !== false,
    ...(readOnly ? {} : { openWorldHint: policy.side_effects !== 'internal_write' }),
  };
}

/**
 * Registers a `defineTool` tool on an MCP server: `server.registerTool(name, { description,
 * inputSchema, annotations, _meta: { "io.github.retrysafe/policy": policy } }, handler)`, with
 * every call going through `runner.call`, and idempotency over the wire enabled on the server
 * (`enableIdempotency(server, { runner })`, unless it already is).
 *
 * - `inputSchema`: the tool's zod object schema (3 or 4; the MCP TypeScript SDK 1.x lists and
 *   validates tool inputs with zod). The SDK validates the arguments and answers invalid ones with
 *   an `isError` result naming the issues; the runner takes the validated value without
 *   validating it again.
 * - `annotations`: {@link annotationsFor}, plus the overrides in `options.annotations`.
 * - `_meta["io.github.retrysafe/policy"]`: the policy in the seed's shape, which `tools/list` shows to
 *   clients (`retrysafeClient` reads it from a trusted server) and the `require-retry-policy`
 *   lint rule accepts as a declaration.
 * - The run: for a call with an idempotency key, a run derived from the client and the key; else
 *   `options.run` (see {@link McpToolOptions.run}).
 * - The handler's result: `{ content: [{ type: 'text', text: JSON.stringify({ result, replayed })
 *   }], structuredContent: { result, replayed } }`, `replayed: true` when the stored result of an
 *   earlier call was returned (the seed: "the model needs to know the action happened, not that it
 *   failed").
 * - Errors: a failed call is an `isError: true` result, not a protocol error, as the MCP
 *   specification asks of tool errors so that the model can see them: the text says what happened
 *   to the effect and whether to call again (`decideRetry`), and includes the tool's own error
 *   message, as the SDK does for a thrown error. `_meta["io.github.retrysafe/error"].name` names
 *   the error for programmatic clients.
 * - The returned `RegisteredTool` carries the policy: `policyOf(registered)` returns it.
 *
 * Behaviour from the seed and the MCP specification 2026-07-28 (server/tools: tool annotations,
 * error handling).
 *
 * @param server - an `McpServer` (`@modelcontextprotocol/sdk/server/mcp.js`, 1.20 or later).
 * @param retrysafeTool - a tool built with `defineTool`, its input a zod object.
 * @param options - `{ runner, run?, annotations? }`; see {@link McpToolOptions}.
 * @returns what `server.registerTool` returns, with the policy declared on it.
 * @throws TypeError if `retrysafeTool` is not a `defineTool` tool, if its input is not a zod
 *   object, or if a static `run` has no id; the SDK's own error if the name is already registered.
 */
export function registerRetrysafeTool(server: McpServer, retrysafeTool: AnyTool, options: McpToolOptions): RegisteredTool {
  assertRetrysafeTool(retrysafeTool, 'registerRetrysafeTool');
  const { runner, run } = options;
  if (!isZodObject(retrysafeTool.input)) {
    throw new TypeError(
      `registerRetrysafeTool(): the input schema of tool "${retrysafeTool.name}" (${vendorOf(retrysafeTool.input)}) is not a zod ` +
        'object, and the MCP TypeScript SDK 1.x lists and validates tool inputs with zod only. Declare the input with z.object({...}).',
    );
  }
  if (run !== undefined && typeof run !== 'function') checkRun(run, undefined, 'registerRetrysafeTool');
  noteRetrysafeTool(ensureIdempotency(server, runner), retrysafeTool.name, retrysafeTool.policy);
  const validatedBySdk = validatedByFramework(retrysafeTool);
  const overrides = options.annotations ?? {};
  const annotations: ToolAnnotations = {
    ...annotationsFor(retrysafeTool.policy),
    ...pick(overrides, ['title', 'destructiveHint', 'openWorldHint']),
  };
  const handler = async (args: unknown, extra: McpRequestExtra): Promise<CallToolResult> => {
    try {
      const runOfCall = await runFor(retrysafeTool, run, extra);
      const answer: ModelResult = await callForModel(runner, validatedBySdk, args, runOfCall);
      return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: { ...answer } };
    } catch (error) {
      const meta: WireErrorMeta = { name: errorName(error) };
      return {
        content: [{ type: 'text', text: failureText(retrysafeTool.name, error, { toolErrorMessages: true }) }],
        isError: true,
        _meta: { [ERROR_META]: meta },
      };
    }
  };
  // registerTool's overloads infer the handler's argument type from a literal zod schema; this
  // schema is only known to be a zod object at run time.
  const register = server.registerTool.bind(server) as unknown as (name: string, config: object, callback: typeof handler) => RegisteredTool;
  const registered = register(
    retrysafeTool.name,
    {
      ...(retrysafeTool.description !== undefined ? { description: retrysafeTool.description } : {}),
      inputSchema: retrysafeTool.input,
      annotations,
      _meta: { [POLICY_META]: retrysafeTool.policy },
    },
    handler,
  );
  return declareToolPolicy(registered, retrysafeTool.policy);
}

const UNKEYED_RUN: RunContext = Object.freeze({ id: vouchDurable('mcp:unkeyed') });

/** Thrown for an unkeyed call of a with_key tool on a server with no `run` for unkeyed calls. */
class IdempotencyKeyRequiredError extends Error {
  override readonly name = 'IdempotencyKeyRequiredError';
}

// The keyed call's run from the guard (the server's guarded call of this very tool), else the
// configured run, else the fallback for tools that key nothing.
async function runFor(tool: AnyTool, run: McpToolOptions['run'], extra: McpRequestExtra): Promise<RunContext> {
  const guarded = currentCall();
  if (guarded !== undefined && guarded.tool === tool.name) return guarded.run;
  if (run !== undefined) return resolveRun(run, [extra], undefined, 'registerRetrysafeTool');
  if (tool.policy.idempotent !== 'with_key') return UNKEYED_RUN;
  throw new IdempotencyKeyRequiredError(keyRequiredText(tool.name));
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}

function errorName(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : 'Error';
}
