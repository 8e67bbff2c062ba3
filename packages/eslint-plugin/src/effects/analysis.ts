import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { type FunctionNode, getInstanceMethod, isFunctionNode, isNodeOfFile, walk } from '../ast/index.js';
import { createKeyNameMatcher, type KeyNameMatcher } from '../keys/index.js';
import { resolveLocalFunction } from '../ast/index.js';
import type { EffectLibrary } from './libraries/index.js';
import { type ChainLookup, getChain, type LibraryLookup } from './chains.js';
import type { CrossFileResolver, ForeignNode } from './crossFile.js';
import { describeEffects, type FoundEffect } from './effectsOfCall.js';
import { isPureCall } from './pureCalls.js';
import { createLibraryLookup, recogniseChain } from './recognise.js';
import { sqlTextEffects } from './sqlTextCalls.js';
import { BUILT_IN_LIBRARIES } from './libraries/index.js';
import { bindParameters, bindString, decideEquality, EMPTY_ENV, type Env, follow, followString } from './values.js';

// The effects analysis: given a tool's handler, every effect operation it reaches through its own
// body, the local functions and same-file helpers it calls (their parameters bound to the
// arguments), constants and destructured clients, with each operation's kind, library, text, node
// and, for creates, whether a deduplication key is passed. A call counts only with evidence the
// analysis can name (an import of the library, a client built from it, a typed parameter, the SQL
// text itself, a global such as `fetch`); every other call is unknown and reports nothing.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** What a handler does, as far as the analysis can see. */
export interface HandlerEffects {
  /** Every catalogued operation the handler reaches, in source order of discovery. */
  readonly effects: readonly FoundEffect[];
  /**
   * Whether every call the handler reaches is known: a catalogued operation or neutral call, a
   * local function followed, or a built-in that touches nothing outside the process. Only then can
   * "it only reads" be said.
   */
  readonly complete: boolean;
  /**
   * A call the handler makes with a deduplication key (`store.get(idempotencyKey)`, a SELECT by
   * `idempotency_key`): the handler consults a key before it acts, so a create it reaches may be
   * deduplicated by code the analysis does not read.
   */
  readonly keyLookup: TSESTree.Node | undefined;
}

/** Options of the analysis: extra libraries (the `libraries` rule option) and key names. */
export interface EffectsOptions {
  readonly libraries?: readonly EffectLibrary[];
  readonly keyNames?: readonly string[];
  /**
   * Where an import leads, for the type-aware analysis: an imported helper or client is then read
   * in the file that declares it, and the effects found there carry that file's name. Without it,
   * an import is unknown (the syntactic rules' analysis).
   */
  readonly crossFile?: CrossFileResolver | undefined;
}

export interface EffectsAnalyser {
  /**
   * The effects of a handler: a function, an expression naming one in this file, or a low-level MCP
   * tool's branch of its CallTool handler (then `toolName` is the tool's name, which the branch's
   * `switch (name)` variable holds while it runs).
   */
  analyseHandler(handler: TSESTree.Node, toolName?: string): HandlerEffects | undefined;
}

const MAX_FOLLOW_DEPTH = 5;
const lookupsByLibraries = new WeakMap<readonly EffectLibrary[], { all: readonly EffectLibrary[]; lookup: LibraryLookup }>();

/** Builds the analyser for one file; handlers are analysed once each. */
export function createEffectsAnalyser(sourceCode: SourceCode, options: EffectsOptions = {}): EffectsAnalyser {
  const libraries = options.libraries ?? [];
  const { lookup: libraryOf } = catalogueFor(libraries);
  const lookup: ChainLookup = { libraryOf, crossFile: options.crossFile };
  const matchKeyName = createKeyNameMatcher(options.keyNames ?? []);
  const cache = options.crossFile ? new Map<string | undefined, HandlerCache>() : sharedCache(sourceCode, libraries, options.keyNames ?? []);
  return {
    analyseHandler(handler, toolName) {
      let byNode = cache.get(toolName);
      if (!byNode) cache.set(toolName, (byNode = new Map()));
      if (!byNode.has(handler)) byNode.set(handler, analyse(sourceCode, handler, lookup, matchKeyName, toolName));
      return byNode.get(handler);
    },
  };
}

type HandlerCache = Map<TSESTree.Node, HandlerEffects | undefined>;

/** No configured libraries: every rule's own empty default stands for the same catalogue. */
const NO_LIBRARIES: readonly EffectLibrary[] = [];
const sharedCaches = new WeakMap<SourceCode, Map<readonly EffectLibrary[], Map<string, Map<string | undefined, HandlerCache>>>>();

/**
 * The answers of the syntactic analysis for one file, libraries and key names, shared by every rule
 * that analyses handlers (no-contradicted-policy, require-retry-policy's suggestions,
 * no-misleading-idempotent-hint): a handler is analysed once per file, not once per rule. The
 * answer depends on nothing else (the type-aware analysis, which follows imports, keeps its own).
 */
function sharedCache(sourceCode: SourceCode, libraries: readonly EffectLibrary[], keyNames: readonly string[]): Map<string | undefined, HandlerCache> {
  let byLibraries = sharedCaches.get(sourceCode);
  if (!byLibraries) sharedCaches.set(sourceCode, (byLibraries = new Map()));
  const librariesKey = libraries.length === 0 ? NO_LIBRARIES : libraries;
  let byKeyNames = byLibraries.get(librariesKey);
  if (!byKeyNames) byLibraries.set(librariesKey, (byKeyNames = new Map()));
  const keyNamesKey = keyNames.join('\n');
  let cache = byKeyNames.get(keyNamesKey);
  if (!cache) byKeyNames.set(keyNamesKey, (cache = new Map()));
  return cache;
}

/** The built-in catalogue with the configured libraries first (they may say more about a module). */
function catalogueFor(libraries: readonly EffectLibrary[]): { all: readonly EffectLibrary[]; lookup: LibraryLookup } {
  let found = lookupsByLibraries.get(libraries);
  if (!found) {
    const all = [...libraries, ...BUILT_IN_LIBRARIES];
    found = { all, lookup: createLibraryLookup(all) };
    lookupsByLibraries.set(libraries, found);
  }
  return found;
}

function analyse(sourceCode: SourceCode, handler: TSESTree.Node, lookup: ChainLookup, matchKeyName: KeyNameMatcher, toolName: string | undefined): HandlerEffects | undefined {
  const fn = handlerFunction(sourceCode, handler) ?? (isBranch(handler) ? handler : undefined);
  if (!fn) return undefined;
  const state: WalkState = {
    sourceCode,
    fileName: undefined,
    lookup,
    matchKeyName,
    effects: [],
    seen: new Map(),
    complete: true,
    keyLookups: [],
    dead: new Set(),
    visiting: new Set(),
  };
  visitFunction(state, fn, branchEnv(sourceCode, fn, toolName), [], 0);
  // A create that passes its own key is not a lookup of one.
  const creates = new Set(state.effects.filter((effect) => effect.kind === 'create').map((effect) => effect.node));
  const keyLookup = state.keyLookups.find((node) => !creates.has(node));
  return { effects: state.effects, complete: state.complete, keyLookup };
}

/** In a `case` of `switch (name)`, `name` is the tool's own name (`case 'a': case 'b': …` runs for both). */
function branchEnv(sourceCode: SourceCode, branch: TSESTree.Node, toolName: string | undefined): Env {
  const discriminant = branch.type === AST_NODE_TYPES.SwitchCase && branch.parent.type === AST_NODE_TYPES.SwitchStatement ? branch.parent.discriminant : undefined;
  if (toolName === undefined || discriminant?.type !== AST_NODE_TYPES.Identifier) return EMPTY_ENV;
  const variable = ASTUtils.findVariable(sourceCode.getScope(discriminant), discriminant);
  return variable ? bindString(EMPTY_ENV, variable, toolName) : EMPTY_ENV;
}

/** A low-level MCP tool's branch of its CallTool handler: a `case` or a block. */
function isBranch(node: TSESTree.Node): boolean {
  return node.type === AST_NODE_TYPES.SwitchCase || node.type === AST_NODE_TYPES.BlockStatement || node.type === AST_NODE_TYPES.ExpressionStatement || node.type === AST_NODE_TYPES.ReturnStatement;
}

/** A function, a `const` naming one, or a wrapper's function argument (`withAuth(async (args) => …)`). */
function handlerFunction(sourceCode: SourceCode, handler: TSESTree.Node): FunctionNode | undefined {
  const value = follow(sourceCode, handler, EMPTY_ENV).node;
  if (isFunctionNode(value)) return value;
  if (value.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const functions = value.arguments.filter((argument): argument is FunctionNode & TSESTree.CallExpressionArgument => isFunctionNode(argument));
  return functions.length === 1 ? functions[0] : undefined;
}

interface WalkState {
  /** The file being walked: the handler's, or (type-aware) the one an imported helper is declared in. */
  sourceCode: SourceCode;
  /** That file's name when it is not the handler's; effects found there carry it. */
  fileName: string | undefined;
  readonly lookup: ChainLookup;
  readonly matchKeyName: KeyNameMatcher;
  readonly effects: FoundEffect[];
  /** The nodes of the effects listed so far, with what each was listed as. */
  readonly seen: Map<TSESTree.Node, Set<string>>;
  complete: boolean;
  readonly keyLookups: TSESTree.Node[];
  /** Statements after a branch that decidedly returns, under the bindings of the current call. */
  dead: Set<TSESTree.Node>;
  /** Functions on the current path of helper calls, so that recursion stops. */
  readonly visiting: Set<FunctionNode>;
}

function visitFunction(state: WalkState, fn: FunctionNode | TSESTree.Node, env: Env, through: readonly TSESTree.Node[], depth: number): void {
  if (isFunctionNode(fn)) state.visiting.add(fn);
  const outer = state.dead;
  state.dead = new Set();
  walk(fn, state.sourceCode, (node) => visitNode(state, node, env, through, depth));
  state.dead = outer;
  if (isFunctionNode(fn)) state.visiting.delete(fn);
}

/** Visits one node; returns whether the walk should go on into its children. */
function visitNode(state: WalkState, node: TSESTree.Node, env: Env, through: readonly TSESTree.Node[], depth: number): boolean {
  if (state.dead.has(node)) return false;
  if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression || node.type === AST_NODE_TYPES.TaggedTemplateExpression) {
    if (isChainTop(node)) visitInvocation(state, node, env, through, depth);
    if (node.type !== AST_NODE_TYPES.TaggedTemplateExpression) noteKeyLookup(state, node);
  }
  // A helper shared by several tools (`handle(action, args)` with `if (action === 'send')`): under
  // the bindings of this call, only the branch that runs counts.
  if (node.type === AST_NODE_TYPES.IfStatement || node.type === AST_NODE_TYPES.ConditionalExpression) {
    const decided = decideEquality(state.sourceCode, node.test, env);
    if (decided !== undefined) {
      const live = decided ? node.consequent : node.alternate;
      for (const part of [node.test, live]) {
        if (part && visitNode(state, part, env, through, depth)) walk(part, state.sourceCode, (child) => visitNode(state, child, env, through, depth));
      }
      // `if (action === 'send') return …;`: what follows in the block does not run either.
      if (node.type === AST_NODE_TYPES.IfStatement && node.consequent === live && terminates(node.consequent)) {
        const siblings = node.parent.type === AST_NODE_TYPES.BlockStatement ? node.parent.body : node.parent.type === AST_NODE_TYPES.SwitchCase ? node.parent.consequent : [];
        for (const later of siblings.slice(siblings.indexOf(node) + 1)) state.dead.add(later);
      }
      return false;
    }
  }
  return true;
}

/** Whether a statement always returns or throws. */
function terminates(statement: TSESTree.Statement): boolean {
  if (statement.type === AST_NODE_TYPES.ReturnStatement || statement.type === AST_NODE_TYPES.ThrowStatement) return true;
  const last = statement.type === AST_NODE_TYPES.BlockStatement ? statement.body.at(-1) : undefined;
  return last !== undefined && terminates(last);
}


function visitInvocation(
  state: WalkState,
  node: TSESTree.CallExpression | TSESTree.NewExpression | TSESTree.TaggedTemplateExpression,
  env: Env,
  through: readonly TSESTree.Node[],
  depth: number,
): void {
  const { sourceCode, lookup } = state;
  // `${sql(fields)}` inside a Postgres.js template is a fragment of that template, not a query.
  if (node.parent.type === AST_NODE_TYPES.TemplateLiteral) return;
  const chain = getChain(sourceCode, node, env, lookup);
  const recognised = chain && recogniseChain(chain, lookup.libraryOf);
  // A chain that starts in another file (`export const db = new Pool()`) counts from its client on:
  // an operation invoked over there is that file's own business.
  if (recognised?.kind === 'operation' && !isNodeOfFile(recognised.node, sourceCode)) {
    state.complete = false;
    return;
  }
  if (recognised?.kind === 'operation') {
    // A result held in a variable and used again (`const rows = await db.query(…); rows.map(…)`)
    // reaches the same operation: list each once.
    // A helper reached under other bindings may do something else (a POST, then a GET): an
    // operation is listed once per kind and text it has.
    for (const effect of inFile(state, describeEffects(sourceCode, recognised, node, through, state.matchKeyName))) {
      const seen = state.seen.get(effect.node) ?? new Set<string>();
      const what = `${effect.kind} ${effect.text} ${effect.keyPassed ?? ''}`;
      if (seen.has(what)) continue;
      state.seen.set(effect.node, seen.add(what));
      state.effects.push(effect);
    }
    return;
  }
  if (recognised?.kind === 'neutral') return;
  if (recognised?.kind === 'unlisted') {
    state.complete = false;
    return;
  }
  if (node.type !== AST_NODE_TYPES.TaggedTemplateExpression) {
    // A logger's file or stream writes are not effects a retry could duplicate in any way that matters.
    if (isLoggerCall(node)) return;
    const helper = resolveLocalFunction(node.callee, sourceCode) ?? resolveInstanceMethod(sourceCode, node.callee, env);
    if (helper && helper.body) {
      if (!state.visiting.has(helper) && depth < MAX_FOLLOW_DEPTH) {
        visitFunction(state, helper, bindParameters(sourceCode, helper, node, env), [...through, node], depth + 1);
      }
      return;
    }
  }
  const sql = sqlTextEffects(sourceCode, node, env, through);
  if (sql) {
    state.effects.push(...inFile(state, sql));
    return;
  }
  const foreign = node.type === AST_NODE_TYPES.CallExpression ? lookup.crossFile?.functionOf(sourceCode, node) : undefined;
  if (foreign && foreign.node.body) {
    if (!state.visiting.has(foreign.node) && depth < MAX_FOLLOW_DEPTH) visitForeignFunction(state, foreign, node as TSESTree.CallExpression, env, [...through, node], depth + 1);
    return;
  }
  if (!isPureCall(sourceCode, node)) state.complete = false;
}

/**
 * An imported helper, read in the file that declares it under that file's SourceCode. Its
 * parameters are bound only to arguments that are static strings here (`run('refund', id)`), so
 * that a shared helper's `if (action === 'refund')` is decided as it is within a file; nothing else
 * of this file's bindings crosses over (a node is only ever read under its own file's scopes).
 */
function visitForeignFunction(
  state: WalkState,
  foreign: ForeignNode<FunctionNode>,
  call: TSESTree.CallExpression,
  env: Env,
  through: readonly TSESTree.Node[],
  depth: number,
): void {
  const [outerSourceCode, outerFileName] = [state.sourceCode, state.fileName];
  let bound: Env = EMPTY_ENV;
  const declared = foreign.sourceCode.getDeclaredVariables(foreign.node);
  for (const [index, param] of foreign.node.params.entries()) {
    const argument = call.arguments[index];
    if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) break;
    const value = param.type === AST_NODE_TYPES.Identifier ? followString(outerSourceCode, argument, env) : undefined;
    const variable = value === undefined ? undefined : declared.find((candidate) => candidate.identifiers.includes(param as TSESTree.Identifier));
    if (variable && value !== undefined) bound = bindString(bound, variable, value);
  }
  state.sourceCode = foreign.sourceCode;
  state.fileName = foreign.fileName;
  try {
    visitFunction(state, foreign.node, bound, through, depth);
  } finally {
    state.sourceCode = outerSourceCode;
    state.fileName = outerFileName;
  }
}

/** The effects found in the file being walked, with its name when it is not the handler's. */
function inFile(state: WalkState, effects: readonly FoundEffect[]): readonly FoundEffect[] {
  const fileName = state.fileName;
  return fileName === undefined ? effects : effects.map((effect) => ({ ...effect, fileName }));
}


/** `client.postMessage(…)` where `client` is `new SlackClient(…)` of a class in this file: that class's method. */
function resolveInstanceMethod(sourceCode: SourceCode, callee: TSESTree.Node, env: Env): FunctionNode | undefined {
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed || callee.property.type !== AST_NODE_TYPES.Identifier) return undefined;
  const instance = follow(sourceCode, callee.object, env).node;
  return instance.type === AST_NODE_TYPES.NewExpression ? getInstanceMethod(instance, callee.property.name, sourceCode) : undefined;
}

/** Names of logging helpers: their writes (a debug file, stderr) are not the tool's effects. */
const LOGGER_NAME = /^(?:log|logs|logger|debug|trace|info|warn|warning|error|verbose|log[A-Z]\w*|\w+Log|\w+Logger)$/;

function isLoggerCall(node: TSESTree.CallExpression | TSESTree.NewExpression): boolean {
  const callee = node.callee;
  const name =
    callee.type === AST_NODE_TYPES.Identifier ? callee.name
    : callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier ? callee.object.name
    : undefined;
  return name !== undefined && LOGGER_NAME.test(name);
}

/** The outermost call of a chain: `db.insert(t).values(v)` is analysed once, from `.values(v)`. */
function isChainTop(node: TSESTree.Node): boolean {
  let current = node;
  while (current.parent?.type === AST_NODE_TYPES.AwaitExpression || current.parent?.type === AST_NODE_TYPES.ChainExpression || current.parent?.type === AST_NODE_TYPES.TSNonNullExpression) {
    current = current.parent;
  }
  const parent = current.parent;
  if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== current) return true;
  // The chain goes on only where the member reads after the call end in a call of their own
  // (`db.collection('x').find().toArray()`, `a.b().c.d()`); reads that end in a value
  // (`(await pool.query(sql)).rows[0]`, `res.data.items`) leave this call the top of its chain.
  let read: TSESTree.Node = parent;
  while (
    (read.parent?.type === AST_NODE_TYPES.MemberExpression && read.parent.object === read) ||
    read.parent?.type === AST_NODE_TYPES.ChainExpression ||
    read.parent?.type === AST_NODE_TYPES.TSNonNullExpression
  ) {
    read = read.parent;
  }
  const user = read.parent;
  const continues = (user?.type === AST_NODE_TYPES.CallExpression && user.callee === read) || (user?.type === AST_NODE_TYPES.TaggedTemplateExpression && user.tag === read);
  return !continues;
}

/** A call given a deduplication key (by name: `idempotencyKey`, `dedupKey`, a header of that family). */
function noteKeyLookup(state: WalkState, node: TSESTree.CallExpression | TSESTree.NewExpression): void {
  if (node.arguments.some((argument) => mentionsKey(argument, state.matchKeyName, 0))) state.keyLookups.push(node);
}

function mentionsKey(node: TSESTree.Node, matchKeyName: KeyNameMatcher, depth: number): boolean {
  if (depth > 3) return false;
  switch (node.type) {
    case AST_NODE_TYPES.Identifier:
      return matchKeyName(node.name) !== undefined;
    case AST_NODE_TYPES.MemberExpression:
      return !node.computed && node.property.type === AST_NODE_TYPES.Identifier && matchKeyName(node.property.name) !== undefined;
    case AST_NODE_TYPES.Literal:
      return typeof node.value === 'string' && /idempotency|dedup/i.test(node.value);
    case AST_NODE_TYPES.TemplateLiteral:
      return node.expressions.some((expression) => mentionsKey(expression, matchKeyName, depth + 1)) || node.quasis.some((quasi) => /idempotency|dedup/i.test(quasi.value.raw));
    case AST_NODE_TYPES.ObjectExpression:
      return node.properties.some(
        (property) =>
          property.type === AST_NODE_TYPES.Property &&
          ((property.key.type === AST_NODE_TYPES.Identifier && matchKeyName(property.key.name) !== undefined) || mentionsKey(property.value, matchKeyName, depth + 1)),
      );
    case AST_NODE_TYPES.ArrayExpression:
      return node.elements.some((element) => element !== null && mentionsKey(element, matchKeyName, depth + 1));
    default:
      return false;
  }
}
