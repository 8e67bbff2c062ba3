import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { type FunctionNode, getReturnedExpressions, isFunctionNode, skipWrappers } from './astNodes.js';
import { type BindingPath, getBindingPath } from './bindingPaths.js';
import { getStaticPropertyName, GLOBAL_SOURCE, resolveReference } from './imports.js';
import { resolveLocalFunction } from './localFunctions.js';
import type { ProgramFile } from './programFiles.js';
import { getPropertyKeyName } from './staticValues.js';

// The value tracer follows a value inside one file and gives up where the file ends: at a call of an
// imported function, at an imported value, at a method of an object it cannot see, and at a
// parameter of the function it started in. This walk follows the same local steps (bindings,
// templates, operators, helpers of the file with arguments mapped to parameters, object literals by
// property) and hands each of those stopping points to a handler, which the type-aware analysis uses
// to cross into the other file. It does not recognise sources itself: the handler's `value` hook runs
// the file's tracer where a fresh value is reached.

/** Property names (or array indexes) below a value: `['key']` for `req.key`. */
export type PropertyPath = readonly string[];

/** A parameter the walk reached outside any call it was following. */
export interface ParameterReference {
  readonly fn: FunctionNode;
  /** The argument index it receives (a `this` parameter is not counted). */
  readonly index: number;
  /** A rest parameter receives every argument from `index` on. */
  readonly rest: boolean;
  /** Where in the argument the value is: `['key']` for `function f(opts) { return opts.key }`. */
  readonly path: PropertyPath;
}

/** What a walk does where the file ends. Each returns a result to stop the walk, or `undefined`. */
export interface BoundaryHandler<T> {
  /** A call this file cannot resolve: an imported function, a member of an import, a method. */
  call(walk: ValueWalk<T>, node: TSESTree.CallExpression, path: PropertyPath): T | undefined;
  /** A read of an imported binding, with the property path read below it. */
  imported(walk: ValueWalk<T>, node: TSESTree.Identifier, path: PropertyPath): T | undefined;
  /** A parameter of a function that the walk did not enter through a call. */
  parameter(walk: ValueWalk<T>, parameter: ParameterReference): T | undefined;
  /** A value reached whole (no property path left): where the file's own tracer should look. */
  value?(walk: ValueWalk<T>, node: TSESTree.Node): T | undefined;
}

interface CallFrame {
  readonly fn: FunctionNode;
  readonly args: readonly TSESTree.CallExpressionArgument[];
}

/** Total nodes one walk may visit. */
const MAX_STEPS = 1000;
const MAX_ACTIVE = 40;
const VALUE_OPERATORS = new Set(['+', '-', '*', '/', '%', '**', '|', '&', '^', '<<', '>>', '>>>']);

/** One walk through one file. Use {@link ValueWalk.enter} to start; handlers may call it again. */
export class ValueWalk<T> {
  private steps = 0;
  private readonly active = new Set<TSESTree.Node>();
  private readonly frames: CallFrame[] = [];

  constructor(
    readonly file: ProgramFile,
    private readonly handler: BoundaryHandler<T>,
  ) {}

  /** Walks `node` (read at `path`); a value reached whole is first shown to the `value` hook. */
  enter(node: TSESTree.Node, path: PropertyPath = []): T | undefined {
    if (path.length === 0 && this.handler.value) {
      const found = this.handler.value(this, node);
      if (found !== undefined) return found;
    }
    return this.at(node, path);
  }

  /** Walks `node` without showing it to the `value` hook first (it has been looked at already). */
  at(node: TSESTree.Node | null | undefined, path: PropertyPath = []): T | undefined {
    if (!node || this.active.has(node) || this.active.size >= MAX_ACTIVE || ++this.steps > MAX_STEPS) return undefined;
    this.active.add(node);
    try {
      return this.visit(node, path);
    } finally {
      this.active.delete(node);
    }
  }

  private first(nodes: readonly (TSESTree.Node | null)[], path: PropertyPath = []): T | undefined {
    for (const node of nodes) {
      const found = this.at(node, path);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  private visit(node: TSESTree.Node, path: PropertyPath): T | undefined {
    switch (node.type) {
      case AST_NODE_TYPES.Identifier:
        return this.identifier(node, path);
      case AST_NODE_TYPES.MemberExpression:
        return this.member(node, path);
      case AST_NODE_TYPES.CallExpression:
        return this.call(node, path);
      case AST_NODE_TYPES.ObjectExpression:
        return this.object(node, path);
      case AST_NODE_TYPES.ArrayExpression:
        return path.length > 0 ? this.select(node.elements[Number(path[0])], path.slice(1)) : this.first(node.elements);
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
        return this.at(node.right, path);
      case AST_NODE_TYPES.SequenceExpression:
        return this.at(node.expressions[node.expressions.length - 1], path);
      case AST_NODE_TYPES.UnaryExpression:
        return node.operator === '-' || node.operator === '+' || node.operator === '~' ? this.at(node.argument) : undefined;
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

  /** A value picked out of a literal by its path: shown to the `value` hook once the path is used up. */
  private select(node: TSESTree.Node | null | undefined, path: PropertyPath): T | undefined {
    return node ? this.enter(node, path) : undefined;
  }

  private identifier(node: TSESTree.Identifier, path: PropertyPath): T | undefined {
    const variable = ASTUtils.findVariable(this.file.sourceCode.getScope(node), node);
    const def = variable?.defs[0];
    if (!variable || !def) return undefined;
    switch (def.type) {
      case 'ImportBinding':
        return this.handler.imported(this, node, path);
      case 'Parameter':
        return isFunctionNode(def.node) ? this.parameter(def.name, def.node, path) : undefined;
      case 'Variable':
        for (const reference of variable.references) {
          if (!reference.isWrite() || !reference.writeExpr) continue;
          const binding = getBindingPath(reference.identifier);
          const found = this.defaults(binding, path) ?? this.at(reference.writeExpr, [...binding.steps, ...path]);
          if (found !== undefined) return found;
        }
        return undefined;
      default:
        return undefined;
    }
  }

  /** A parameter is its default, or the argument of the call being followed, or a boundary. */
  private parameter(name: TSESTree.Node, fn: FunctionNode, path: PropertyPath): T | undefined {
    const binding = getBindingPath(name);
    const fromDefault = this.defaults(binding, path);
    if (fromDefault !== undefined) return fromDefault;
    const fullPath = [...binding.steps, ...path];
    const index = fn.params.indexOf(binding.root as TSESTree.Parameter) - getThisParameterCount(fn);
    const rest = binding.root.type === AST_NODE_TYPES.RestElement;
    const frameIndex = this.frames.findLastIndex((frame) => frame.fn === fn);
    if (frameIndex === -1) return this.handler.parameter(this, { fn, index, rest, path: fullPath });
    const args = this.frames[frameIndex]?.args ?? [];
    // Arguments are evaluated by the caller: walk them outside the callee's frame.
    const inner = this.frames.splice(frameIndex);
    try {
      return rest ? this.first(args.slice(index)) : this.argument(args[index], fullPath);
    } finally {
      this.frames.push(...inner);
    }
  }

  /** An argument of a call, read at `path`; a spread gives no path. */
  argument(argument: TSESTree.CallExpressionArgument | undefined, path: PropertyPath): T | undefined {
    if (!argument) return undefined;
    return argument.type === AST_NODE_TYPES.SpreadElement ? this.at(argument.argument) : this.enter(argument, path);
  }

  private defaults(binding: BindingPath, path: PropertyPath): T | undefined {
    for (const fallback of binding.defaults) {
      const found = this.at(fallback.value, [...fallback.steps, ...path]);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  private member(node: TSESTree.MemberExpression, path: PropertyPath): T | undefined {
    // Class state (`this.x`) is the tracer's to read, within the class.
    if (node.object.type === AST_NODE_TYPES.ThisExpression) return undefined;
    const name = getStaticPropertyName(node);
    return this.at(node.object, name === undefined ? [] : [name, ...path]);
  }

  private call(node: TSESTree.CallExpression, path: PropertyPath): T | undefined {
    // A function of this file (declaration, `const` arrow, class method, object-literal helper).
    const local = resolveLocalFunction(node.callee, this.file.sourceCode);
    if (local) return this.returnsOf(local, node.arguments, path);
    const callee = skipWrappers(node.callee, { optionalChains: true });
    if (callee.type === AST_NODE_TYPES.Identifier) {
      const def = ASTUtils.findVariable(this.file.sourceCode.getScope(callee), callee)?.defs[0];
      // A global (`String(id)`, `encodeURIComponent(id)`): the result derives from the arguments.
      if (!def) return this.first(node.arguments);
      return def.type === 'ImportBinding' ? this.handler.call(this, node, path) : undefined;
    }
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const reference = resolveReference(this.file.sourceCode, callee);
    if (reference?.source === GLOBAL_SOURCE) return this.first(node.arguments);
    if (reference) return this.handler.call(this, node, path);
    // `id.toString()`, `key.slice(0, 8)`: the receiver flows into the result; then the method itself,
    // which may be declared in another file (`client.newKey()`).
    const fromReceiver = callee.object.type === AST_NODE_TYPES.ThisExpression ? undefined : this.at(callee.object);
    if (fromReceiver !== undefined) return fromReceiver;
    if (getStaticPropertyName(callee) === 'concat') {
      const fromArguments = this.first(node.arguments);
      if (fromArguments !== undefined) return fromArguments;
    }
    return this.handler.call(this, node, path);
  }

  private returnsOf(fn: FunctionNode, args: readonly TSESTree.CallExpressionArgument[], path: PropertyPath): T | undefined {
    if (fn.generator) return undefined;
    this.frames.push({ fn, args });
    try {
      return this.first(getReturnedExpressions(fn, this.file.sourceCode), path);
    } finally {
      this.frames.pop();
    }
  }

  private object(node: TSESTree.ObjectExpression, path: PropertyPath): T | undefined {
    const [head, ...rest] = path;
    if (head === undefined) {
      return this.first(node.properties.map((property) => (property.type === AST_NODE_TYPES.Property ? property.value : property)));
    }
    // Later properties and spreads override earlier ones, so look from the end.
    for (const property of [...node.properties].reverse()) {
      if (property.type === AST_NODE_TYPES.SpreadElement) {
        const found = this.at(property.argument, path);
        if (found !== undefined) return found;
      } else if (getPropertyKeyName(property, this.file.sourceCode) === head) {
        return property.kind === 'init' && !property.method ? this.select(property.value, rest) : undefined;
      }
    }
    return undefined;
  }
}

/** Whether a callee is an imported binding or a member of one (`send`, `http.send`), not a local or a global. */
export function isImportReference(sourceCode: ProgramFile['sourceCode'], callee: TSESTree.Node): boolean {
  const reference = resolveReference(sourceCode, skipWrappers(callee, { optionalChains: true }));
  return reference !== undefined && reference.source !== GLOBAL_SOURCE;
}

/** `function f(this: T, a)`: TypeScript's `this` parameter takes no argument. */
export function getThisParameterCount(fn: FunctionNode): number {
  const [first] = fn.params;
  return first?.type === AST_NODE_TYPES.Identifier && first.name === 'this' ? 1 : 0;
}
