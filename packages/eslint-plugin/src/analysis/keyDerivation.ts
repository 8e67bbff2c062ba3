import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { isCurrentCallKey, isFunctionNode, isSpecKeyCallee, resolveLocalFunction, skipWrappers, walk, containsNode } from '../ast/index.js';
import {
  type AllowedSource,
  type ConstantFallback,
  type ConstantKey,
  createValueTracer,
  findConstantKey,
  findPositionFallback,
  getKeyPositions,
  isPersistedAt,
  type KeyNameMatcher,
  type KeyPosition,
  type NondeterministicSource,
} from '../keys/index.js';
import type { ToolDefinition } from '../tools/index.js';
import { createProviderRecogniser, findPassedKey, getKeyedHandler, isForeignKey, type KeyedProvider, type KeyedProviderCall, type PassedKey } from '../effects/index.js';
import { factoryParameterOrigin, getOpenedRun, type KeyPartOrigin, thisFieldOrigin } from './keyOrigins.js';

// How a tool derives its idempotency key, for the seed's second audit question ("Is the key derived
// deterministically from the work?"): the key positions the tool's definition and handler fill,
// each traced as `no-random-key` traces it. A key is called deterministic only with evidence: every
// leaf of it is a literal, a parameter (the input, the run) or a part of the spec's `key` template,
// whose parts `tsc` holds to `Durable`.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** One part a key is built from. */
export interface KeyPart {
  readonly node: TSESTree.Node;
  /** Whether the part is visibly derived from the work (a literal, a parameter or a field of one, a `const` holding one, `vouchDurable(…)`, the `id` of a run `openRun` opens; a `key` template part is judged the same way). */
  readonly derived: boolean;
  /**
   * Leaves of a derived part that the tool's own code does not settle: a parameter of the factory
   * that makes the tool (whose calls say what it is), or the id of a run `openRun(...)` opens in
   * the file (keyOrigins.ts).
   */
  readonly origins: readonly KeyPartOrigin[];
  /**
   * The constant the part falls back to when its real key is missing, making the whole key one
   * constant for every such call (`currentCall()?.key ?? ''`, `input.key || 'refund'`), as
   * `no-random-key` reports it; `undefined` when it has none (keys/constantFallbacks.ts).
   */
  readonly constantFallback: ConstantFallback | undefined;
  /**
   * The string constant the whole key is (`idempotencyKey: 'refund'`, `const KEY = 'refund-key'`,
   * a `key` function returning one): one key for every call, as `require-key-passthrough` reports it
   * in a with_key handler (`constantKey`); `undefined` for anything else, and for a position whose
   * constant is meant (a durable engine's step id, `step.run('refund', ...)`, an envelope's id) or is
   * a part of the spec's `key` template, not the whole key.
   */
  readonly constantKey: ConstantKey | undefined;
}

/** The positions whose value is the whole key a provider or the runner dedupes on, so a constant there is one key for every call. */
const WHOLE_KEY_POSITIONS: ReadonlySet<KeyPosition['kind']> = new Set(['property', 'classField', 'memberAssignment', 'headerCall', 'headerEntry', 'toolKey']);

/** What {@link describeKeyDerivation} found. */
export interface KeyDerivation {
  /**
   * `nondeterministic`: a part comes from a random, clock, per-attempt or counter source;
   * `deterministic`: every part is visibly derived from the work; `unknown`: a part comes from
   * something the analysis cannot follow (an import, a call into another module); `none`: the tool
   * fills no key position.
   */
  readonly status: 'deterministic' | 'none' | 'nondeterministic' | 'unknown';
  readonly positions: readonly KeyPosition[];
  readonly parts: readonly KeyPart[];
  readonly sources: readonly NondeterministicSource[];
}

/** What the key analysis needs: the key names and replay-stable sources in force (the key rules' options). */
export interface KeyDerivationOptions {
  readonly matchKeyName: KeyNameMatcher;
  readonly allowedSources?: readonly AllowedSource[];
}

/**
 * The key positions inside a tool's definition (a `defineTool` `key` function, a key property in
 * its config) and its handler (a provider call's `idempotencyKey`, an `Idempotency-Key` header), and
 * whether the key they make is deterministic.
 */
export function describeKeyDerivation(sourceCode: SourceCode, tool: ToolDefinition, options: KeyDerivationOptions): KeyDerivation {
  const context = { sourceCode, matchKeyName: options.matchKeyName };
  const found: KeyPosition[] = [];
  for (const root of toolRoots(sourceCode, tool)) {
    walk(root, sourceCode, (node) => {
      found.push(...getKeyPositions(node, context));
      return true;
    });
    found.push(...getKeyPositions(root, context));
  }
  // A schema field named like a key (`inputSchema: { idempotencyKey: z.string() }`) declares the
  // input, it does not build a key.
  const schema = tool.inputSchema;
  const positions = schema ? found.filter((position) => !containsNode(schema, position.value)) : found;
  if (positions.length === 0) return { status: 'none', positions, parts: [], sources: [] };
  const tracer = createValueTracer(sourceCode, { allowedSources: options.allowedSources ?? [] });
  // As the key rules judge a key: a value stored before it is used (a get-or-create) is durable.
  const sources = positions
    .filter((position) => !isPersistedAt(position.value, sourceCode))
    .map((position) => tracer.findSource(position.value))
    .filter((found) => found !== undefined);
  // A part of the spec's `key` tag is judged like any other: tsc checks that it is `Durable`, but a
  // module value (`process.env.SUFFIX ?? 'x'`) is not, and without types the audit cannot say it is.
  const parts = positions.map((position): KeyPart => {
    const origins: KeyPartOrigin[] = [];
    const derived = isDerived({ sourceCode, tool: tool.node, origins }, position.value, [], 0);
    const constantKey = WHOLE_KEY_POSITIONS.has(position.kind) ? findConstantKey(position.value, sourceCode) : undefined;
    return { node: position.value, derived, origins: derived ? origins : [], constantFallback: findPositionFallback(position, sourceCode), constantKey };
  });
  const status = sources.length > 0 ? 'nondeterministic' : parts.every((part) => part.derived) ? 'deterministic' : 'unknown';
  return { status, positions: dedupe(positions), parts, sources };
}

/** A call to a keyed provider (Stripe, fetch, axios, undici, a configured provider) in a tool, and the key it passes. */
export interface ProviderKey {
  readonly call: KeyedProviderCall;
  readonly passed: PassedKey;
  /**
   * The key passed is visibly not the tool's key (`idempotencyKey: orderId` in a with_key tool's
   * handler, require-key-passthrough's `foreignKey`): the provider's record is then of another key.
   */
  readonly foreign: boolean;
}

/**
 * The keyed provider calls in a tool's definition and handler, each with whether it passes a key:
 * a provider that dedupes by the key keeps a record of its own (Stripe keeps keys for 24 hours),
 * which holds even when the tool's own record is lost (the seed: "pass the key through to the
 * downstream provider if it supports one").
 */
export function findProviderKeys(
  sourceCode: SourceCode,
  tool: ToolDefinition,
  options: KeyDerivationOptions & { readonly providers?: readonly KeyedProvider[] },
): ProviderKey[] {
  const recognise = createProviderRecogniser(sourceCode, options.providers ?? []);
  const handler = getKeyedHandler(tool, sourceCode);
  const found: ProviderKey[] = [];
  for (const root of toolRoots(sourceCode, tool)) {
    walk(root, sourceCode, (node) => {
      const call = node.type === AST_NODE_TYPES.CallExpression ? recognise(node) : undefined;
      if (!call) return true;
      const passed = findPassedKey(call, sourceCode, options.matchKeyName);
      const foreign = passed.kind === 'passed' && handler !== undefined && containsNode(handler.fn, call.node) && isForeignKey(passed.value, handler, sourceCode, options.matchKeyName);
      found.push({ call, passed, foreign });
      return true;
    });
  }
  return found;
}

/** The definition itself, and the handler when it is a function elsewhere in the file. */
function toolRoots(sourceCode: SourceCode, tool: ToolDefinition): TSESTree.Node[] {
  const roots: TSESTree.Node[] = [tool.node];
  const handler = tool.handler && resolveLocalFunction(tool.handler, sourceCode);
  if (handler && !containsNode(tool.node, handler)) roots.push(handler);
  return roots;
}


function dedupe(positions: readonly KeyPosition[]): KeyPosition[] {
  const seen = new Set<TSESTree.Node>();
  return positions.filter((position) => !seen.has(position.value) && seen.add(position.value));
}

const MAX_DEPTH = 8;

/** The tool whose key is judged, and the origins found on the way (see {@link KeyPart.origins}). */
interface DeriveContext {
  readonly sourceCode: SourceCode;
  readonly tool: TSESTree.Node;
  readonly origins: KeyPartOrigin[];
}

/**
 * Whether every leaf of `node` is a literal, a parameter or a field of one (`input.orderId`,
 * `run.id`), a spec `key`/`vouchDurable` construction, the `id` of a run `openRun` opens, or a
 * `const` holding one of those. `members` is the property path read below `expression`.
 */
function isDerived(context: DeriveContext, expression: TSESTree.Node, members: readonly string[], depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const { sourceCode } = context;
  const node = skipWrappers(expression, { optionalChains: true, awaits: true });
  const derived = (child: TSESTree.Node): boolean => isDerived(context, child, [], depth + 1);
  switch (node.type) {
    case AST_NODE_TYPES.Literal:
      return true;
    case AST_NODE_TYPES.TemplateLiteral:
      return node.expressions.every(derived);
    case AST_NODE_TYPES.TaggedTemplateExpression:
      return isSpecKeyCallee(sourceCode, node.tag);
    case AST_NODE_TYPES.BinaryExpression:
      return node.operator === '+' && derived(node.left) && derived(node.right);
    case AST_NODE_TYPES.MemberExpression: {
      // The runner's key for the call (docs/frameworks.md passes it downstream); a handler's `ctx.key` is a field of a parameter.
      if (isCurrentCallKey(sourceCode, node)) return true;
      const name = node.property.type === AST_NODE_TYPES.Identifier ? node.property.name : undefined;
      if (node.computed || name === undefined) return false;
      // `this.run.id` in a class whose constructor takes the run: the class makes the tool (`new RefundTools(run)`).
      const field = node.object.type === AST_NODE_TYPES.ThisExpression ? thisFieldOrigin(node, name, members) : undefined;
      if (field) context.origins.push(field);
      return field !== undefined || isDerived(context, node.object, [name, ...members], depth + 1);
    }
    case AST_NODE_TYPES.CallExpression:
      return isSpecKeyCallee(sourceCode, node.callee) || isStringConversion(context, node, depth) || isOpenedRunId(context, node, members);
    case AST_NODE_TYPES.Identifier:
      return isDerivedBinding(context, node, members, depth);
    default:
      return false;
  }
}

function isDerivedBinding(context: DeriveContext, node: TSESTree.Identifier, members: readonly string[], depth: number): boolean {
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(node), node);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type === 'Parameter') {
    if (!isFunctionNode(def.node)) return false;
    // A parameter of a function around the definition is a factory's: its calls say what it is.
    if (containsNode(def.node, context.tool)) {
      context.origins.push(def.name.type === AST_NODE_TYPES.Identifier ? factoryParameterOrigin(node, def.name, def.node, members) : { kind: 'factoryParameter', node, text: [node.name, ...members].join('.'), factory: def.node, index: -1, path: undefined });
    }
    return true;
  }
  if (def?.type !== 'Variable' || !def.node.init || def.node.parent.kind !== 'const') return false;
  const path = bindingPath(def.node.id, def.name, members);
  if (path && isOpenedRunId(context, def.node.init, path)) return true;
  return isDerived(context, def.node.init, path ?? [], depth + 1);
}

/** The path below a declarator's init that `name` reads: `members` for `const x = ...`, `['a', ...members]` for `const { a: x } = ...`. */
function bindingPath(id: TSESTree.BindingName, name: TSESTree.Identifier, members: readonly string[]): readonly string[] | undefined {
  if (id === name) return members;
  if (id.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  const property = id.properties.find((candidate): candidate is TSESTree.Property => candidate.type === AST_NODE_TYPES.Property && candidate.value === name);
  return property && !property.computed && property.key.type === AST_NODE_TYPES.Identifier ? [property.key.name, ...members] : undefined;
}

/** `run.id` (read as `members` `['id']` below `node`) with `node` the run `openRun(...)` opens, or `await openRun(...)` itself. */
function isOpenedRunId(context: DeriveContext, node: TSESTree.Node, members: readonly string[]): boolean {
  if (members.length !== 1 || members[0] !== 'id') return false;
  const call = getOpenedRun(context.sourceCode, node);
  if (!call) return false;
  context.origins.push({ kind: 'openRun', node, call });
  return true;
}

/** `String(x)` and `x.toString()` of a derived value. */
function isStringConversion(context: DeriveContext, call: TSESTree.CallExpression, depth: number): boolean {
  const callee = call.callee;
  if (callee.type === AST_NODE_TYPES.Identifier && callee.name === 'String' && call.arguments[0]) {
    return isDerived(context, call.arguments[0], [], depth + 1);
  }
  return (
    callee.type === AST_NODE_TYPES.MemberExpression &&
    !callee.computed &&
    callee.property.type === AST_NODE_TYPES.Identifier &&
    callee.property.name === 'toString' &&
    isDerived(context, callee.object, [], depth + 1)
  );
}
