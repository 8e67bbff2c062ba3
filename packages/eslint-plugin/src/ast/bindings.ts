import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { getPropertyKeyName } from './staticValues.js';

/** Where a binding sits inside a destructuring pattern, and the defaults on the way. */
export interface BindingPath {
  /** The outermost pattern (a parameter, a declarator's `id`, an assignment's left side). */
  readonly root: TSESTree.Node;
  /** Property names / array indexes from the destructured value down to the binding. */
  readonly steps: string[];
  /** Default values, each with the steps that remain below it. */
  readonly defaults: { readonly value: TSESTree.Expression; readonly steps: string[] }[];
}

/**
 * `const { a: { b = x } } = value` → for `b`: steps `['a', 'b']`, default `x` with no steps left.
 * The value tracer reads `value` along `steps` to find what a destructured binding holds.
 */
export function getBindingPath(identifier: TSESTree.Node): BindingPath {
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
