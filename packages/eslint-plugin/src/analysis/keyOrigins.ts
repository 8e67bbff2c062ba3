import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { containsNode, findProperty, type FunctionNode, getStaticPropertyName, importsSpecPackage, resolveLocalFunction, resolveReference, skipWrappers, SPEC_PACKAGE, staticString } from '../ast/index.js';
import { createValueTracer, type AllowedSource } from '../keys/index.js';

// Where a key part's value comes from when the tool's own code does not settle it (the seed's
// "derived from durable state, not from anything regenerated at resume time"):
// - the run `openRun(store, { kind, id })` of `@retrysafe/spec` opens: its `id` is made once per
//   origin and stored, so it is the same on a resume or a redelivery when the origin's id is;
// - a parameter of the function that makes the tool (`function makeRefundTool(run) { return tool({
//   ... run.id ... }) }`): what it is depends on each call of that factory, which the audit reads
//   (describeFactoryArgument) in whichever file makes it.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** A part's leaf that is not settled in the tool's own code. */
export type KeyPartOrigin =
  | {
      /** A parameter of a function around the tool's definition: a factory's. */
      readonly kind: 'factoryParameter';
      /** The parameter's use, and what the leaf reads as written (`run.id`, `runId`). */
      readonly node: TSESTree.Node;
      readonly text: string;
      readonly factory: FunctionNode;
      /** The parameter's position in the factory's parameter list. */
      readonly index: number;
      /**
       * The property path below the argument that the leaf reads (`['id']` for `run.id` with `run`
       * the parameter, `['runId']` for a destructured `{ runId }`); `undefined` when the parameter's
       * shape cannot be read back (a nested pattern, a rest element).
       */
      readonly path: readonly string[] | undefined;
    }
  | {
      /** `run.id` of a run `openRun(...)` opens in this file. */
      readonly kind: 'openRun';
      readonly node: TSESTree.Node;
      readonly call: TSESTree.CallExpression;
    };

/** What a factory call passes where its factory's parameter is read (see {@link describeFactoryArgument}). */
export type FactoryArgument =
  | { readonly k: 'runId'; readonly call: TSESTree.CallExpression }
  | { readonly k: 'run'; readonly call: TSESTree.CallExpression }
  | { readonly k: 'literal'; readonly node: TSESTree.Node }
  | { readonly k: 'object'; readonly props: Readonly<Record<string, FactoryArgument>> }
  | { readonly k: 'random'; readonly node: TSESTree.Node; readonly description: string }
  | { readonly k: 'other'; readonly node: TSESTree.Node };

const MAX_DEPTH = 6;

/**
 * The `openRun(...)` call of `@retrysafe/spec` whose result `node` is (`run` bound by `const run =
 * await openRun(store, origin)`, or the call itself), if any, when that run's origin id is a
 * literal or a parameter's field (`job.id`, `message.MessageId`): a run opened from a random or
 * clock id is a new run on every start.
 */
export function getOpenedRun(sourceCode: SourceCode, expression: TSESTree.Node): TSESTree.CallExpression | undefined {
  if (!importsSpecPackage(sourceCode)) return undefined;
  let node = skipWrappers(expression, { optionalChains: true, awaits: true });
  if (node.type === AST_NODE_TYPES.Identifier) {
    const variable = ASTUtils.findVariable(sourceCode.getScope(node), node);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init || def.node.parent.kind !== 'const') return undefined;
    node = skipWrappers(def.node.init, { optionalChains: true, awaits: true });
  }
  if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const reference = resolveReference(sourceCode, node.callee);
  if (reference?.source !== SPEC_PACKAGE || reference.path.length !== 1 || reference.path[0] !== 'openRun') return undefined;
  return isDurableOrigin(sourceCode, node.arguments[1]) ? node : undefined;
}

/** An origin `{ kind, id }` whose id is a literal, a template of them, or a field of a parameter (the job, the message). */
function isDurableOrigin(sourceCode: SourceCode, origin: TSESTree.Node | undefined): boolean {
  const object = origin && skipWrappers(origin);
  if (object?.type !== AST_NODE_TYPES.ObjectExpression) return false;
  const id = findProperty(object, 'id')?.value;
  return id !== undefined && isOriginIdLeaf(sourceCode, id, 0);
}

function isOriginIdLeaf(sourceCode: SourceCode, expression: TSESTree.Node, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const node = skipWrappers(expression, { optionalChains: true });
  switch (node.type) {
    case AST_NODE_TYPES.Literal:
      return true;
    case AST_NODE_TYPES.TemplateLiteral:
      return node.expressions.every((part) => isOriginIdLeaf(sourceCode, part, depth + 1));
    case AST_NODE_TYPES.MemberExpression:
      return !node.computed && isOriginIdLeaf(sourceCode, node.object, depth + 1);
    case AST_NODE_TYPES.Identifier: {
      const variable = ASTUtils.findVariable(sourceCode.getScope(node), node);
      const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      if (def?.type === 'Parameter') return true;
      return def?.type === 'Variable' && def.node.parent.kind === 'const' && def.node.init !== null && isOriginIdLeaf(sourceCode, def.node.init, depth + 1);
    }
    default:
      return false;
  }
}

/**
 * What `expression`, an argument of a call of a tool factory, is where the factory reads it: the run
 * `openRun` opens (`run`), its id (`run.id`), a literal, an object of those (`{ runId: run.id }`),
 * a random, clock or per-attempt source the key tracer names, or something else (`other`).
 */
export function describeFactoryArgument(sourceCode: SourceCode, expression: TSESTree.Node, allowedSources: readonly AllowedSource[] = [], depth = 0): FactoryArgument {
  const node = skipWrappers(expression, { optionalChains: true, awaits: true });
  if (depth > MAX_DEPTH) return { k: 'other', node };
  if (node.type === AST_NODE_TYPES.ObjectExpression) {
    const props: Record<string, FactoryArgument> = {};
    for (const property of node.properties) {
      if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
      const name = property.key.type === AST_NODE_TYPES.Identifier ? property.key.name : staticString(sourceCode, property.key);
      if (name !== undefined) props[name] = describeFactoryArgument(sourceCode, property.value, allowedSources, depth + 1);
    }
    return { k: 'object', props };
  }
  if (node.type === AST_NODE_TYPES.Literal || (node.type === AST_NODE_TYPES.TemplateLiteral && node.expressions.length === 0)) return { k: 'literal', node };
  if (node.type === AST_NODE_TYPES.MemberExpression && getStaticPropertyName(node) === 'id') {
    const run = getOpenedRun(sourceCode, node.object);
    if (run) return { k: 'runId', call: run };
  }
  const run = getOpenedRun(sourceCode, node);
  if (run) return { k: 'run', call: run };
  const source = createValueTracer(sourceCode, { allowedSources }).findSource(node);
  if (source) return { k: 'random', node: source.node, description: source.description };
  return { k: 'other', node };
}

/**
 * The factory-parameter origin of `identifier`, a parameter of `fn` (a function around the tool's
 * definition), read with the member path `members` below it (`run.id`: `['id']`).
 */
export function factoryParameterOrigin(node: TSESTree.Identifier, identifier: TSESTree.Identifier, fn: FunctionNode, members: readonly string[]): KeyPartOrigin {
  const text = [node.name, ...members].join('.');
  for (const [index, parameter] of fn.params.entries()) {
    const pattern = parameter.type === AST_NODE_TYPES.AssignmentPattern ? parameter.left : parameter;
    if (pattern === identifier) return { kind: 'factoryParameter', node, text, factory: fn, index, path: members };
    if (pattern.type !== AST_NODE_TYPES.ObjectPattern || !containsNode(pattern, identifier)) continue;
    const property = pattern.properties.find(
      (candidate): candidate is TSESTree.Property =>
        candidate.type === AST_NODE_TYPES.Property &&
        !candidate.computed &&
        (candidate.value === identifier || (candidate.value.type === AST_NODE_TYPES.AssignmentPattern && candidate.value.left === identifier)),
    );
    const key = property?.key.type === AST_NODE_TYPES.Identifier ? property.key.name : undefined;
    return { kind: 'factoryParameter', node, text, factory: fn, index, path: key === undefined ? undefined : [key, ...members] };
  }
  return { kind: 'factoryParameter', node, text, factory: fn, index: -1, path: undefined };
}


/** The function a call names: one of this file (a declaration, a `const` arrow, a class's constructor), or an export of a relative import. */
export type CalledFunction = { readonly k: 'local'; readonly fn: FunctionNode } | { readonly k: 'import'; readonly from: string; readonly name: string };

/**
 * What `call` calls, when it is a function the audit can match to a factory of a tool: a local
 * function (for `new`, the class's constructor), or a named (or namespace member) import from a
 * relative module.
 */
export function getCalledFunction(sourceCode: SourceCode, call: TSESTree.CallExpression | TSESTree.NewExpression): CalledFunction | undefined {
  const callee = skipWrappers(call.callee, { optionalChains: true });
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const fn = call.type === AST_NODE_TYPES.NewExpression ? localConstructor(sourceCode, callee) : resolveLocalFunction(callee, sourceCode);
    if (fn) return { k: 'local', fn };
  }
  const reference = resolveReference(sourceCode, callee);
  if (!reference?.source.startsWith('.') || reference.path.length !== 1) return undefined;
  return { k: 'import', from: reference.source, name: reference.path[0] as string };
}

/** The constructor of the class a name is declared as in this file. */
function localConstructor(sourceCode: SourceCode, name: TSESTree.Identifier): FunctionNode | undefined {
  const variable = ASTUtils.findVariable(sourceCode.getScope(name), name);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  return def?.type === 'ClassName' && (def.node.type === AST_NODE_TYPES.ClassDeclaration || def.node.type === AST_NODE_TYPES.ClassExpression) ? constructorOf(def.node) : undefined;
}

function constructorOf(node: TSESTree.ClassDeclaration | TSESTree.ClassExpression): FunctionNode | undefined {
  const method = node.body.body.find((member): member is TSESTree.MethodDefinition => member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor');
  return method?.value.type === AST_NODE_TYPES.FunctionExpression ? method.value : undefined;
}

/**
 * `this.run` (read with `members` below it) in a class whose constructor takes `run`: a parameter
 * property (`constructor(private readonly run: RunContext)`) or a parameter it assigns
 * (`this.run = run`). The class is then the tool's factory (`new RefundTools(run)`). `undefined`
 * where `this` is not the instance (a plain function rebinds it) or the field is not a parameter.
 */
export function thisFieldOrigin(node: TSESTree.MemberExpression, name: string, members: readonly string[]): KeyPartOrigin | undefined {
  if (node.object.type !== AST_NODE_TYPES.ThisExpression) return undefined;
  const owner = instanceClassOf(node);
  const fn = owner && constructorOf(owner);
  if (!fn) return undefined;
  const text = ['this', name, ...members].join('.');
  for (const [index, parameter] of fn.params.entries()) {
    const own = parameter.type === AST_NODE_TYPES.TSParameterProperty ? parameter.parameter : undefined;
    const identifier = own?.type === AST_NODE_TYPES.AssignmentPattern ? own.left : own;
    if (identifier?.type === AST_NODE_TYPES.Identifier && identifier.name === name) return { kind: 'factoryParameter', node, text, factory: fn, index, path: members };
  }
  const assigned = assignedParameter(fn, name);
  if (!assigned) return undefined;
  const origin = factoryParameterOrigin(assigned, assigned, fn, members);
  return { ...origin, node, text } as KeyPartOrigin;
}

/** The class whose instance `this` is at `node`: through arrows, up to a field initialiser or a method. */
function instanceClassOf(node: TSESTree.Node): TSESTree.ClassDeclaration | TSESTree.ClassExpression | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.PropertyDefinition || current.type === AST_NODE_TYPES.MethodDefinition) {
      const owner = current.parent.parent;
      return !current.static && (owner.type === AST_NODE_TYPES.ClassDeclaration || owner.type === AST_NODE_TYPES.ClassExpression) ? owner : undefined;
    }
    if (current.type === AST_NODE_TYPES.FunctionExpression && current.parent.type === AST_NODE_TYPES.MethodDefinition) continue;
    if (current.type === AST_NODE_TYPES.FunctionExpression || current.type === AST_NODE_TYPES.FunctionDeclaration) return undefined;
  }
  return undefined;
}

/** The plain parameter a constructor assigns to `this.<name>` at its top level (`this.run = run`), if it is the only assignment there. */
function assignedParameter(fn: FunctionNode, name: string): TSESTree.Identifier | undefined {
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return undefined;
  const values = fn.body.body.flatMap((statement) => {
    const expression = statement.type === AST_NODE_TYPES.ExpressionStatement ? statement.expression : undefined;
    if (expression?.type !== AST_NODE_TYPES.AssignmentExpression || expression.operator !== '=') return [];
    const target = expression.left;
    const assigns = target.type === AST_NODE_TYPES.MemberExpression && target.object.type === AST_NODE_TYPES.ThisExpression && !target.computed && target.property.type === AST_NODE_TYPES.Identifier && target.property.name === name;
    return assigns ? [expression.right] : [];
  });
  const [value] = values;
  if (values.length !== 1 || value?.type !== AST_NODE_TYPES.Identifier) return undefined;
  return fn.params.find((parameter): parameter is TSESTree.Identifier => parameter.type === AST_NODE_TYPES.Identifier && parameter.name === value.name);
}
