import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  ExpressionWalk,
  findVariableOf,
  getStaticPropertyName,
  GLOBAL_SOURCE,
  isFunctionNode,
  type ParameterReference,
  type PropertyPath,
  resolveLocalFunction,
  resolveReference,
  skipWrappers,
} from '../ast/index.js';
import type { ProgramFile } from './programFiles.js';

// The value tracer follows a value inside one file and gives up where the file ends: at a call of an
// imported function, at an imported value, at a method of an object it cannot see, and at a
// parameter of the function it started in. This walk takes the same local steps (both are an
// ExpressionWalk: bindings, templates, operators, helpers of the file with arguments mapped to
// parameters, object literals by property) and hands each of those stopping points to a handler,
// which the type-aware analysis uses to cross into the other file. It does not recognise sources
// itself: the handler's `value` hook runs the file's tracer where a fresh value is reached.

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

/** Total nodes one walk may visit, and nested steps on one path. */
const LIMITS = { maxSteps: 1000, maxDepth: 40 };

/** One walk through one file. Use {@link ValueWalk.enter} to start; handlers may call it again. */
export class ValueWalk<T> extends ExpressionWalk<T> {
  constructor(
    readonly file: ProgramFile,
    private readonly handler: BoundaryHandler<T>,
  ) {
    super(file.sourceCode, LIMITS);
  }

  /** Walks `node` (read at `path`); a value reached whole is first shown to the `value` hook. */
  enter(node: TSESTree.Node, path: PropertyPath = []): T | undefined {
    if (path.length === 0 && this.handler.value) {
      const found = this.handler.value(this, node);
      if (found !== undefined) return found;
    }
    return this.at(node, path);
  }

  /** A value picked out of a literal by its path: shown to the `value` hook once the path is used up. */
  protected override selected(node: TSESTree.Node | null | undefined, path: PropertyPath): T | undefined {
    return node ? this.enter(node, path) : undefined;
  }

  protected identifier(node: TSESTree.Identifier, path: PropertyPath): T | undefined {
    const variable = findVariableOf(node, this.sourceCode);
    const def = variable?.defs[0];
    if (!variable || !def) return undefined;
    switch (def.type) {
      case 'ImportBinding':
        return this.handler.imported(this, node, path);
      case 'Parameter':
        return isFunctionNode(def.node) ? this.parameter(def.name, def.node, path) : undefined;
      case 'Variable':
        return this.variable(variable, path);
      default:
        return undefined;
    }
  }

  protected unfollowedParameter(parameter: ParameterReference): T | undefined {
    return this.handler.parameter(this, parameter);
  }

  /** A constructed object is not followed across files. */
  protected newExpression(): T | undefined {
    return undefined;
  }

  /** Class state (`this.x`) is the tracer's to read, within the class. */
  protected thisMember(): T | undefined {
    return undefined;
  }

  protected call(node: TSESTree.CallExpression, path: PropertyPath): T | undefined {
    // A function of this file (declaration, `const` arrow, class method, object-literal helper).
    const local = resolveLocalFunction(node.callee, this.sourceCode);
    if (local) return this.returnsOf(local, node.arguments, path);
    const callee = skipWrappers(node.callee, { optionalChains: true });
    if (callee.type === AST_NODE_TYPES.Identifier) {
      const def = findVariableOf(callee, this.sourceCode)?.defs[0];
      // A global (`String(id)`, `encodeURIComponent(id)`): the result derives from the arguments.
      if (!def) return this.first(node.arguments);
      return def.type === 'ImportBinding' ? this.handler.call(this, node, path) : undefined;
    }
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const reference = resolveReference(this.sourceCode, callee);
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
}

/** Whether a callee is an imported binding or a member of one (`send`, `http.send`), not a local or a global. */
export function isImportReference(sourceCode: ProgramFile['sourceCode'], callee: TSESTree.Node): boolean {
  const reference = resolveReference(sourceCode, skipWrappers(callee, { optionalChains: true }));
  return reference !== undefined && reference.source !== GLOBAL_SOURCE;
}
