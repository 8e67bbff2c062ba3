import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { describeNode, findProperty, getPropertyKeyName, getReturnedExpressions, getStaticPropertyName, isFunctionNode, resolveObject, resolveReference, skipWrappers, SPEC_PACKAGE } from '../ast/index.js';
import { getRunnerUse, getStoreConstruction, type StoreConstruction, type StoreKind } from './runners.js';

// What a file's values are, symbolically, so that a program without type information can follow
// them across files: `createTools(services).issueRefund` in a test is the `issueRefund` property
// of what `createTools` returns in `src/tools/index.ts`, which is what `issueRefundTool` returns in
// `src/tools/issue-refund.ts`: a `defineTool` call. The values are plain data (no AST nodes), so
// they outlive the file's lint.

/**
 * A value, followed as far as this file shows it. `tool` and `runner` are indexes into lists the
 * caller keeps (its recognised tools and runner constructions); `adapted` is a tool handed to an
 * adapter (`toAiSdkTool(tool, { runner })`), which still runs that tool. `store` is a store factory
 * call of the spec (`createSqliteStore({ path })`), with its kind, whether its records outlive the
 * process (as {@link getStoreConstruction} judges it) and its line: so that a runner in one file can
 * be matched with `export const store = createSqliteStore(...)` in another. `either` is a value
 * chosen at run time by a conditional (`flag ? a : b`) or by `??` / `||`: each branch with its line,
 * so that a store chosen that way is judged by its weakest branch.
 */
export type SymbolicValue =
  | { readonly k: 'import'; readonly from: string; readonly name: string }
  | { readonly k: 'member'; readonly of: SymbolicValue; readonly name: string }
  | { readonly k: 'call'; readonly callee: SymbolicValue }
  | { readonly k: 'object'; readonly props: Readonly<Record<string, SymbolicValue>> }
  | {
      readonly k: 'fn';
      readonly returns: readonly SymbolicValue[];
      /** Each return's line and code, beside `returns`, for a function with several (a store chosen by them is named by each). */
      readonly returnSites?: readonly { readonly line: number; readonly text: string }[];
    }
  | { readonly k: 'tool'; readonly index: number }
  | { readonly k: 'runner'; readonly index: number }
  | {
      readonly k: 'store';
      readonly kind: StoreKind;
      readonly durable: boolean;
      readonly allowVolatile?: true | 'unknown';
      /** Where `allowVolatile` is given, as the report names it: its line and its code. */
      readonly allowVolatileAt?: { readonly line: number; readonly text: string };
      readonly line: number;
      readonly text: string;
    }
  | { readonly k: 'adapted'; readonly tool: SymbolicValue; readonly runner: SymbolicValue | null }
  | {
      readonly k: 'either';
      /** The conditional, in a few words of code (`process.env.CI ? … : …`), and its line. */
      readonly line: number;
      readonly text: string;
      readonly branches: readonly { readonly value: SymbolicValue; readonly line: number; readonly text: string }[];
    }
  | { readonly k: 'opaque'; readonly text: string };

/** A file's exports, symbolically: name → value, and the modules it re-exports whole. */
export interface ModuleExports {
  readonly exports: Record<string, SymbolicValue>;
  readonly reexports: string[];
}

/** What the summariser should call a tool or a runner: the caller's index for the node, if it is one. */
export interface ValueLandmarks {
  readonly tool: (node: TSESTree.Node) => number | undefined;
  readonly runner: (node: TSESTree.Node) => number | undefined;
}

/** Follows values of one file symbolically. */
export interface ValueSummariser {
  valueOf(node: TSESTree.Node): SymbolicValue;
  exportsOf(): ModuleExports;
}

type SourceCode = Readonly<TSESLint.SourceCode>;

const MAX_DEPTH = 10;
const MAX_TEXT = 60;

/** Builds the summariser for one file. */
export function createValueSummariser(sourceCode: SourceCode, landmarks: ValueLandmarks): ValueSummariser {
  const visiting = new Set<TSESTree.Node>();

  function valueOf(expression: TSESTree.Node, depth = 0): SymbolicValue {
    const node = skipWrappers(expression, { optionalChains: true, awaits: true });
    if (depth > MAX_DEPTH || visiting.has(node)) return opaque(node);
    visiting.add(node);
    try {
      return landmark(node) ?? structural(node, depth);
    } finally {
      visiting.delete(node);
    }
  }

  function landmark(node: TSESTree.Node): SymbolicValue | undefined {
    const tool = landmarks.tool(node);
    if (tool !== undefined) return { k: 'tool', index: tool };
    const runner = landmarks.runner(node);
    return runner === undefined ? undefined : { k: 'runner', index: runner };
  }

  function structural(node: TSESTree.Node, depth: number): SymbolicValue {
    const next = (child: TSESTree.Node): SymbolicValue => valueOf(child, depth + 1);
    switch (node.type) {
      case AST_NODE_TYPES.Identifier:
        return identifier(node, depth);
      case AST_NODE_TYPES.MemberExpression: {
        const name = getStaticPropertyName(node);
        return name === undefined ? opaque(node) : { k: 'member', of: next(node.object), name };
      }
      case AST_NODE_TYPES.CallExpression:
        return call(node, next);
      case AST_NODE_TYPES.NewExpression:
        return { k: 'call', callee: next(node.callee) };
      case AST_NODE_TYPES.ObjectExpression:
        return object(node, next);
      case AST_NODE_TYPES.ConditionalExpression:
        return either(node, `${describeNode(node.test, sourceCode)} ? … : …`, [node.consequent, node.alternate], next);
      case AST_NODE_TYPES.LogicalExpression:
        // `a && b` is `a` when it is falsy: not a choice between two values of the same kind.
        return node.operator === '&&' ? opaque(node) : either(node, describeNode(node, sourceCode), [node.left, node.right], next);
      case AST_NODE_TYPES.ArrayExpression:
        // An array is read as an object with index keys: a set of tools handed to a guard.
        return { k: 'object', props: Object.fromEntries(node.elements.flatMap((element, index) => (element && element.type !== AST_NODE_TYPES.SpreadElement ? [[String(index), next(element)]] : []))) };
      case AST_NODE_TYPES.ArrowFunctionExpression:
      case AST_NODE_TYPES.FunctionExpression:
      case AST_NODE_TYPES.FunctionDeclaration: {
        const returned = getReturnedExpressions(node, sourceCode);
        const returnSites = returned.length > 1 ? { returnSites: returned.map((value) => ({ line: value.loc.start.line, text: describeNode(value, sourceCode) })) } : {};
        return { k: 'fn', returns: returned.map(next), ...returnSites };
      }
      default:
        return opaque(node);
    }
  }

  function call(node: TSESTree.CallExpression, next: (child: TSESTree.Node) => SymbolicValue): SymbolicValue {
    const use = getRunnerUse(sourceCode, node);
    // A guard returns the set of tools it was given, each guarded.
    if (use?.collection) return next(use.tool);
    if (use && !use.via.startsWith('runner.')) return { k: 'adapted', tool: next(use.tool), runner: use.runner ? next(use.runner) : null };
    const store = getStoreConstruction(sourceCode, node);
    if (store) return { k: 'store', kind: store.kind, durable: store.durable, ...allowVolatileOf(store, sourceCode), line: node.loc.start.line, text: describeNode(node, sourceCode) };
    const reference = resolveReference(sourceCode, node.callee);
    // `declarePolicy(tool, policy)` returns the same tool.
    if (reference?.source === SPEC_PACKAGE && reference.path.join('.') === 'declarePolicy' && node.arguments[0]) return next(node.arguments[0]);
    return { k: 'call', callee: next(node.callee) };
  }

  function either(node: TSESTree.Node, text: string, branches: readonly TSESTree.Node[], next: (child: TSESTree.Node) => SymbolicValue): SymbolicValue {
    return {
      k: 'either',
      line: node.loc.start.line,
      text,
      branches: branches.map((branch) => ({ value: next(branch), line: branch.loc.start.line, text: describeNode(branch, sourceCode) })),
    };
  }

  function object(node: TSESTree.ObjectExpression, next: (child: TSESTree.Node) => SymbolicValue): SymbolicValue {
    const props: Record<string, SymbolicValue> = {};
    for (const property of node.properties) {
      if (property.type !== AST_NODE_TYPES.Property) continue;
      const name = getPropertyKeyName(property, sourceCode);
      if (name !== undefined) props[name] = next(property.value);
    }
    return { k: 'object', props };
  }

  function identifier(node: TSESTree.Identifier, depth: number): SymbolicValue {
    const variable = ASTUtils.findVariable(sourceCode.getScope(node), node);
    const def = variable?.defs.length === 1 ? variable.defs[0] : variable?.defs.find((d) => d.node.type === AST_NODE_TYPES.FunctionDeclaration);
    if (!variable || !def) return opaque(node);
    if (def.type === 'ImportBinding') return importBinding(def.node);
    if (def.type === 'FunctionName' && isFunctionNode(def.node)) return valueOf(def.node, depth + 1);
    if (def.type !== 'Variable' || !def.node.init) return opaque(node);
    if (variable.references.some((reference) => reference.isWrite() && !reference.init)) return opaque(node);
    const init = valueOf(def.node.init, depth + 1);
    const path = patternPath(def.node.id, def.name);
    return path === undefined ? opaque(node) : path.reduce<SymbolicValue>((of, name) => ({ k: 'member', of, name }), init);
  }

  function exportsOf(): ModuleExports {
    const exports: Record<string, SymbolicValue> = {};
    const reexports: string[] = [];
    for (const statement of sourceCode.ast.body) {
      if (statement.type === AST_NODE_TYPES.ExportAllDeclaration) {
        if (statement.exported) exports[moduleExportName(statement.exported)] = { k: 'import', from: statement.source.value, name: '*' };
        else reexports.push(statement.source.value);
      } else if (statement.type === AST_NODE_TYPES.ExportDefaultDeclaration) {
        exports.default = valueOf(statement.declaration);
      } else if (statement.type === AST_NODE_TYPES.ExportNamedDeclaration) {
        namedExports(statement, exports);
      } else if (statement.type === AST_NODE_TYPES.ExpressionStatement) {
        commonJsExport(statement.expression, exports);
      }
    }
    return { exports, reexports };
  }

  function namedExports(statement: TSESTree.ExportNamedDeclaration, exports: Record<string, SymbolicValue>): void {
    const declaration = statement.declaration;
    if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const declarator of declaration.declarations) {
        if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.init) exports[declarator.id.name] = valueOf(declarator.init);
      }
    } else if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration && declaration.id) {
      exports[declaration.id.name] = valueOf(declaration);
    }
    for (const specifier of statement.specifiers) {
      const exported = moduleExportName(specifier.exported);
      exports[exported] = statement.source
        ? { k: 'import', from: statement.source.value, name: moduleExportName(specifier.local) }
        : valueOf(specifier.local);
    }
  }

  /** `module.exports = value`, `module.exports.name = value`, `exports.name = value`. */
  function commonJsExport(expression: TSESTree.Expression, exports: Record<string, SymbolicValue>): void {
    if (expression.type !== AST_NODE_TYPES.AssignmentExpression || expression.operator !== '=') return;
    const target = expression.left;
    if (target.type !== AST_NODE_TYPES.MemberExpression) return;
    const name = getStaticPropertyName(target);
    const object = target.object;
    const isModule = (node: TSESTree.Node): boolean => node.type === AST_NODE_TYPES.Identifier && node.name === 'module';
    if (isModule(object) && name === 'exports') {
      exports.default = valueOf(expression.right);
      const literal = resolveObject(sourceCode, expression.right);
      for (const property of literal?.properties ?? []) {
        const key = property.type === AST_NODE_TYPES.Property ? getPropertyKeyName(property, sourceCode) : undefined;
        const value = key === undefined ? undefined : findProperty(literal, key)?.value;
        if (key !== undefined && value) exports[key] = valueOf(value);
      }
      return;
    }
    const isExports =
      (object.type === AST_NODE_TYPES.Identifier && object.name === 'exports') ||
      (object.type === AST_NODE_TYPES.MemberExpression && isModule(object.object) && getStaticPropertyName(object) === 'exports');
    if (isExports && name !== undefined) exports[name] = valueOf(expression.right);
  }

  function opaque(node: TSESTree.Node): SymbolicValue {
    const text = sourceCode.getText(node).replace(/\s+/g, ' ');
    return { k: 'opaque', text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text };
  }

  return { valueOf: (node) => valueOf(node), exportsOf };
}

/** A store's `allowVolatile` as plain data: the value and where it is given. */
export function allowVolatileOf(store: StoreConstruction, sourceCode: SourceCode): Pick<Extract<SymbolicValue, { k: 'store' }>, 'allowVolatile' | 'allowVolatileAt'> {
  if (!store.allowVolatile) return {};
  const at = store.allowVolatileNode;
  return { allowVolatile: store.allowVolatile, ...(at ? { allowVolatileAt: { line: at.loc.start.line, text: describeNode(at, sourceCode) } } : {}) };
}

function importBinding(node: TSESTree.Node): SymbolicValue {
  const declaration = node.parent;
  const from = declaration?.type === AST_NODE_TYPES.ImportDeclaration ? declaration.source.value : '';
  if (node.type === AST_NODE_TYPES.ImportSpecifier) return { k: 'import', from, name: moduleExportName(node.imported) };
  if (node.type === AST_NODE_TYPES.ImportDefaultSpecifier) return { k: 'import', from, name: 'default' };
  if (node.type === AST_NODE_TYPES.ImportNamespaceSpecifier) return { k: 'import', from, name: '*' };
  return { k: 'opaque', text: 'import' };
}

function moduleExportName(node: TSESTree.Identifier | TSESTree.StringLiteral): string {
  return node.type === AST_NODE_TYPES.Identifier ? node.name : node.value;
}

/**
 * The property path at which `name` is bound in a declarator's pattern: `[]` for `const name = ...`,
 * `['issueRefund']` for `const { issueRefund } = ...`, `['0']` for `const [refund] = ...` (an array
 * is read as an object with index keys: `guardLangChainTools([refund], …)`); `undefined` for rest
 * elements and holes before a rest.
 */
function patternPath(pattern: TSESTree.Node, name: TSESTree.Identifier): string[] | undefined {
  if (pattern === name) return [];
  if (pattern.type === AST_NODE_TYPES.AssignmentPattern) return patternPath(pattern.left, name);
  if (pattern.type === AST_NODE_TYPES.ArrayPattern) {
    for (const [index, element] of pattern.elements.entries()) {
      if (!element || !(element.range[0] <= name.range[0] && name.range[1] <= element.range[1])) continue;
      if (element.type === AST_NODE_TYPES.RestElement) return undefined;
      const rest = patternPath(element, name);
      return rest && [String(index), ...rest];
    }
    return undefined;
  }
  if (pattern.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  for (const property of pattern.properties) {
    if (property.type !== AST_NODE_TYPES.Property || !(property.range[0] <= name.range[0] && name.range[1] <= property.range[1])) continue;
    const key = getPropertyKeyName(property);
    const rest = key === undefined ? undefined : patternPath(property.value, name);
    return rest && key !== undefined ? [key, ...rest] : undefined;
  }
  return undefined;
}
