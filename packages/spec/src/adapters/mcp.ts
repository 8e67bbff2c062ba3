/**
 * `@retrysafe/spec/adapters/mcp`: a `defineTool` tool registered on an MCP server
 * (`McpServer` from the MCP TypeScript SDK 1.x), with every call going through the runner and
 * the declared policy published in the MCP vocabulary: tool annotations, and the policy itself
 * under `_meta.retrysafe`, both visible to clients in `tools/list`.
 *
 * ```ts
 * import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
 * import { registerRetrysafeTool } from '@retrysafe/spec/adapters/mcp';
 *
 * const server = new McpServer({ name: 'payments', version: '1.0.0' });
 * registerRetrysafeTool(server, issueRefund, {
 *   runner,
 *   // The client names the work in the request's _meta, and sends the same id when it retries.
 *   run: (extra) => {
 *     const origin = extra._meta?.['example.com/run'];
 *     if (typeof origin !== 'string') throw new Error('send _meta["example.com/run"]: an id of the work, the same on a retry');
 *     return openRun(store, { kind: 'request', id: origin });
 *   },
 * });
 * ```
 *
 * The adapter imports nothing from the MCP SDK at run time: the server is passed in.
 *
 * @module
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { PolicyShape } from '../policy.js';
import type { Runner } from '../runner.js';
import type { AnyTool } from '../tool.js';
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

/** What the MCP SDK passes a tool handler besides its arguments. */
export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The hints {@link registerRetrysafeTool} lets you set because a retry policy cannot say them. */
export type McpAnnotationOverrides = Pick<ToolAnnotations, 'title' | 'destructiveHint' | 'openWorldHint'>;

/** Options for {@link registerRetrysafeTool}. */
export interface McpToolOptions {
  /** The runner every call goes through (`createRunner({ store })`). */
  readonly runner: Runner;
  /**
   * The run the calls belong to: a `RunContext` from `openRun(store, origin)`, or a function of
   * the handler's `extra` returning one. An MCP server does not see the agent's run, so take it
   * from something the client sends again when it retries the same work (a run origin in the
   * request's `_meta`, for instance), or from the server's own job. Never from `extra.requestId`:
   * a retried request has a new JSON-RPC id, and a key built from it would let a retry run the
   * effect again.
   */
  readonly run: RunSource<[extra: McpRequestExtra]>;
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
 * inputSchema, annotations, _meta: { retrysafe: policy } }, handler)`, with every call going
 * through `runner.call`.
 *
 * - `inputSchema`: the tool's zod object schema (3 or 4; the MCP TypeScript SDK 1.x lists and
 *   validates tool inputs with zod). The SDK validates the arguments and answers invalid ones with
 *   an `isError` result naming the issues; the runner takes the validated value without
 *   validating it again.
 * - `annotations`: {@link annotationsFor}, plus the overrides in `options.annotations`.
 * - `_meta.retrysafe`: the policy in the seed's shape, which `tools/list` shows to clients and
 *   the `require-retry-policy` lint rule accepts as a declaration.
 * - The handler's result: `{ content: [{ type: 'text', text: JSON.stringify({ result, replayed })
 *   }], structuredContent: { result, replayed } }`, `replayed: true` when a with_key call returned
 *   the stored result of an earlier call (the seed: "the model needs to know the action happened,
 *   not that it failed").
 * - Errors: a failed call is an `isError: true` result, not a protocol error, as the MCP
 *   specification asks of tool errors so that the model can see them: the text says what happened
 *   to the effect and whether to call again (a `ConcurrentCallError` says: in progress (409), try
 *   again later, nothing failed), and includes the tool's own error message, as the SDK does for a
 *   thrown error. `_meta.retrysafe.error` names the error for programmatic clients.
 * - The returned `RegisteredTool` carries the policy: `policyOf(registered)` returns it.
 *
 * Behaviour from the seed and the MCP specification (tools: tool annotations, error handling;
 * https://modelcontextprotocol.io/specification/2025-06-18/server/tools).
 *
 * @param server - an `McpServer` (`@modelcontextprotocol/sdk/server/mcp.js`, 1.20 or later).
 * @param retrysafeTool - a tool built with `defineTool`, its input a zod object.
 * @param options - `{ runner, run, annotations? }`; see {@link McpToolOptions}.
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
  if (typeof run !== 'function') checkRun(run, undefined, 'registerRetrysafeTool');
  const validatedBySdk = validatedByFramework(retrysafeTool);
  const overrides = options.annotations ?? {};
  const annotations: ToolAnnotations = {
    ...annotationsFor(retrysafeTool.policy),
    ...pick(overrides, ['title', 'destructiveHint', 'openWorldHint']),
  };
  const handler = async (args: unknown, extra: McpRequestExtra): Promise<CallToolResult> => {
    try {
      const runOfCall = await resolveRun(run, [extra], undefined, 'registerRetrysafeTool');
      const answer: ModelResult = await callForModel(runner, validatedBySdk, args, runOfCall);
      return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: { ...answer } };
    } catch (error) {
      return {
        content: [{ type: 'text', text: failureText(retrysafeTool.name, error, { toolErrorMessages: true }) }],
        isError: true,
        _meta: { retrysafe: { error: errorName(error) } },
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
      _meta: { retrysafe: retrysafeTool.policy },
    },
    handler,
  );
  return declareToolPolicy(registered, retrysafeTool.policy);
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
