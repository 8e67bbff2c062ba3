import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { findProperty, findPropertyThroughSpreads, findVariableOf, getImportedModules, getMemberChain, getStaticPropertyName, getStaticValueOf, resolveConst, resolveObject, resolveReference, skipWrappers, staticString } from '../ast/index.js';

// Where a tool meets @retrysafe/spec's runtime: runners (`createRunner({ store })`), the dedup store
// each one keeps its records in, and the calls that hand a tool to a runner (`runner.call(tool, …)`,
// the framework adapters). For the seed's fourth audit question: "Is the deduplication record
// durable, and does it outlive the run?". Everything is recognised by its import from the spec.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** A dedup store the spec ships, by its factory. */
export type StoreKind = 'memory' | 'postgres' | 'redis' | 'sqlite';

/** A store construction: which backend, and whether its records survive the process. */
export interface StoreConstruction {
  readonly kind: StoreKind;
  /** False for the memory store and an in-memory SQLite database. */
  readonly durable: boolean;
  /**
   * A Redis store's `allowVolatile`: `true` turns off the check (issue 13) that the server keeps its
   * data on disk, so a Redis that keeps nothing is accepted; `'unknown'` when the value is not
   * static; absent when it is `false` or not given (the store then refuses a volatile server).
   */
  readonly allowVolatile?: true | 'unknown';
  /** Where `allowVolatile` is given (its value, or the options when they are not visible), when it is set. */
  readonly allowVolatileNode?: TSESTree.Node;
  readonly node: TSESTree.CallExpression;
}

/** `createRunner({ store })` from `@retrysafe/spec`. */
export interface RunnerConstruction {
  readonly node: TSESTree.CallExpression;
  /** The `store` option as written. */
  readonly storeNode: TSESTree.Node | undefined;
  /** The store, when its construction is visible in this file. */
  readonly store: StoreConstruction | undefined;
}

/** A call that hands a tool to a runner. */
export interface RunnerUse {
  /**
   * `runner.call` (and `runner.tryCall`), the adapter's name (`toAiSdkTool`, `registerRetrysafeTool`
   * ...), or the guard's (`guardAiSdkTools` ...).
   */
  readonly via: string;
  readonly node: TSESTree.CallExpression;
  /** The tool expression handed over; for a guard, the set of tools (an object or an array of them). */
  readonly tool: TSESTree.Node;
  /** A guard: `tool` is a set of framework tools, each run through the runner by its declared policy. */
  readonly collection: boolean;
  /** The runner expression, when the call names one. */
  readonly runner: TSESTree.Node | undefined;
  /** Options chosen by a conditional (`flag ? { runner } : { runner: other }`, `??`, `||`) whose branches do not name the same runner. */
  readonly runnerConditional?: TSESTree.Node;
}

const SPEC = '@retrysafe/spec';
const STORE_FACTORIES: Readonly<Record<string, { readonly module: string; readonly kind: StoreKind }>> = {
  createSqliteStore: { module: `${SPEC}/stores/sqlite`, kind: 'sqlite' },
  createPostgresStore: { module: `${SPEC}/stores/postgres`, kind: 'postgres' },
  createRedisStore: { module: `${SPEC}/stores/redis`, kind: 'redis' },
  createNonDurableMemoryStore: { module: `${SPEC}/stores/memory`, kind: 'memory' },
};
/** The adapters and which argument holds the tool (the options with `runner` follow it). */
const ADAPTERS: Readonly<Record<string, { readonly module: string; readonly toolArgument: number }>> = {
  toAiSdkTool: { module: `${SPEC}/adapters/ai-sdk`, toolArgument: 0 },
  toLangChainTool: { module: `${SPEC}/adapters/langchain`, toolArgument: 0 },
  toOpenAIAgentsTool: { module: `${SPEC}/adapters/openai-agents`, toolArgument: 0 },
  registerRetrysafeTool: { module: `${SPEC}/adapters/mcp`, toolArgument: 1 },
  toMastraTool: { module: `${SPEC}/adapters/mastra`, toolArgument: 0 },
};
/**
 * The guards: a set of framework-native tools with declared policies, each call run through the
 * runner (a repeat in the run replays the first result, flagged `replayed: true`).
 */
const GUARDS: Readonly<Record<string, string>> = {
  guardAiSdkTools: `${SPEC}/adapters/ai-sdk`,
  guardOpenAIAgentsTools: `${SPEC}/adapters/openai-agents`,
  guardLangChainTools: `${SPEC}/adapters/langchain`,
  guardMastraTools: `${SPEC}/adapters/mastra`,
};
/**
 * The guard `@retrysafe/spec` has for a framework's own tools, by the adapter module it is in
 * (`@retrysafe/spec/adapters/ai-sdk` → `guardAiSdkTools`), if it has one. Inside the guarded call
 * `currentCall()?.key` is the call's key.
 */
export function getGuardOfAdapter(module: string): string | undefined {
  return Object.keys(GUARDS).find((guard) => GUARDS[guard] === module);
}

/**
 * The spec calls that set `currentCall()` for each tool call they run: the guards, and an MCP
 * server's `enableIdempotency` (docs/mcp.md). Anywhere else `currentCall()` is `undefined`.
 */
export const CURRENT_CALL_SETTERS: readonly string[] = [...Object.keys(GUARDS), 'enableIdempotency'];
// `runner.call` and `runner.tryCall` (the call that resolves with `{ ok, ... }`, getting-started's loop).
const RUNNER_METHODS = new Set(['call', 'tryCall']);
/** A receiver named like a runner (`runner`, `this.runner`, `dedupRunner`) in a file that imports the spec. */
const RUNNER_NAME = /runner$/i;

/** `enableIdempotency(server, { runner })` from the spec's MCP adapter: keyed `tools/call` requests replay. */
export interface IdempotentServer {
  readonly node: TSESTree.CallExpression;
  /** The server, followed through `const`s (compare it with {@link getRegisteringServer}). */
  readonly server: TSESTree.Node;
  readonly runner: TSESTree.Node | undefined;
  /** Options chosen by a conditional whose branches do not name the same runner (see {@link RunnerUse}). */
  readonly runnerConditional?: TSESTree.Node;
}

/** `enableIdempotency(server, { runner })`, if `node` is one. */
export function getIdempotentServer(sourceCode: SourceCode, node: TSESTree.CallExpression): IdempotentServer | undefined {
  const exported = specExport(sourceCode, node.callee);
  const [server, options] = node.arguments;
  if (exported?.module !== `${SPEC}/adapters/mcp` || exported.name !== 'enableIdempotency' || !server) return undefined;
  return { node, server: resolveConst(sourceCode, server), ...findRunnerOption(sourceCode, options) };
}

/**
 * The `runner` of an options argument, followed through `const`s. Options chosen by a conditional
 * (`flag ? { runner, scope } : { runner }`) or by `??` / `||` name it when every branch names the
 * same runner binding; otherwise the runner is not known, and the conditional is returned so that
 * a reason can name what was seen.
 */
function findRunnerOption(sourceCode: SourceCode, options: TSESTree.Node | undefined, depth = 0): { runner: TSESTree.Node | undefined; runnerConditional?: TSESTree.Node } {
  const value = options && resolveConst(sourceCode, options);
  const branches =
    value?.type === AST_NODE_TYPES.ConditionalExpression ? [value.consequent, value.alternate]
    : value?.type === AST_NODE_TYPES.LogicalExpression && value.operator !== '&&' ? [value.left, value.right]
    : undefined;
  if (!value || !branches) return { runner: findProperty(resolveObject(sourceCode, options), 'runner')?.value };
  const found = depth < 4 ? branches.map((branch) => findRunnerOption(sourceCode, branch, depth + 1)) : [];
  const runners = found.map((branch) => (branch.runnerConditional ? undefined : branch.runner));
  const [first] = runners;
  const same = first !== undefined && runners.length === branches.length && runners.every((runner) => runner !== undefined && isSameBinding(sourceCode, runner, first));
  return same ? { runner: first } : { runner: undefined, runnerConditional: value };
}

/** Whether two expressions name one binding (`runner` and `runner`), or resolve to one construction. */
function isSameBinding(sourceCode: SourceCode, a: TSESTree.Node, b: TSESTree.Node): boolean {
  if (resolveConst(sourceCode, a) === resolveConst(sourceCode, b)) return true;
  const left = skipWrappers(a);
  const right = skipWrappers(b);
  if (left.type !== AST_NODE_TYPES.Identifier || right.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariableOf(left, sourceCode);
  return variable !== undefined && variable === findVariableOf(right, sourceCode);
}

/**
 * The server an MCP registration (`server.registerTool(...)`, `server.tool(...)`) is made on,
 * followed through `const`s, so that it can be matched with an `enableIdempotency(server, ...)`.
 */
export function getRegisteringServer(sourceCode: SourceCode, registration: TSESTree.Node): TSESTree.Node | undefined {
  if (registration.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = skipWrappers(registration.callee, { optionalChains: true });
  return callee.type === AST_NODE_TYPES.MemberExpression ? resolveConst(sourceCode, callee.object) : undefined;
}

/** Whether the file imports any part of `@retrysafe/spec`: otherwise nothing here can match. */
export function mayUseRunners(sourceCode: SourceCode): boolean {
  for (const module of getImportedModules(sourceCode)) if (module === SPEC || module.startsWith(`${SPEC}/`)) return true;
  return false;
}

/** The spec export a callee names, with its module, if it is one. */
function specExport(sourceCode: SourceCode, callee: TSESTree.Node): { module: string; name: string } | undefined {
  const reference = resolveReference(sourceCode, callee);
  if (!reference || reference.path.length !== 1 || !(reference.source === SPEC || reference.source.startsWith(`${SPEC}/`))) return undefined;
  return { module: reference.source, name: reference.path[0] as string };
}

/** `createRunner({ store })`, if `node` is one. */
export function getRunnerConstruction(sourceCode: SourceCode, node: TSESTree.CallExpression): RunnerConstruction | undefined {
  const exported = specExport(sourceCode, node.callee);
  if (exported?.module !== SPEC || exported.name !== 'createRunner') return undefined;
  const storeNode = findProperty(resolveObject(sourceCode, node.arguments[0]), 'store')?.value;
  return { node, storeNode, store: storeNode && getStoreConstruction(sourceCode, storeNode) };
}

/** The store an expression holds, followed through `const`s, when its construction is visible. */
export function getStoreConstruction(sourceCode: SourceCode, expression: TSESTree.Node): StoreConstruction | undefined {
  const value = resolveConst(sourceCode, expression);
  if (value.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const exported = specExport(sourceCode, value.callee);
  const factory = exported && STORE_FACTORIES[exported.name];
  if (!factory || factory.module !== exported.module) return undefined;
  const allowVolatile = factory.kind === 'redis' ? readAllowVolatile(sourceCode, value) : undefined;
  return {
    kind: factory.kind,
    durable: factory.kind !== 'memory' && !isInMemorySqlite(sourceCode, value),
    ...(allowVolatile ? { allowVolatile: allowVolatile.value, allowVolatileNode: allowVolatile.node } : {}),
    node: value,
  };
}

/**
 * `createRedisStore({ allowVolatile })`, read through the options' spreads of visible objects:
 * `true`; `'unknown'` when the options or the value are not visible (a parameter, a call's result);
 * `undefined` when it is `false` or not given.
 */
function readAllowVolatile(sourceCode: SourceCode, call: TSESTree.CallExpression): { value: true | 'unknown'; node: TSESTree.Node } | undefined {
  const [options] = call.arguments;
  if (!options) return undefined;
  const object = resolveObject(sourceCode, options);
  if (!object) return { value: 'unknown', node: options };
  const found = findPropertyThroughSpreads(sourceCode, object, 'allowVolatile');
  if (found === undefined) return undefined;
  if (found === null) return { value: 'unknown', node: object };
  const value = getStaticValueOf(found.sourceCode, found.property.value);
  // A value in another file (a spread of an imported object) is named by the options here.
  const node = found.sourceCode === sourceCode ? found.property.value : object;
  return value === true ? { value: true, node } : value === false ? undefined : { value: 'unknown', node };
}

/** `createSqliteStore({ path: ':memory:' })`, or a `database` opened on `':memory:'`. */
function isInMemorySqlite(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  const options = resolveObject(sourceCode, call.arguments[0]);
  if (staticString(sourceCode, findProperty(options, 'path')?.value) === ':memory:') return true;
  const database = findProperty(options, 'database')?.value;
  const opened = database && resolveConst(sourceCode, database);
  return opened?.type === AST_NODE_TYPES.NewExpression && staticString(sourceCode, opened.arguments[0]) === ':memory:';
}

/** `runner.call(tool, …)` or an adapter call (`toAiSdkTool(tool, { runner })`), if `node` is one. */
export function getRunnerUse(sourceCode: SourceCode, node: TSESTree.CallExpression): RunnerUse | undefined {
  const callee = skipWrappers(node.callee, { optionalChains: true });
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const method = getStaticPropertyName(callee);
    const [tool] = node.arguments;
    if (method === undefined || !RUNNER_METHODS.has(method) || !tool || node.arguments.length < 2) return undefined;
    return isRunnerExpression(sourceCode, callee.object) ? { via: `runner.${method}`, node, tool, collection: false, runner: callee.object } : undefined;
  }
  const exported = specExport(sourceCode, callee);
  if (exported && GUARDS[exported.name] === exported.module && node.arguments[0]) {
    return { via: exported.name, node, tool: node.arguments[0], collection: true, ...findRunnerOption(sourceCode, node.arguments[1]) };
  }
  const adapter = exported && ADAPTERS[exported.name];
  if (!adapter || adapter.module !== exported.module) return undefined;
  const tool = node.arguments[adapter.toolArgument];
  if (!tool) return undefined;
  return { via: exported.name, node, tool, collection: false, ...findRunnerOption(sourceCode, node.arguments[adapter.toolArgument + 1]) };
}

/** A `createRunner(...)` result (followed through `const`s), or a value named like a runner. */
function isRunnerExpression(sourceCode: SourceCode, node: TSESTree.Node): boolean {
  const value = resolveConst(sourceCode, node);
  if (value.type === AST_NODE_TYPES.CallExpression && getRunnerConstruction(sourceCode, value)) return true;
  const chain = getMemberChain(node);
  const last = chain && (chain.length > 1 ? chain.at(-1) : chain[0].name);
  return typeof last === 'string' && RUNNER_NAME.test(last);
}
