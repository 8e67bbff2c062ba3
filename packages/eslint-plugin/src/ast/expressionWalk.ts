import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { type BindingPath, getBindingPath } from './bindings.js';
import { getStaticPropertyName } from './imports.js';
import { type FunctionNode, getReturnedExpressions } from './nodes.js';
import { getPropertyKeyName } from './staticValues.js';

// The local steps that follow a value back through one file, shared by the value tracer (which
// looks for a random, clock or per-attempt source at every step) and the cross-file walk (which
// hands the places where the file ends to the type-aware analysis). Each subclass says what an
// identifier, a member read and a call are; the operators, literals, bindings, defaults, object
// properties and helper calls (arguments mapped to parameters) are walked the same way here.

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

/** How far one walk may go: nested steps on the current path, and nodes in all. */
export interface WalkLimits {
  readonly maxDepth: number;
  readonly maxSteps: number;
}

interface CallFrame {
  readonly fn: FunctionNode;
  readonly args: readonly TSESTree.CallExpressionArgument[];
}

const VALUE_OPERATORS = new Set(['+', '-', '*', '/', '%', '**', '|', '&', '^', '<<', '>>', '>>>']);

/**
 * One walk through one file's expressions, from a value back to what it is made of. `T` is what
 * the walk looks for; the first step that finds one ends the walk. A node is walked once per path
 * (a cycle guard), within {@link WalkLimits}.
 */
export abstract class ExpressionWalk<T> {
  private steps = 0;
  private readonly active = new Set<TSESTree.Node>();
  private readonly frames: CallFrame[] = [];

  protected constructor(
    protected readonly sourceCode: Readonly<TSESLint.SourceCode>,
    private readonly limits: WalkLimits,
  ) {}

  /** Walks `node`, whose value is read at `path`. */
  at(node: TSESTree.Node | null | undefined, path: PropertyPath = []): T | undefined {
    const { maxDepth, maxSteps } = this.limits;
    if (!node) return undefined;
    if (this.active.has(node) || this.active.size >= maxDepth || ++this.steps > maxSteps) return this.cutShort();
    this.active.add(node);
    try {
      return this.step(node, path);
    } finally {
      this.active.delete(node);
    }
  }

  /** What one step does: by default, follows the node by its kind ({@link visit}). */
  protected step(node: TSESTree.Node, path: PropertyPath): T | undefined {
    return this.visit(node, path);
  }

  /** An identifier: a binding of this file, an import, a parameter, a global. */
  protected abstract identifier(node: TSESTree.Identifier, path: PropertyPath): T | undefined;
  /** A call: a helper of this file ({@link returnsOf}), a method, an import. */
  protected abstract call(node: TSESTree.CallExpression, path: PropertyPath): T | undefined;
  /** `this.name`, read at `path`: the subclass's to follow, or not. */
  protected abstract thisMember(node: TSESTree.MemberExpression, name: string, path: PropertyPath): T | undefined;
  /** A parameter of a function the walk did not enter through a call. */
  protected abstract unfollowedParameter(parameter: ParameterReference): T | undefined;

  /** `new X(...)`, read at `path`. */
  protected abstract newExpression(node: TSESTree.NewExpression, path: PropertyPath): T | undefined;

  /**
   * Where the walk stops without looking: a node already on the current path (a cycle), or past
   * the {@link WalkLimits}. Nothing is found there by default.
   */
  protected cutShort(): T | undefined {
    return undefined;
  }

  /**
   * A node whose value the walk does not follow (a `typeof`, a function, `this`, an operator it does
   * not know). Nothing is found there by default; a walk that must see every part of a value says
   * it could not.
   */
  protected opaque(): T | undefined {
    return undefined;
  }

  /** A value picked out of a literal by its path (an array element, an object property). */
  protected selected(node: TSESTree.Node | null | undefined, path: PropertyPath): T | undefined {
    return this.at(node, path);
  }

  /** Values that are read from somewhere: bindings, members, calls, literals. */
  protected visit(node: TSESTree.Node, path: PropertyPath): T | undefined {
    switch (node.type) {
      case AST_NODE_TYPES.Identifier:
        return this.identifier(node, path);
      case AST_NODE_TYPES.MemberExpression:
        return this.member(node, path);
      case AST_NODE_TYPES.CallExpression:
        return this.call(node, path);
      case AST_NODE_TYPES.NewExpression:
        return this.newExpression(node, path);
      case AST_NODE_TYPES.ObjectExpression:
        return this.object(node, path);
      case AST_NODE_TYPES.ArrayExpression:
        return path.length > 0 ? this.selected(node.elements[Number(path[0])], path.slice(1)) : this.first(node.elements);
      case AST_NODE_TYPES.TemplateLiteral:
        return this.first(node.expressions);
      case AST_NODE_TYPES.TaggedTemplateExpression:
        return this.first(node.quasi.expressions);
      default:
        return this.operation(node, path);
    }
  }

  /** Values computed from others: operators, conditionals, assignments, and wrappers that pass a value on. */
  private operation(node: TSESTree.Node, path: PropertyPath): T | undefined {
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
        return node.operator === '-' || node.operator === '+' || node.operator === '~' ? this.at(node.argument) : this.opaque();
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
      case AST_NODE_TYPES.Literal:
        return undefined;
      default:
        return this.opaque();
    }
  }

  /** The first of `nodes` that finds something, each read at `path`. */
  protected first(nodes: readonly (TSESTree.Node | null)[], path: PropertyPath = []): T | undefined {
    for (const node of nodes) {
      const found = this.at(node, path);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** `a.b` is `a` read at `['b', ...path]`; a computed member is its object, read whole. */
  private member(node: TSESTree.MemberExpression, path: PropertyPath): T | undefined {
    const name = getStaticPropertyName(node);
    if (name === undefined) return this.at(node.object);
    if (node.object.type === AST_NODE_TYPES.ThisExpression) return this.thisMember(node, name, path);
    return this.at(node.object, [name, ...path]);
  }

  /** A `const` / `let` binding: every value written to it (with destructuring defaults), read along its pattern. */
  protected variable(variable: TSESLint.Scope.Variable, path: PropertyPath): T | undefined {
    for (const reference of variable.references) {
      if (!reference.isWrite() || !reference.writeExpr) continue;
      const binding = getBindingPath(reference.identifier);
      const found = this.defaults(binding, path) ?? this.at(reference.writeExpr, [...binding.steps, ...path]);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** A parameter is its default, or the argument of the call being followed, or {@link unfollowedParameter}. */
  protected parameter(name: TSESTree.Node, fn: FunctionNode, path: PropertyPath): T | undefined {
    const binding = getBindingPath(name);
    const fromDefault = this.defaults(binding, path);
    if (fromDefault !== undefined) return fromDefault;
    const fullPath = [...binding.steps, ...path];
    const index = fn.params.indexOf(binding.root as TSESTree.Parameter) - getThisParameterCount(fn);
    const rest = binding.root.type === AST_NODE_TYPES.RestElement;
    const frameIndex = this.frames.findLastIndex((frame) => frame.fn === fn);
    if (frameIndex === -1) return this.unfollowedParameter({ fn, index, rest, path: fullPath });
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
    return argument.type === AST_NODE_TYPES.SpreadElement ? this.at(argument.argument) : this.selected(argument, path);
  }

  private defaults(binding: BindingPath, path: PropertyPath): T | undefined {
    for (const fallback of binding.defaults) {
      const found = this.at(fallback.value, [...fallback.steps, ...path]);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** What a helper of this file returns when called with `args`; its parameters read the arguments. */
  protected returnsOf(fn: FunctionNode, args: readonly TSESTree.CallExpressionArgument[], path: PropertyPath): T | undefined {
    if (fn.generator) return undefined;
    this.frames.push({ fn, args });
    try {
      return this.first(getReturnedExpressions(fn, this.sourceCode), path);
    } finally {
      this.frames.pop();
    }
  }

  /** An object literal read at `path`: the property named by its head, or every value when read whole. */
  private object(node: TSESTree.ObjectExpression, path: PropertyPath): T | undefined {
    const [head, ...rest] = path;
    if (head === undefined) {
      return this.first(node.properties.map((property) => (property.type === AST_NODE_TYPES.Property ? property.value : property)));
    }
    // Later properties and spreads override earlier ones, so look from the end.
    for (let i = node.properties.length - 1; i >= 0; i -= 1) {
      const property = node.properties[i] as TSESTree.ObjectLiteralElement;
      if (property.type === AST_NODE_TYPES.SpreadElement) {
        const found = this.at(property.argument, path);
        if (found !== undefined) return found;
      } else if (getPropertyKeyName(property, this.sourceCode) === head) {
        return property.kind === 'init' && !property.method ? this.selected(property.value, rest) : undefined;
      }
    }
    return undefined;
  }
}

/** `function f(this: T, a)`: TypeScript's `this` parameter takes no argument. */
export function getThisParameterCount(fn: FunctionNode): number {
  const [first] = fn.params;
  return first?.type === AST_NODE_TYPES.Identifier && first.name === 'this' ? 1 : 0;
}
