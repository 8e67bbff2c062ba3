import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { getStaticPropertyName, GLOBAL_SOURCE, resolveReference } from './imports.js';
import {
  type AllowedSource,
  describeNode,
  getBindingSource,
  getNondeterministicSource,
  isAllowedSource,
  isGeneratorFactoryCall,
  isIncrementTarget,
  isPerAttemptSubfield,
  type NondeterministicSource,
  type SourceContext,
} from './nondeterministicSources.js';

/** A function whose body the tracer can read: a declaration, an expression or an arrow. */
export type FunctionNode = TSESTree.ArrowFunctionExpression | TSESTree.FunctionDeclaration | TSESTree.FunctionExpression;

/** Options of {@link createValueTracer}. */
export interface ValueTracerOptions {
  /** Replay-stable imports or globals to treat as durable (the rules' `allowedSources` option). */
  readonly allowedSources?: readonly AllowedSource[];
  /** How many nested steps one trace may take before it gives up (default 40). */
  readonly maxDepth?: number;
}

/** Follows values back to where they are produced. Create one per file (per `create` call). */
export interface ValueTracer {
  /**
   * The first non-deterministic source (random, clock, per-attempt, unpersisted counter) that the
   * value of `expression` can come from, or `undefined` when every path ends in something durable
   * or unknown (a parameter, an import, a literal, a call into another module).
   *
   * It follows `const`/`let` bindings and destructuring, template literals, `+` and arithmetic,
   * `String()`, method calls on the value (`.toString()`, `.slice()`, `.toISOString()`), `??`, `||`,
   * `?:`, default parameters, object literals and spreads, class fields and methods (`this.newId()`),
   * and helper functions of the same file (arguments are mapped to parameters). A binding that is
   * handed to a persisting call (`sessionStorage.setItem`, `queue.add`, `db.insert`, ...) before the
   * use being traced is durable (get-or-create), so what it holds is not reported.
   */
  findSource(expression: TSESTree.Node): NondeterministicSource | undefined;
}

type PropertyPath = readonly string[];
type Found = NondeterministicSource | undefined;

interface CallFrame {
  readonly fn: FunctionNode;
  readonly args: readonly TSESTree.CallExpressionArgument[];
}

interface Environment extends SourceContext {
  readonly maxDepth: number;
}

const DEFAULT_MAX_DEPTH = 40;
/** Total nodes one trace may visit: a guard against exponential fan-out in large expressions. */
const MAX_STEPS = 2000;
const VALUE_OPERATORS = new Set(['+', '-', '*', '/', '%', '**', '|', '&', '^', '<<', '>>', '>>>']);
/** Globals whose result is derived from their arguments: `String(id)`, `Math.floor(Date.now() / 1000)`. */
const TRANSPARENT_GLOBALS = /^(String|Number|BigInt|encodeURI|encodeURIComponent|escape|btoa|parseInt|parseFloat|JSON\.stringify|Buffer\.from|Math\.\w+|Number\.parse\w+|Object\.assign)$/;
/** Methods whose arguments flow into the result as much as the receiver does. */
const ARGUMENT_DERIVING_METHODS = new Set(['concat', 'update']);
/** Calls whose result still holds their argument when climbing towards a persisting call. */
const SERIALIZING_CALLS = new Set(['JSON.stringify', 'String', 'structuredClone']);
/** Methods and functions that store what they are given (storage, queues, databases, files). */
const PERSISTING_METHODS = new Set([
  'add', 'enqueue', 'hSet', 'hset', 'insert', 'insertMany', 'insertOne', 'persist', 'put', 'putItem',
  'save', 'set', 'setEx', 'setItem', 'setNX', 'setex', 'setnx', 'store', 'updateData', 'upsert',
  'writeFile', 'writeFileSync',
]);
/** Receivers of `set` that only live in memory or on one request: headers, URL params, `Map`s. */
const IN_MEMORY_RECEIVER = /(headers|params|map)$/i;
const IN_MEMORY_CONSTRUCTORS = new Set(['Headers', 'Map', 'URLSearchParams', 'WeakMap']);

/** Creates a tracer for one file. */
export function createValueTracer(sourceCode: Readonly<TSESLint.SourceCode>, options: ValueTracerOptions = {}): ValueTracer {
  const environment: Environment = {
    sourceCode,
    allowedSources: options.allowedSources ?? [],
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
  };
  return { findSource: (expression) => new Trace(environment).at(expression) };
}

/**
 * Is the value of `node` stored by a persisting call, directly or inside the object, array, template
 * or `JSON.stringify(...)` it is part of? `queue.add('deliver', { deliveryId: nanoid() })` stores the
 * id with the job, so the job's retries all see the same one.
 */
export function isPersistedAt(node: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  let current: TSESTree.Node = node;
  for (let parent = current.parent; parent; current = parent, parent = parent.parent) {
    switch (parent.type) {
      case AST_NODE_TYPES.Property:
        if (parent.value !== current) return false;
        break;
      case AST_NODE_TYPES.MemberExpression:
        if (parent.object !== current) return false;
        break;
      case AST_NODE_TYPES.ObjectExpression:
      case AST_NODE_TYPES.ArrayExpression:
      case AST_NODE_TYPES.TemplateLiteral:
      case AST_NODE_TYPES.SpreadElement:
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
        break;
      case AST_NODE_TYPES.CallExpression: {
        const index = parent.arguments.indexOf(current as TSESTree.CallExpressionArgument);
        if (index === -1) return false;
        if (isPersistingCall(parent, index, sourceCode)) return true;
        if (!isSerializingCall(parent, sourceCode)) return false;
        break;
      }
      default:
        return false;
    }
  }
  return false;
}

/**
 * Does `call` store its argument number `argumentIndex` somewhere that outlives the attempt?
 * `sessionStorage.setItem(k, v)`, `redis.set(k, v)`, `db.insert(row)`, `queue.add(name, data)` (only
 * `data`: BullMQ's third argument is options), but not `headers.set(...)` or a `Map`'s `set`.
 */
export function isPersistingCall(call: TSESTree.CallExpression, argumentIndex: number, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const callee = call.callee;
  const name =
    callee.type === AST_NODE_TYPES.Identifier ? callee.name
    : callee.type === AST_NODE_TYPES.MemberExpression ? getStaticPropertyName(callee)
    : undefined;
  if (name === undefined || !PERSISTING_METHODS.has(name)) return false;
  if (name === 'add') return argumentIndex === 1;
  return callee.type !== AST_NODE_TYPES.MemberExpression || !isInMemoryReceiver(callee.object, sourceCode);
}

/** The expressions a function returns: an arrow's expression body, or every `return x` in its body. */
export function getReturnedExpressions(fn: FunctionNode, sourceCode: Readonly<TSESLint.SourceCode>): TSESTree.Expression[] {
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return [fn.body];
  const returned: TSESTree.Expression[] = [];
  walk(fn.body, sourceCode, (node) => {
    if (isFunctionNode(node) || node.type === AST_NODE_TYPES.ClassBody) return false;
    if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument) returned.push(node.argument);
    return true;
  });
  return returned;
}

/** One trace: the path being followed (cycle guard), the helper calls entered, a step budget. */
class Trace {
  private steps = 0;
  private readonly active = new Set<TSESTree.Node>();
  private readonly frames: CallFrame[] = [];

  constructor(private readonly env: Environment) {}

  at(node: TSESTree.Node | null | undefined, path: PropertyPath = []): Found {
    if (!node || this.active.has(node) || this.active.size >= this.env.maxDepth || ++this.steps > MAX_STEPS) {
      return undefined;
    }
    this.active.add(node);
    try {
      return this.source(node, path) ?? this.visit(node, path);
    } finally {
      this.active.delete(node);
    }
  }

  /**
   * A per-attempt value has no properties worth reading: `attempt.key` reads a record that merely
   * has a per-attempt name (a purchase attempt), except for `attempt.number` and the like.
   */
  private source(node: TSESTree.Node, path: PropertyPath): Found {
    const found = getNondeterministicSource(node, this.env);
    if (found?.kind !== 'perAttempt' || path.length === 0) return found;
    return path.length === 1 && isPerAttemptSubfield(path[0] ?? '') ? found : undefined;
  }

  private first(nodes: readonly (TSESTree.Node | null)[], path: PropertyPath = []): Found {
    for (const node of nodes) {
      const found = this.at(node, path);
      if (found) return found;
    }
    return undefined;
  }

  private visit(node: TSESTree.Node, path: PropertyPath): Found {
    switch (node.type) {
      case AST_NODE_TYPES.Identifier:
        return this.identifier(node, path);
      case AST_NODE_TYPES.MemberExpression:
        return this.member(node, path);
      case AST_NODE_TYPES.CallExpression:
        return this.call(node, path);
      case AST_NODE_TYPES.NewExpression:
        return isGlobalDate(node.callee, this.env.sourceCode) ? this.first(node.arguments) : undefined;
      case AST_NODE_TYPES.ObjectExpression:
        return this.object(node, path);
      case AST_NODE_TYPES.ArrayExpression:
        return path.length > 0 ? this.at(node.elements[Number(path[0])], path.slice(1)) : this.first(node.elements);
      case AST_NODE_TYPES.TemplateLiteral:
        return this.first(node.expressions);
      case AST_NODE_TYPES.TaggedTemplateExpression:
        return this.first(node.quasi.expressions);
      case AST_NODE_TYPES.BinaryExpression:
        return VALUE_OPERATORS.has(node.operator) ? this.first([node.left, node.right]) : undefined;
      case AST_NODE_TYPES.LogicalExpression:
        return this.first([node.left, node.right], path);
      case AST_NODE_TYPES.ConditionalExpression:
        return this.first([node.consequent, node.alternate], path);
      case AST_NODE_TYPES.AssignmentExpression:
        return node.operator === '=' ? this.at(node.right, path) : this.first([node.left, node.right], path);
      case AST_NODE_TYPES.SequenceExpression:
        return this.at(node.expressions[node.expressions.length - 1], path);
      case AST_NODE_TYPES.UnaryExpression:
        return node.operator === '-' || node.operator === '+' || node.operator === '~' ? this.at(node.argument) : undefined;
      case AST_NODE_TYPES.UpdateExpression:
        return this.at(node.argument);
      case AST_NODE_TYPES.AwaitExpression:
      case AST_NODE_TYPES.SpreadElement:
        return this.at(node.argument, path);
      case AST_NODE_TYPES.ChainExpression:
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
        return this.at(node.expression, path);
      default:
        return undefined;
    }
  }

  private identifier(node: TSESTree.Identifier, path: PropertyPath): Found {
    const variable = ASTUtils.findVariable(this.env.sourceCode.getScope(node), node);
    if (!variable || variable.defs.length === 0) return undefined;
    const found = this.definitions(variable, path) ?? (path.length === 0 ? getBindingSource(variable, node, this.env.sourceCode) : undefined);
    if (found && isPersistedBeforeUse(variable, node, this.env.sourceCode)) return undefined;
    return found;
  }

  private definitions(variable: TSESLint.Scope.Variable, path: PropertyPath): Found {
    const def = variable.defs[0];
    if (def?.type === 'Parameter') return isFunctionNode(def.node) ? this.parameter(def.name, def.node, path) : undefined;
    if (def?.type !== 'Variable') return undefined;
    for (const reference of variable.references) {
      if (!reference.isWrite() || !reference.writeExpr) continue;
      const binding = getBindingPath(reference.identifier);
      const found = this.defaults(binding, path) ?? this.at(reference.writeExpr, [...binding.steps, ...path]);
      if (found) return found;
    }
    return undefined;
  }

  /** A parameter is its default, or the argument of the helper call being traced through. */
  private parameter(name: TSESTree.Node, fn: FunctionNode, path: PropertyPath): Found {
    const binding = getBindingPath(name);
    const fromDefault = this.defaults(binding, path);
    if (fromDefault) return fromDefault;
    const frameIndex = this.frames.findLastIndex((frame) => frame.fn === fn);
    const frame = this.frames[frameIndex];
    const argument = frame?.args[fn.params.indexOf(binding.root as TSESTree.Parameter)];
    if (!argument) return undefined;
    // The argument is evaluated by the caller: trace it outside the callee's frame.
    const inner = this.frames.splice(frameIndex);
    try {
      return this.at(argument, argument.type === AST_NODE_TYPES.SpreadElement ? [] : [...binding.steps, ...path]);
    } finally {
      this.frames.push(...inner);
    }
  }

  private defaults(binding: BindingPath, path: PropertyPath): Found {
    for (const fallback of binding.defaults) {
      const found = this.at(fallback.value, [...fallback.steps, ...path]);
      if (found) return found;
    }
    return undefined;
  }

  private member(node: TSESTree.MemberExpression, path: PropertyPath): Found {
    const name = getStaticPropertyName(node);
    if (name === undefined) return this.at(node.object);
    if (node.object.type === AST_NODE_TYPES.ThisExpression) return this.thisMember(node, name, path);
    return this.at(node.object, [name, ...path]);
  }

  private thisMember(node: TSESTree.MemberExpression, name: string, path: PropertyPath): Found {
    const member = getClassMember(node, name, this.env.sourceCode);
    if (!member) return undefined;
    if (member.increment) return { kind: 'counter', description: `this.${name}`, node: member.increment };
    const fromGetter = member.getter ? this.returnsOf(member.getter, [], path) : undefined;
    return fromGetter ?? this.first(member.values, path);
  }

  private call(node: TSESTree.CallExpression, path: PropertyPath): Found {
    const sourceCode = this.env.sourceCode;
    if (isAllowedSource(resolveReference(sourceCode, node.callee), this.env.allowedSources)) return undefined;
    if (this.isGeneratedId(node.callee)) return { kind: 'random', description: describeNode(node, sourceCode), node };
    const fn = this.resolveFunction(node.callee, 0);
    if (fn) return this.returnsOf(fn, node.arguments, path);
    if (isTransparentCall(node, sourceCode)) return this.first(node.arguments);
    const callee = unwrap(node.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const fromReceiver = this.at(callee.object);
    if (fromReceiver) return fromReceiver;
    const method = getStaticPropertyName(callee);
    return method !== undefined && ARGUMENT_DERIVING_METHODS.has(method) ? this.first(node.arguments) : undefined;
  }

  private returnsOf(fn: FunctionNode, args: readonly TSESTree.CallExpressionArgument[], path: PropertyPath): Found {
    if (fn.generator) return undefined;
    this.frames.push({ fn, args });
    try {
      return this.first(getReturnedExpressions(fn, this.env.sourceCode), path);
    } finally {
      this.frames.pop();
    }
  }

  /** `newId()` where `const newId = customAlphabet(...)`, or `customAlphabet(...)()` itself. */
  private isGeneratedId(callee: TSESTree.Node): boolean {
    if (isGeneratorFactoryCall(callee, this.env)) return true;
    if (callee.type !== AST_NODE_TYPES.Identifier) return false;
    const def = ASTUtils.findVariable(this.env.sourceCode.getScope(callee), callee)?.defs[0];
    return def?.type === 'Variable' && def.node.init !== null && isGeneratorFactoryCall(def.node.init, this.env);
  }

  /** The function a callee names in this file: a declaration, a `const` arrow, a class member. */
  private resolveFunction(callee: TSESTree.Node, depth: number): FunctionNode | undefined {
    const node = unwrap(callee);
    if (isFunctionNode(node)) return node;
    if (depth > 4) return undefined;
    if (node.type === AST_NODE_TYPES.Identifier) {
      const def = ASTUtils.findVariable(this.env.sourceCode.getScope(node), node)?.defs[0];
      if (def?.type === 'FunctionName') return def.node as TSESTree.FunctionDeclaration;
      if (def?.type === 'Variable' && def.node.id.type === AST_NODE_TYPES.Identifier && def.node.init) {
        return this.resolveFunction(def.node.init, depth + 1);
      }
      return undefined;
    }
    const name = node.type === AST_NODE_TYPES.MemberExpression ? getStaticPropertyName(node) : undefined;
    if (node.type !== AST_NODE_TYPES.MemberExpression || name === undefined) return undefined;
    if (node.object.type === AST_NODE_TYPES.ThisExpression) {
      const member = getClassMember(node, name, this.env.sourceCode);
      const value = member?.method ?? member?.values[0];
      return value ? this.resolveFunction(value, depth + 1) : undefined;
    }
    // `helpers.newKey()` with `const helpers = { newKey: () => ... }`.
    const object = this.resolveObjectLiteral(node.object);
    const property = object?.properties.find(
      (candidate): candidate is TSESTree.Property =>
        candidate.type === AST_NODE_TYPES.Property && getPropertyKeyName(candidate, this.env.sourceCode) === name,
    );
    return property ? this.resolveFunction(property.value, depth + 1) : undefined;
  }

  private resolveObjectLiteral(node: TSESTree.Node): TSESTree.ObjectExpression | undefined {
    const object = unwrap(node);
    if (object.type === AST_NODE_TYPES.ObjectExpression) return object;
    if (object.type !== AST_NODE_TYPES.Identifier) return undefined;
    const def = ASTUtils.findVariable(this.env.sourceCode.getScope(object), object)?.defs[0];
    const init = def?.type === 'Variable' && def.node.parent.kind === 'const' ? def.node.init : null;
    return init ? (unwrap(init).type === AST_NODE_TYPES.ObjectExpression ? (unwrap(init) as TSESTree.ObjectExpression) : undefined) : undefined;
  }

  private object(node: TSESTree.ObjectExpression, path: PropertyPath): Found {
    const [head, ...rest] = path;
    if (head === undefined) {
      return this.first(node.properties.map((property) => (property.type === AST_NODE_TYPES.Property ? property.value : property)));
    }
    // Later properties and spreads override earlier ones, so look from the end.
    for (const property of [...node.properties].reverse()) {
      if (property.type === AST_NODE_TYPES.SpreadElement) {
        const found = this.at(property.argument, path);
        if (found) return found;
      } else if (getPropertyKeyName(property, this.env.sourceCode) === head) {
        return property.kind === 'init' && !property.method ? this.at(property.value, rest) : undefined;
      }
    }
    return undefined;
  }
}

/** Where a binding sits inside a destructuring pattern, and the defaults on the way. */
interface BindingPath {
  /** The outermost pattern (a parameter, a declarator's `id`, an assignment's left side). */
  readonly root: TSESTree.Node;
  /** Property names / array indexes from the destructured value down to the binding. */
  readonly steps: string[];
  /** Default values, each with the steps that remain below it. */
  readonly defaults: { readonly value: TSESTree.Expression; readonly steps: string[] }[];
}

function getBindingPath(identifier: TSESTree.Node): BindingPath {
  const steps: string[] = [];
  const defaults: { value: TSESTree.Expression; steps: string[] }[] = [];
  let node: TSESTree.Node = identifier;
  for (let parent = node.parent; parent; node = parent, parent = parent.parent) {
    if (parent.type === AST_NODE_TYPES.AssignmentPattern && parent.left === node) {
      defaults.push({ value: parent.right, steps: [...steps] });
    } else if (parent.type === AST_NODE_TYPES.Property && parent.value === node && parent.parent.type === AST_NODE_TYPES.ObjectPattern) {
      steps.unshift(String(getPropertyKeyName(parent) ?? ''));
    } else if (parent.type === AST_NODE_TYPES.ArrayPattern) {
      steps.unshift(String(parent.elements.indexOf(node as TSESTree.DestructuringPattern)));
    } else if (parent.type === AST_NODE_TYPES.RestElement) {
      steps.length = 0;
    } else if (parent.type !== AST_NODE_TYPES.ObjectPattern && parent.type !== AST_NODE_TYPES.TSParameterProperty) {
      break;
    }
  }
  return { root: node, steps, defaults };
}

/**
 * The static name of an object property's key: `a`, `'a'`, `['a']`, `[A]` with `const A = 'a'`.
 * `undefined` for a computed key whose value is not known.
 */
export function getPropertyKeyName(
  property: TSESTree.Property | TSESTree.PropertyDefinition | TSESTree.MethodDefinition,
  sourceCode?: Readonly<TSESLint.SourceCode>,
): string | undefined {
  const key = property.key;
  if (!property.computed && key.type === AST_NODE_TYPES.Identifier) return key.name;
  if (key.type === AST_NODE_TYPES.Literal) return typeof key.value === 'string' || typeof key.value === 'number' ? String(key.value) : undefined;
  if (!sourceCode || !property.computed) return undefined;
  const value = ASTUtils.getStaticValue(key, sourceCode.getScope(key))?.value;
  return typeof value === 'string' ? value : undefined;
}

function isPersistedBeforeUse(variable: TSESLint.Scope.Variable, use: TSESTree.Identifier, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  return variable.references.some(
    (reference) =>
      reference.identifier !== use &&
      reference.identifier.range[0] < use.range[0] &&
      isPersistedAt(reference.identifier, sourceCode),
  );
}

function isInMemoryReceiver(receiver: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const name =
    receiver.type === AST_NODE_TYPES.Identifier ? receiver.name
    : receiver.type === AST_NODE_TYPES.MemberExpression ? getStaticPropertyName(receiver)
    : undefined;
  if (name !== undefined && IN_MEMORY_RECEIVER.test(name)) return true;
  if (receiver.type !== AST_NODE_TYPES.Identifier) return false;
  const def = ASTUtils.findVariable(sourceCode.getScope(receiver), receiver)?.defs[0];
  const init = def?.type === 'Variable' ? def.node.init : null;
  return (
    init?.type === AST_NODE_TYPES.NewExpression &&
    init.callee.type === AST_NODE_TYPES.Identifier &&
    IN_MEMORY_CONSTRUCTORS.has(init.callee.name)
  );
}

function isTransparentCall(node: TSESTree.CallExpression, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const reference = resolveReference(sourceCode, node.callee);
  return reference?.source === GLOBAL_SOURCE && TRANSPARENT_GLOBALS.test(reference.path.join('.'));
}

function isSerializingCall(node: TSESTree.CallExpression, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const reference = resolveReference(sourceCode, node.callee);
  return reference?.source === GLOBAL_SOURCE && SERIALIZING_CALLS.has(reference.path.join('.'));
}

function isGlobalDate(callee: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const reference = resolveReference(sourceCode, callee);
  return reference?.source === GLOBAL_SOURCE && reference.path.join('.') === 'Date';
}

/** What a class says about `this.<name>`: field initialisers and assignments, a getter, a method. */
interface ClassMember {
  readonly values: TSESTree.Expression[];
  getter?: FunctionNode;
  method?: FunctionNode;
  /** A `this.<name>++` / `+= n` somewhere in the class: the member is a counter. */
  increment?: TSESTree.Node;
}

const classMembers = new WeakMap<TSESTree.ClassBody, Map<string, ClassMember>>();

function getClassMember(thisMember: TSESTree.MemberExpression, name: string, sourceCode: Readonly<TSESLint.SourceCode>): ClassMember | undefined {
  const body = getEnclosingClassBody(thisMember);
  if (!body) return undefined;
  let members = classMembers.get(body);
  if (!members) {
    members = indexClassMembers(body, sourceCode);
    classMembers.set(body, members);
  }
  return members.get(name);
}

function indexClassMembers(body: TSESTree.ClassBody, sourceCode: Readonly<TSESLint.SourceCode>): Map<string, ClassMember> {
  const members = new Map<string, ClassMember>();
  const memberOf = (name: string): ClassMember => {
    let member = members.get(name);
    if (!member) members.set(name, (member = { values: [] }));
    return member;
  };
  for (const element of body.body) {
    if (element.type !== AST_NODE_TYPES.PropertyDefinition && element.type !== AST_NODE_TYPES.MethodDefinition) continue;
    if (element.static) continue;
    const name = getPropertyKeyName(element);
    if (name === undefined) continue;
    if (element.type === AST_NODE_TYPES.PropertyDefinition) {
      if (element.value) memberOf(name).values.push(element.value);
    } else if (isFunctionNode(element.value) && (element.kind === 'get' || element.kind === 'method')) {
      memberOf(name)[element.kind === 'get' ? 'getter' : 'method'] = element.value;
    }
  }
  walk(body, sourceCode, (node) => {
    if (node.type !== AST_NODE_TYPES.MemberExpression || node.object.type !== AST_NODE_TYPES.ThisExpression) return true;
    const name = getStaticPropertyName(node);
    if (name === undefined) return true;
    const parent = node.parent;
    if (isIncrementTarget(node)) memberOf(name).increment ??= node;
    else if (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.left === node) memberOf(name).values.push(parent.right);
    return true;
  });
  return members;
}

/** The class whose `this` a `this.x` reads; arrows keep `this`, other functions (but methods) rebind it. */
function getEnclosingClassBody(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ClassBody) return current;
    if (current.type === AST_NODE_TYPES.FunctionDeclaration) return undefined;
    if (
      current.type === AST_NODE_TYPES.FunctionExpression &&
      current.parent.type !== AST_NODE_TYPES.MethodDefinition &&
      current.parent.type !== AST_NODE_TYPES.PropertyDefinition
    ) {
      return undefined;
    }
  }
  return undefined;
}

function unwrap(node: TSESTree.Node): TSESTree.Node {
  switch (node.type) {
    case AST_NODE_TYPES.ChainExpression:
    case AST_NODE_TYPES.TSAsExpression:
    case AST_NODE_TYPES.TSNonNullExpression:
    case AST_NODE_TYPES.TSSatisfiesExpression:
    case AST_NODE_TYPES.TSTypeAssertion:
      return unwrap(node.expression);
    default:
      return node;
  }
}

function isFunctionNode(node: TSESTree.Node): node is FunctionNode {
  return (
    node.type === AST_NODE_TYPES.ArrowFunctionExpression ||
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression
  );
}

/** Visits `root`'s descendants depth first, in source order; `visit` returns false to skip a node's children. */
function walk(root: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>, visit: (node: TSESTree.Node) => boolean): void {
  const pending: TSESTree.Node[] = [root];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node !== root && !visit(node)) continue;
    const children: TSESTree.Node[] = [];
    for (const key of sourceCode.visitorKeys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      for (const child of Array.isArray(value) ? value : [value]) {
        if (typeof child === 'object' && child !== null && typeof (child as { type?: unknown }).type === 'string') {
          children.push(child as TSESTree.Node);
        }
      }
    }
    // The stack pops the last pushed first: push in reverse to keep source order.
    pending.push(...children.reverse());
  }
}
