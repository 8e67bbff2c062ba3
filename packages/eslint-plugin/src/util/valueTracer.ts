import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { type FunctionNode, getReturnedExpressions, isFunctionNode, skipWrappers } from './astNodes.js';
import { type BindingPath, getBindingPath } from './bindingPaths.js';
import { getClassMember } from './classMembers.js';
import { getStaticPropertyName, GLOBAL_SOURCE, resolveReference } from './imports.js';
import { resolveLocalFunction } from './localFunctions.js';
import {
  type AllowedSource,
  describeNode,
  getBindingSource,
  getNondeterministicSource,
  isAllowedSource,
  isGeneratedIdCallee,
  isPerAttemptSubfield,
  type NondeterministicSource,
  type SourceContext,
} from './nondeterministicSources.js';
import { isPersistedBeforeUse } from './persistence.js';
import { getPropertyKeyName } from './staticValues.js';

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

/** Creates a tracer for one file. */
export function createValueTracer(sourceCode: Readonly<TSESLint.SourceCode>, options: ValueTracerOptions = {}): ValueTracer {
  const environment: Environment = {
    sourceCode,
    allowedSources: options.allowedSources ?? [],
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
  };
  return { findSource: (expression) => new Trace(environment).at(expression) };
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

  /** Values that are read from somewhere: bindings, members, calls, literals. */
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
      default:
        return this.operation(node, path);
    }
  }

  /** Values computed from others: operators, conditionals, assignments, and wrappers that pass a value on. */
  private operation(node: TSESTree.Node, path: PropertyPath): Found {
    switch (node.type) {
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
    const sourceCode = this.env.sourceCode;
    const variable = ASTUtils.findVariable(sourceCode.getScope(node), node);
    if (!variable || variable.defs.length === 0) return undefined;
    const found = this.definitions(variable, path) ?? (path.length === 0 ? getBindingSource(variable, node, sourceCode) : undefined);
    if (found && isPersistedBeforeUse(variable, node, sourceCode)) return undefined;
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
    if (isGeneratedIdCallee(node.callee, this.env)) return { kind: 'random', description: describeNode(node, sourceCode), node };
    const fn = resolveLocalFunction(node.callee, sourceCode);
    if (fn) return this.returnsOf(fn, node.arguments, path);
    if (isTransparentCall(node, sourceCode)) return this.first(node.arguments);
    const callee = skipWrappers(node.callee, { optionalChains: true });
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

function isTransparentCall(node: TSESTree.CallExpression, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const reference = resolveReference(sourceCode, node.callee);
  return reference?.source === GLOBAL_SOURCE && TRANSPARENT_GLOBALS.test(reference.path.join('.'));
}

function isGlobalDate(callee: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const reference = resolveReference(sourceCode, callee);
  return reference?.source === GLOBAL_SOURCE && reference.path.join('.') === 'Date';
}

// Re-exported so that every rule can keep importing the tracer's helpers from this one module.
export { type FunctionNode, getReturnedExpressions } from './astNodes.js';
export { isPersistedAt, isPersistingCall } from './persistence.js';
export { getPropertyKeyName } from './staticValues.js';
