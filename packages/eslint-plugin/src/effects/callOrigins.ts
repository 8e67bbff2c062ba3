import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  findVariableOf,
  getMemberChain,
  getRequiredModule,
  resolveReference,
  resolveTypeReference,
  skipWrappers,
} from '../ast/index.js';

// What a provider call's callee is: an imported function (`fetch`, `axios.post`), or a method of a
// client made from an import (`new Stripe(...)`, `axios.create()`, `stripe: Stripe`).

type SourceCode = Readonly<TSESLint.SourceCode>;

/** A value produced by a constructor or factory: `new Stripe(...)`, `axios.create()`, `x: Stripe`. */
export interface Instance {
  readonly source: string;
  /** Export path of the class or factory, without a leading `default`. */
  readonly factory: string;
  /** Members read below the instance, the called method last: `['refunds', 'create']`. */
  readonly members: readonly string[];
}

/** What a callee is: an imported function or member, or a member of an instance. */
export type Origin =
  | { readonly kind: 'import'; readonly source: string; readonly path: readonly string[] }
  | ({ readonly kind: 'instance' } & Instance);

/**
 * Resolves a callee to an import (`fetch`, `axios.post`, `undici.request`) or to a member of an
 * instance: a variable initialised with `new X(...)`, `X(...)`, `X.create(...)` or
 * `require('m')(...)`, or declared with a type imported from a module (`stripe: Stripe`).
 */
export function resolveOrigin(sourceCode: SourceCode, callee: TSESTree.Node): Origin | undefined {
  // An import is what it names, whatever the binding is called: `import { stripe } from './clients.js'`
  // is the project's own module, whose client this file cannot see (no evidence it is Stripe's).
  const imported = resolveReference(sourceCode, callee);
  if (imported) return { kind: 'import', ...imported };
  const chain = getMemberChain(callee);
  if (!chain) return undefined;
  const [root, ...members] = chain;
  const variable = findVariableOf(root, sourceCode);
  const def = variable?.defs[0];
  if (!variable || !def || variable.defs.length !== 1) return undefined;
  const name = def.name;
  const typeAnnotation =
    name.type === AST_NODE_TYPES.Identifier ? name.typeAnnotation?.typeAnnotation : undefined;
  const fromType = typeAnnotation && instanceOfType(sourceCode, typeAnnotation);
  if (fromType) return { kind: 'instance', ...fromType, members };
  if (def.type !== 'Variable' || def.node.id !== name || !def.node.init) return undefined;
  const fromValue = instanceOfValue(sourceCode, def.node.init);
  return fromValue && { kind: 'instance', ...fromValue, members };
}

function instanceOfValue(sourceCode: SourceCode, init: TSESTree.Expression): Omit<Instance, 'members'> | undefined {
  const value = skipWrappers(init, { optionalChains: true, awaits: true });
  if (value.type !== AST_NODE_TYPES.NewExpression && value.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = skipWrappers(value.callee, { optionalChains: true, awaits: true });
  // `require('stripe')(apiKey)`: the module itself is the factory.
  const required = callee.type === AST_NODE_TYPES.CallExpression ? getRequiredModule(callee) : undefined;
  if (required?.path.length === 0) return { source: required.source, factory: '' };
  const reference = resolveReference(sourceCode, callee);
  return reference && { source: reference.source, factory: withoutDefault(reference.path).join('.') };
}

function instanceOfType(sourceCode: SourceCode, type: TSESTree.TypeNode): Omit<Instance, 'members'> | undefined {
  if (type.type === AST_NODE_TYPES.TSUnionType) {
    return type.types.map((member) => instanceOfType(sourceCode, member)).find(Boolean); // `Stripe | undefined`
  }
  const reference = resolveTypeReference(sourceCode, type);
  return reference && { source: reference.source, factory: withoutDefault(reference.path).join('.') };
}

/** An export path without a leading `default`: a default import called directly is the module's own function. */
export function withoutDefault(path: readonly string[]): readonly string[] {
  return path[0] === 'default' ? path.slice(1) : path;
}
