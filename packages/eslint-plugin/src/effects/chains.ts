import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { isFunctionNode, skipWrappers } from '../ast/index.js';
import { getClassMember } from '../ast/index.js';
import { getRequiredModule, getStaticPropertyName, GLOBAL_SOURCE, normalizeModuleName, resolveReference, resolveTypeReference } from '../ast/index.js';
import { getPropertyKeyName } from '../ast/index.js';
import type { EffectLibrary } from './libraries/index.js';
import type { CrossFileResolver } from './crossFile.js';
import { EMPTY_ENV, type Env, follow } from './values.js';

// A call, `new` or tagged template read back to where its receiver comes from: an import or a
// global and the members, calls and `new`s below it (`new Stripe(k)` → `.refunds` → `.create` →
// call), through `const`s, destructuring (`const { refunds } = stripe`), `this.client`, helper
// parameters bound at the call that led here, a parameter typed with a library's class
// (`pool: Pool`), and the callback parameter of a client's transaction method (`tx`).

type SourceCode = Readonly<TSESLint.SourceCode>;
type Invocation = TSESTree.CallExpression | TSESTree.NewExpression | TSESTree.TaggedTemplateExpression;

/** One step below the root. */
export type Link =
  | { readonly kind: 'member'; readonly name: string }
  | { readonly kind: 'call' | 'new' | 'tag'; readonly node: Invocation; readonly env: Env };

/** Where a chain starts. */
export type Root =
  /** An import, a `require` or a global, and the export path below the module. */
  | { readonly kind: 'module'; readonly source: string; readonly path: readonly string[] }
  /** A client known by its type annotation or as a transaction callback's parameter. */
  | { readonly kind: 'client'; readonly library: EffectLibrary; readonly evidence: TSESTree.Node };

export interface Chain {
  readonly root: Root;
  readonly links: readonly Link[];
}

/** Finds the library a module belongs to, in the catalogue in use. */
export type LibraryLookup = (source: string) => EffectLibrary | undefined;

/** What a chain is read against: the catalogue in use, and (type-aware only) where imports lead. */
export interface ChainLookup {
  readonly libraryOf: LibraryLookup;
  readonly crossFile?: CrossFileResolver | undefined;
}

const MAX_DEPTH = 12;

/** The chain of `node` (a call, `new`, tagged template, or any expression), or `undefined` when its root is not visible. */
export function getChain(sourceCode: SourceCode, node: TSESTree.Node, env: Env, lookup: ChainLookup, depth = 0): Chain | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const value = skipWrappers(node, { awaits: true, optionalChains: true });
  const below = (inner: TSESTree.Node, link: Link, innerEnv = env): Chain | undefined => {
    const chain = getChain(sourceCode, inner, innerEnv, lookup, depth + 1);
    return chain && { root: chain.root, links: [...chain.links, link] };
  };
  switch (value.type) {
    case AST_NODE_TYPES.CallExpression: {
      const required = getRequiredModule(value);
      if (required) return { root: { kind: 'module', source: required.source, path: required.path }, links: [] };
      return below(value.callee, { kind: 'call', node: value, env });
    }
    case AST_NODE_TYPES.NewExpression:
      return below(value.callee, { kind: 'new', node: value, env });
    case AST_NODE_TYPES.TaggedTemplateExpression:
      return below(value.tag, { kind: 'tag', node: value, env });
    case AST_NODE_TYPES.MemberExpression: {
      const name = getStaticPropertyName(value);
      if (name === undefined) return undefined;
      if (value.object.type === AST_NODE_TYPES.ThisExpression) return fromThisMember(sourceCode, value, name, env, lookup, depth);
      return below(value.object, { kind: 'member', name });
    }
    case AST_NODE_TYPES.Identifier:
      return fromIdentifier(sourceCode, value, env, lookup, depth);
    default:
      return undefined;
  }
}

function fromThisMember(
  sourceCode: SourceCode,
  member: TSESTree.MemberExpression,
  name: string,
  env: Env,
  lookup: ChainLookup,
  depth: number,
): Chain | undefined {
  const found = getClassMember(member, name, sourceCode);
  const [value] = found?.values ?? [];
  if (!found || found.values.length !== 1 || !value) return undefined;
  return getChain(sourceCode, value, env, lookup, depth + 1);
}

function fromIdentifier(sourceCode: SourceCode, identifier: TSESTree.Identifier, env: Env, lookup: ChainLookup, depth: number): Chain | undefined {
  const variable = ASTUtils.findVariable(sourceCode.getScope(identifier), identifier);
  if (variable && env.has(variable)) {
    const bound = follow(sourceCode, identifier, env);
    return bound.node === identifier ? undefined : getChain(sourceCode, bound.node, bound.env, lookup, depth + 1);
  }
  const reference = resolveReference(sourceCode, identifier);
  if (reference) return fromForeignValue(sourceCode, identifier, reference.source, lookup, depth) ?? { root: { kind: 'module', source: reference.source, path: reference.path }, links: [] };
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def) return undefined;
  const typed = fromTypeAnnotation(sourceCode, def.name, lookup);
  if (typed) return typed;
  if (def.type === 'Parameter') return fromTransactionParameter(sourceCode, def.node, identifier, env, lookup, depth);
  if (def.type !== 'Variable' || !def.node.init) return undefined;
  if (variable.references.some((reference) => reference.isWrite() && !reference.init)) return undefined;
  if (def.node.id.type === AST_NODE_TYPES.Identifier) return getChain(sourceCode, def.node.init, env, lookup, depth + 1);
  // `const { refunds } = stripe`, `const { data } = await supabase...`: one level of destructuring.
  if (def.node.id.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  const property = def.node.id.properties.find(
    (candidate): candidate is TSESTree.Property => candidate.type === AST_NODE_TYPES.Property && candidate.value === def.name,
  );
  const name = property && getPropertyKeyName(property, sourceCode);
  if (name === undefined) return undefined;
  const chain = getChain(sourceCode, def.node.init, env, lookup, depth + 1);
  return chain && { root: chain.root, links: [...chain.links, { kind: 'member', name }] };
}

/**
 * `db` imported from the app's own module that declares `export const db = new Pool()`: the chain
 * of that declaration, in its file, when it starts at a catalogued library (type-aware only).
 */
function fromForeignValue(sourceCode: SourceCode, identifier: TSESTree.Identifier, source: string, lookup: ChainLookup, depth: number): Chain | undefined {
  if (!lookup.crossFile || source === GLOBAL_SOURCE || lookup.libraryOf(source)) return undefined;
  const foreign = lookup.crossFile.valueOf(sourceCode, identifier);
  const chain = foreign && getChain(foreign.sourceCode, foreign.node, EMPTY_ENV, lookup, depth + 1);
  if (!chain) return undefined;
  return chain.root.kind === 'client' || lookup.libraryOf(chain.root.source) ? chain : undefined;
}

/** `pool: Pool`, `db: Knex | undefined`, `repo: Repository<User>`: a binding typed with a library's class or type. */
function fromTypeAnnotation(sourceCode: SourceCode, name: TSESTree.Node, lookup: ChainLookup): Chain | undefined {
  const annotation = name.type === AST_NODE_TYPES.Identifier ? name.typeAnnotation?.typeAnnotation : undefined;
  const library = annotation && libraryOfType(sourceCode, annotation, lookup);
  return library && { root: { kind: 'client', library, evidence: annotation }, links: [] };
}

function libraryOfType(sourceCode: SourceCode, type: TSESTree.TypeNode, lookup: ChainLookup): EffectLibrary | undefined {
  if (type.type === AST_NODE_TYPES.TSUnionType) return type.types.map((member) => libraryOfType(sourceCode, member, lookup)).find(Boolean);
  const reference = resolveTypeReference(sourceCode, type);
  if (!reference) return undefined;
  const library = lookup.libraryOf(normalizeModuleName(reference.source));
  const path = reference.path.filter((part) => part !== 'default');
  const last = path.at(-1) ?? '';
  const named = [...(library?.types ?? []), ...(library?.clients ?? [])].some((candidate) => candidate.split('.').at(-1) === last || (candidate === 'default' && path.length === 0));
  return named ? library : undefined;
}

/** The first parameter of a callback given to a client's transaction method: `prisma.$transaction(async (tx) => …)`. */
function fromTransactionParameter(
  sourceCode: SourceCode,
  fn: TSESTree.Node,
  identifier: TSESTree.Identifier,
  env: Env,
  lookup: ChainLookup,
  depth: number,
): Chain | undefined {
  if (!isFunctionNode(fn) || fn.params[0]?.type !== AST_NODE_TYPES.Identifier || fn.params[0].name !== identifier.name) return undefined;
  const call = fn.parent;
  if (call.type !== AST_NODE_TYPES.CallExpression || !call.arguments.includes(fn as TSESTree.CallExpressionArgument)) return undefined;
  const chain = getChain(sourceCode, call.callee, env, lookup, depth + 1);
  if (!chain) return undefined;
  const library = chain.root.kind === 'client' ? chain.root.library : lookup.libraryOf(chain.root.source);
  const members = chain.links.flatMap((link) => (link.kind === 'member' ? [link.name] : []));
  const tail = members.slice(-2).join('.');
  const isTransaction = library?.transactionMethods?.some((method) => method === members.at(-1) || method === tail);
  return library && isTransaction ? { root: { kind: 'client', library, evidence: call.callee }, links: [] } : undefined;
}
