import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  describeNode,
  ExpressionWalk,
  findVariableOf,
  getClassMember,
  getStaticPropertyName,
  GLOBAL_SOURCE,
  isFunctionNode,
  type ParameterReference,
  type PropertyPath,
  resolveLocalFunction,
  resolveReference,
  skipWrappers,
} from '../ast/index.js';
import { getNondeterministicSource } from './nondeterministicSources.js';
import { getBindingSource, getPerInvocationParameterSource, isPerAttemptSubfield } from './perAttemptSources.js';
import { isPersistedBeforeUse } from './persistence.js';
import { isGeneratedIdCallee } from './randomAndClockSources.js';
import { isAllowedSource } from './replayStableSources.js';
import type { AllowedSource, NondeterministicSource, SourceContext } from './sourceTypes.js';

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

type Found = NondeterministicSource | undefined;

interface Environment extends SourceContext {
  readonly maxDepth: number;
}

const DEFAULT_MAX_DEPTH = 40;
/** Total nodes one trace may visit: a guard against exponential fan-out in large expressions. */
const MAX_STEPS = 2000;
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

/**
 * One trace: the local steps of {@link ExpressionWalk}, looking at every node for a source first.
 * It stops where the file ends (imports, parameters of the function it started in).
 */
class Trace extends ExpressionWalk<NondeterministicSource> {
  constructor(private readonly env: Environment) {
    super(env.sourceCode, { maxDepth: env.maxDepth, maxSteps: MAX_STEPS });
  }

  protected override step(node: TSESTree.Node, path: PropertyPath): Found {
    return this.source(node, path) ?? this.visit(node, path);
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

  /** `new Date(value)` is derived from `value`; `new Date()` itself is a source (see {@link source}). */
  protected newExpression(node: TSESTree.NewExpression): Found {
    return isGlobalDate(node.callee, this.sourceCode) ? this.first(node.arguments) : undefined;
  }

  protected identifier(node: TSESTree.Identifier, path: PropertyPath): Found {
    const variable = findVariableOf(node, this.sourceCode);
    if (!variable || variable.defs.length === 0) return undefined;
    const found = this.definitions(variable, path) ?? (path.length === 0 ? getBindingSource(variable, node, this.sourceCode) : undefined);
    if (found && isPersistedBeforeUse(variable, node, this.sourceCode)) return undefined;
    return found;
  }

  private definitions(variable: TSESLint.Scope.Variable, path: PropertyPath): Found {
    const def = variable.defs[0];
    if (def?.type === 'Parameter') return isFunctionNode(def.node) ? this.parameter(def.name, def.node, path) : undefined;
    return def?.type === 'Variable' ? this.variable(variable, path) : undefined;
  }

  /**
   * Where the trace started: a parameter is a value from the caller, not a source, except a
   * framework's per-invocation id handed to a tool's handler (`config.runId` in a LangChain tool).
   */
  protected unfollowedParameter(parameter: ParameterReference): Found {
    return getPerInvocationParameterSource(parameter, this.sourceCode);
  }

  protected thisMember(node: TSESTree.MemberExpression, name: string, path: PropertyPath): Found {
    const member = getClassMember(node, name, this.sourceCode);
    if (!member) return undefined;
    if (member.increment) return { kind: 'counter', description: `this.${name}`, node: member.increment };
    const fromGetter = member.getter ? this.returnsOf(member.getter, [], path) : undefined;
    return fromGetter ?? this.first(member.values, path);
  }

  protected call(node: TSESTree.CallExpression, path: PropertyPath): Found {
    const sourceCode = this.sourceCode;
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
}

function isTransparentCall(node: TSESTree.CallExpression, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const reference = resolveReference(sourceCode, node.callee);
  return reference?.source === GLOBAL_SOURCE && TRANSPARENT_GLOBALS.test(reference.path.join('.'));
}

function isGlobalDate(callee: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const reference = resolveReference(sourceCode, callee);
  return reference?.source === GLOBAL_SOURCE && reference.path.join('.') === 'Date';
}
