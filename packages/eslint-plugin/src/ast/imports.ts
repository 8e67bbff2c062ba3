import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { variableNames } from './variables.js';

/** The module a global (unbound) name belongs to, e.g. `Math.random` or the web `crypto`. */
export const GLOBAL_SOURCE = '<global>';

/** What compilers wrap around `require` for ES module interop in CommonJS output. */
const INTEROP_HELPERS = new Set(['__importDefault', '__importStar', '__toESM', '_interopRequireDefault', '_interopRequireWildcard']);

/**
 * Where a callee or value comes from: the module it was imported from and the member path below
 * the import. `import { v4 as uuidv4 } from 'uuid'` gives `{ source: 'uuid', path: ['v4'] }` for
 * `uuidv4`; `import * as uuid from 'uuid'` gives the same for `uuid.v4`; a global such as
 * `Math.random` gives `{ source: '<global>', path: ['Math', 'random'] }`.
 */
export interface ResolvedReference {
  /** Module specifier without a `node:` prefix, or {@link GLOBAL_SOURCE}. */
  readonly source: string;
  /** Member path below the module; `['default']` is the default export itself. */
  readonly path: readonly string[];
}

/** Strips the `node:` prefix so `node:crypto` and `crypto` compare equal. */
export function normalizeModuleName(source: string): string {
  return source.startsWith('node:') ? source.slice('node:'.length) : source;
}

/**
 * Resolves an identifier or a static member chain (`a.b.c`) to the import or global it reads.
 * Returns `undefined` for local values (parameters, locals) and for computed, non-literal members.
 */
export function resolveReference(
  sourceCode: Readonly<TSESLint.SourceCode>,
  node: TSESTree.Node,
): ResolvedReference | undefined {
  const cached = resolvedByNode.get(node);
  if (cached !== undefined) return cached ?? undefined;
  const resolved = resolveUncached(sourceCode, node);
  resolvedByNode.set(node, resolved ?? null);
  return resolved;
}

/**
 * Resolves a type reference (`Stripe`, `Stripe.Checkout.Session`, `pg.Pool`) to the import it names,
 * with the qualified names after the imported binding appended to its path. `undefined` for any
 * other type (a union is the caller's to walk), for local types and for globals.
 */
export function resolveTypeReference(sourceCode: Readonly<TSESLint.SourceCode>, type: TSESTree.TypeNode): ResolvedReference | undefined {
  if (type.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  const names: string[] = [];
  let typeName: TSESTree.EntityName = type.typeName;
  while (typeName.type === AST_NODE_TYPES.TSQualifiedName) {
    names.unshift(typeName.right.name);
    typeName = typeName.left;
  }
  if (typeName.type !== AST_NODE_TYPES.Identifier) return undefined;
  const reference = resolveReference(sourceCode, typeName);
  if (!reference || reference.source === GLOBAL_SOURCE) return undefined;
  return { source: reference.source, path: [...reference.path, ...names] };
}

/**
 * One answer per node: several rules resolve the same callee (every rule that recognises tools,
 * keys or providers asks about each call), and a file's AST and scopes do not change while it is
 * linted. The hottest path of the recommended config on real code (bench/lint.mjs). `null` caches
 * "not an import or a global". Answers are shared, so callers must not mutate them (the types say
 * `readonly`).
 */
const resolvedByNode = new WeakMap<TSESTree.Node, ResolvedReference | null>();

function resolveUncached(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): ResolvedReference | undefined {
  const chain = getMemberChain(node);
  if (!chain) return resolveInlineRequire(sourceCode, node);
  const [root, ...members] = chain;
  if (!root) return undefined;
  const variable = ASTUtils.findVariable(sourceCode.getScope(node), root.name);
  if (!variable || variable.defs.length === 0) {
    return { source: GLOBAL_SOURCE, path: [root.name, ...members] };
  }
  const origin = getBindingOrigin(variable.defs[0]);
  if (!origin) return undefined;
  return { source: origin.source, path: [...origin.path, ...members] };
}

/**
 * `require('crypto').randomUUID` read in place, without a binding: the module and the path below
 * it, when `require` is the module system's (not a local of that name).
 */
function resolveInlineRequire(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): ResolvedReference | undefined {
  if (node.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const required = getRequiredModule(node);
  if (!required) return undefined;
  const variable = ASTUtils.findVariable(sourceCode.getScope(node), 'require');
  return !variable || variable.defs.length === 0 ? required : undefined;
}

/**
 * `a.b['c']` → `[a, 'b', 'c']`; `undefined` when a link is computed from a non-literal. `(0, a.b)`,
 * the way TypeScript and esbuild call an import in CommonJS output, reads the same as `a.b`.
 */
export function getMemberChain(node: TSESTree.Node): [TSESTree.Identifier, ...string[]] | undefined {
  // Walks down from the outermost member, collecting names innermost-last, then reverses once:
  // this runs on every callee in every file, so no array is copied per link.
  const members: string[] = [];
  for (let current = node; ; ) {
    if (current.type === AST_NODE_TYPES.Identifier) return [current, ...members.reverse()];
    if (current.type === AST_NODE_TYPES.ChainExpression || current.type === AST_NODE_TYPES.TSNonNullExpression) {
      current = current.expression;
    } else if (isIndirectCallee(current)) {
      current = current.expressions[1];
    } else if (current.type === AST_NODE_TYPES.MemberExpression) {
      const property = getStaticPropertyName(current);
      if (property === undefined) return undefined;
      members.push(property);
      current = current.object;
    } else {
      return undefined;
    }
  }
}

/**
 * `a.b.c` read as its innermost object and the static member names below it (`a`, `['b', 'c']`), at
 * most `maxDepth` names; `undefined` past that or at a computed, non-literal key. A node that is no
 * member read is its own root with an empty path.
 */
export function getStaticMemberPath(node: TSESTree.Node, maxDepth: number): { root: TSESTree.Node; path: string[] } | undefined {
  const path: string[] = [];
  let current = node;
  while (current.type === AST_NODE_TYPES.MemberExpression) {
    const name = getStaticPropertyName(current);
    if (name === undefined || path.length === maxDepth) return undefined;
    path.unshift(name);
    current = current.object;
  }
  return { root: current, path };
}

/** The name of `a.b`, `a['b']` or `a.#b` (`'#b'`); `undefined` for a computed, non-literal key. */
export function getStaticPropertyName(node: TSESTree.MemberExpression): string | undefined {
  if (!node.computed && node.property.type === AST_NODE_TYPES.Identifier) return node.property.name;
  if (node.property.type === AST_NODE_TYPES.PrivateIdentifier) return `#${node.property.name}`;
  if (node.property.type === AST_NODE_TYPES.Literal && typeof node.property.value === 'string') {
    return node.property.value;
  }
  return undefined;
}

const importedModulesByFile = new WeakMap<Readonly<TSESLint.SourceCode>, ReadonlySet<string>>();
const REQUIRE_CALL = /\brequire\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g;

/**
 * Every module the file can bind a name from, as {@link resolveReference} reads bindings: the
 * sources of its import declarations and `import x = require('m')`, and every `require('m')` with
 * a literal argument, wherever it is (`node:` prefixes stripped). Computed once per file and shared
 * by every rule: a rule asks `getImportedModules(sourceCode).has('ai')` before resolving any callee
 * through the scope chain, which most files then never need (bench/lint.mjs).
 */
export function getImportedModules(sourceCode: Readonly<TSESLint.SourceCode>): ReadonlySet<string> {
  let modules = importedModulesByFile.get(sourceCode);
  if (modules === undefined) {
    modules = collectImportedModules(sourceCode);
    importedModulesByFile.set(sourceCode, modules);
  }
  return modules;
}

function collectImportedModules(sourceCode: Readonly<TSESLint.SourceCode>): Set<string> {
  const modules = new Set<string>();
  for (const statement of sourceCode.ast.body) {
    if (statement.type === AST_NODE_TYPES.ImportDeclaration) {
      modules.add(normalizeModuleName(statement.source.value));
    } else if (
      statement.type === AST_NODE_TYPES.TSImportEqualsDeclaration &&
      statement.moduleReference.type === AST_NODE_TYPES.TSExternalModuleReference
    ) {
      const source = literalSource(statement.moduleReference.expression, []);
      if (source) modules.add(source.source);
    }
  }
  // `require` may sit anywhere (inside a function, behind an interop helper): read it off the text,
  // which is one pass, rather than walk the tree. A match inside a comment or string only widens the set.
  if (sourceCode.text.includes('require')) {
    for (const match of sourceCode.text.matchAll(REQUIRE_CALL)) modules.add(normalizeModuleName(match[2] as string));
  }
  return modules;
}

const importBoundNamesByFile = new WeakMap<Readonly<TSESLint.SourceCode>, ReadonlySet<string>>();

/**
 * The names of every variable of the file, in any scope, that an import or a `require` binds (its
 * first definition, as {@link resolveReference} reads it). Computed once per file from the scope
 * manager. A callee whose root identifier is not among them resolves to a global or to a local
 * value, never to an import, so a caller looking for an imported function (a framework's tool
 * factory) can pass over it without the scope lookup. `undefined` for a SourceCode without scopes.
 */
export function getImportBoundNames(sourceCode: Readonly<TSESLint.SourceCode>): ReadonlySet<string> | undefined {
  let names = importBoundNamesByFile.get(sourceCode);
  if (names === undefined) {
    names = variableNames(sourceCode, (variable) => variable.defs.length > 0 && getBindingOrigin(variable.defs[0]) !== undefined);
    if (names === undefined) return undefined;
    importBoundNamesByFile.set(sourceCode, names);
  }
  return names;
}

/** The identifier a callee's member chain starts from (`a` of `a.b.c`, `(0, a.b)`, `a?.b!`), if it is one. */
export function getChainRootName(node: TSESTree.Node): string | undefined {
  for (let current = node; ; ) {
    if (current.type === AST_NODE_TYPES.Identifier) return current.name;
    if (current.type === AST_NODE_TYPES.ChainExpression || current.type === AST_NODE_TYPES.TSNonNullExpression) current = current.expression;
    else if (isIndirectCallee(current)) current = current.expressions[1];
    else if (current.type === AST_NODE_TYPES.MemberExpression) current = current.object;
    else return undefined;
  }
}

type Definition = TSESLint.Scope.Definition;

/** The import (ESM or `require`) a variable was bound by, if any. */
function getBindingOrigin(def: Definition | undefined): ResolvedReference | undefined {
  if (!def) return undefined;
  if (def.type === 'ImportBinding') return getImportOrigin(def.node);
  if (def.type === 'Variable') return getRequireOrigin(def.node, def.name);
  return undefined;
}

function getImportOrigin(
  node: TSESTree.ImportSpecifier | TSESTree.ImportDefaultSpecifier | TSESTree.ImportNamespaceSpecifier | TSESTree.TSImportEqualsDeclaration,
): ResolvedReference | undefined {
  if (node.type === AST_NODE_TYPES.TSImportEqualsDeclaration) {
    const ref = node.moduleReference;
    if (ref.type !== AST_NODE_TYPES.TSExternalModuleReference) return undefined;
    return literalSource(ref.expression, []);
  }
  const declaration = node.parent;
  if (declaration.type !== AST_NODE_TYPES.ImportDeclaration) return undefined;
  const source = normalizeModuleName(declaration.source.value);
  if (node.type === AST_NODE_TYPES.ImportSpecifier) {
    const imported = node.imported.type === AST_NODE_TYPES.Identifier ? node.imported.name : node.imported.value;
    return { source, path: [imported] };
  }
  // Namespace and default imports both stand for the module object here: `uuid.v4` and
  // `crypto.randomUUID` mean the same whichever form imported them.
  return { source, path: [] };
}

/** `const x = require('m')`, `const { a: x } = require('m')`, `const x = require('m').a`. */
function getRequireOrigin(declarator: TSESTree.VariableDeclarator, name: TSESTree.Identifier): ResolvedReference | undefined {
  const init = declarator.init;
  if (!init) return undefined;
  const required = getRequiredModule(init);
  if (!required) return undefined;
  if (declarator.id.type === AST_NODE_TYPES.Identifier) return required;
  if (declarator.id.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  for (const property of declarator.id.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.value !== name) continue;
    if (property.key.type === AST_NODE_TYPES.Identifier) {
      return { source: required.source, path: [...required.path, property.key.name] };
    }
  }
  return undefined;
}

/**
 * What a `require` expression loads: `require('m')` → `{ source: 'm', path: [] }`, `require('m').a.b`
 * → path `['a', 'b']`. The interop helpers that compilers wrap around `require` (esbuild `__toESM`,
 * TypeScript `__importStar` / `__importDefault`, Babel `_interopRequireWildcard` / `_interopRequireDefault`)
 * are looked through. `undefined` for anything else.
 */
export function getRequiredModule(node: TSESTree.Expression): ResolvedReference | undefined {
  if (node.type === AST_NODE_TYPES.MemberExpression) {
    const inner = getRequiredModule(node.object);
    const property = getStaticPropertyName(node);
    return inner && property !== undefined ? { source: inner.source, path: [...inner.path, property] } : undefined;
  }
  if (
    node.type === AST_NODE_TYPES.CallExpression &&
    node.callee.type === AST_NODE_TYPES.Identifier &&
    node.callee.name === 'require' &&
    node.arguments.length === 1
  ) {
    return literalSource(node.arguments[0], []);
  }
  if (node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.Identifier && INTEROP_HELPERS.has(node.callee.name)) {
    const [wrapped] = node.arguments;
    return wrapped && wrapped.type !== AST_NODE_TYPES.SpreadElement ? getRequiredModule(wrapped) : undefined;
  }
  return undefined;
}

/** `(0, a.b)`: a comma expression whose value is its last member, called without a `this`. */
function isIndirectCallee(node: TSESTree.Node): node is TSESTree.SequenceExpression & { expressions: [TSESTree.Literal, TSESTree.Expression] } {
  if (node.type !== AST_NODE_TYPES.SequenceExpression || node.expressions.length !== 2) return false;
  const [first] = node.expressions;
  return first?.type === AST_NODE_TYPES.Literal && first.value === 0;
}

function literalSource(node: TSESTree.Node | undefined, path: string[]): ResolvedReference | undefined {
  if (node?.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') {
    return { source: normalizeModuleName(node.value), path };
  }
  return undefined;
}
