import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

// Small questions about AST nodes that every analysis asks: is this a function, what
// does it return, what wraps this expression. Nothing here knows about keys or tools.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** A function whose body the analyses can read: a declaration, an expression or an arrow. */
export type FunctionNode = TSESTree.ArrowFunctionExpression | TSESTree.FunctionDeclaration | TSESTree.FunctionExpression;

/** Whether `node` is a function declaration, function expression or arrow function. */
export function isFunctionNode(node: TSESTree.Node | null | undefined): node is FunctionNode {
  return (
    node?.type === AST_NODE_TYPES.ArrowFunctionExpression ||
    node?.type === AST_NODE_TYPES.FunctionDeclaration ||
    node?.type === AST_NODE_TYPES.FunctionExpression
  );
}

/** Whether a value read off a node's visitor key is itself a node. */
export function isAstNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** The child nodes of `node`, in source order, as the parser's visitor keys list them. */
export function getChildNodes(node: TSESTree.Node, sourceCode: SourceCode): TSESTree.Node[] {
  const children: TSESTree.Node[] = [];
  for (const key of sourceCode.visitorKeys[node.type] ?? []) {
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const child of value) if (isAstNode(child)) children.push(child);
    } else if (isAstNode(value)) {
      children.push(value);
    }
  }
  return children;
}

/** Is `target` bumped in place: `target++`, `--target`, `target += n`, `target -= n`? */
export function isIncrementTarget(target: TSESTree.Node): boolean {
  const parent = target.parent;
  if (parent?.type === AST_NODE_TYPES.UpdateExpression) return true;
  return (
    parent?.type === AST_NODE_TYPES.AssignmentExpression &&
    parent.left === target &&
    (parent.operator === '+=' || parent.operator === '-=')
  );
}

/** Whether `node` is part of the tree of the file `sourceCode` reads (a node handed over from another file is not). */
export function isNodeOfFile(node: TSESTree.Node, sourceCode: SourceCode): boolean {
  let root: TSESTree.Node = node;
  while (root.parent) root = root.parent;
  return root === sourceCode.ast;
}

/** Whether `inner`'s source range lies within `outer`'s (the node itself counts). */
export function containsNode(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
}

/** One step of ESLint's traversal of a file (`SourceCode#traverse()`, the language API of `@eslint/core`). */
interface TraversalStep {
  /** 1: a node is entered (phase 1) or left (phase 2); 2: a code-path event. */
  readonly kind: number;
  readonly phase?: number;
  readonly target: unknown;
}

/** SourceCode objects the plugin built itself (files parsed on the side): ESLint has not traversed them. */
const ownSourceCodes = new WeakSet<object>();

/** Marks a SourceCode the plugin built, which {@link walkFile} walks itself rather than asking for ESLint's steps. */
export function markOwnSourceCode(sourceCode: SourceCode): void {
  ownSourceCodes.add(sourceCode);
}

/**
 * Visits every node of the file but the root, depth first in source order (the order ESLint
 * visits them; the same as {@link walk} from `sourceCode.ast`). Where ESLint lints the file, its
 * own traversal's steps are read (`SourceCode#traverse()`, computed once per file before the rules
 * run and cached): no walk of the tree of our own (docs/performance.md).
 */
export function walkFile(sourceCode: SourceCode, visit: (node: TSESTree.Node) => void): void {
  const traverse = (sourceCode as { traverse?: () => Iterable<TraversalStep> }).traverse;
  if (typeof traverse !== 'function' || ownSourceCodes.has(sourceCode)) {
    walk(sourceCode.ast, sourceCode, (node) => {
      visit(node);
      return true;
    });
    return;
  }
  const root = sourceCode.ast;
  for (const step of traverse.call(sourceCode)) {
    if (step.kind === 1 && step.phase === 1 && step.target !== root) visit(step.target as TSESTree.Node);
  }
}

/** A call, a `new` or a class: the nodes at which a tool can be defined. */
export type CallOrClassNode = TSESTree.CallExpression | TSESTree.NewExpression | TSESTree.ClassDeclaration | TSESTree.ClassExpression;

const callsAndClassesByFile = new WeakMap<SourceCode, readonly CallOrClassNode[]>();

/**
 * Every call, `new` and class (declaration or expression) of the file, in the order {@link walkFile}
 * visits them (source order), found once per file and shared by every rule: the tool recogniser
 * and the low-level MCP handler reader look at no other node, and read this list instead of each
 * walking the file with a callback per node (docs/performance.md).
 */
export function getCallsAndClasses(sourceCode: SourceCode): readonly CallOrClassNode[] {
  let nodes = callsAndClassesByFile.get(sourceCode);
  if (nodes === undefined) {
    nodes = collectCallsAndClasses(sourceCode);
    callsAndClassesByFile.set(sourceCode, nodes);
  }
  return nodes;
}

function collectCallsAndClasses(sourceCode: SourceCode): CallOrClassNode[] {
  const nodes: CallOrClassNode[] = [];
  // walkFile reads ESLint's own traversal where there is one: still no walk of the tree of ours.
  walkFile(sourceCode, (node) => {
    if (isCallOrClass(node)) nodes.push(node);
  });
  return nodes;
}

function isCallOrClass(node: TSESTree.Node): node is CallOrClassNode {
  const type = node.type;
  return (
    type === AST_NODE_TYPES.CallExpression ||
    type === AST_NODE_TYPES.NewExpression ||
    type === AST_NODE_TYPES.ClassDeclaration ||
    type === AST_NODE_TYPES.ClassExpression
  );
}

/** Whether some descendant of `root` passes `test`, visited as {@link walk} visits them (none after the first that passes). */
export function someDescendant(root: TSESTree.Node, sourceCode: SourceCode, test: (node: TSESTree.Node) => boolean): boolean {
  let found = false;
  walk(root, sourceCode, (node) => !found && !(found = test(node)));
  return found;
}

/** Visits `root`'s descendants depth first, in source order; `visit` returns false to skip a node's children. */
export function walk(root: TSESTree.Node, sourceCode: SourceCode, visit: (node: TSESTree.Node) => boolean): void {
  const { visitorKeys } = sourceCode;
  const pending: TSESTree.Node[] = [root];
  // The stack pops the last pushed first: children are pushed last key first, last element first,
  // so that they pop in source order. No array per node: the rules walk whole files with this.
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node !== root && !visit(node)) continue;
    const keys = visitorKeys[node.type];
    if (!keys) continue;
    for (let k = keys.length - 1; k >= 0; k -= 1) {
      const value = (node as unknown as Record<string, unknown>)[keys[k]!];
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i -= 1) {
          const child: unknown = value[i];
          if (isAstNode(child)) pending.push(child);
        }
      } else if (isAstNode(value)) {
        pending.push(value);
      }
    }
  }
}

/** The expressions a function returns: an arrow's expression body, or every `return x` in its body (not nested functions'). */
export function getReturnedExpressions(fn: FunctionNode, sourceCode: SourceCode): TSESTree.Expression[] {
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return [fn.body];
  const returned: TSESTree.Expression[] = [];
  walk(fn.body, sourceCode, (node) => {
    if (isFunctionNode(node) || node.type === AST_NODE_TYPES.ClassBody) return false;
    if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument) returned.push(node.argument);
    return true;
  });
  return returned;
}

const TS_WRAPPERS = new Set<AST_NODE_TYPES>([
  AST_NODE_TYPES.TSAsExpression,
  AST_NODE_TYPES.TSNonNullExpression,
  AST_NODE_TYPES.TSSatisfiesExpression,
  AST_NODE_TYPES.TSTypeAssertion,
]);

/** The node itself, or the outermost `as` / `satisfies` / `!` / `<T>` around it. */
export function outermostTypeWrapper(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (current.parent && TS_WRAPPERS.has(current.parent.type)) current = current.parent;
  return current;
}

/**
 * `x as T`, `x satisfies T`, `x!`, `<T>x` → `x`, repeatedly. With `optionalChains`, `a?.b` is read
 * as `a.b`; with `awaits`, `await x` as `x` (for following a value, where awaiting changes nothing).
 */
export function skipWrappers(node: TSESTree.Node, { optionalChains = false, awaits = false } = {}): TSESTree.Node {
  let current = node;
  for (;;) {
    if (TS_WRAPPERS.has(current.type) || (optionalChains && current.type === AST_NODE_TYPES.ChainExpression)) {
      current = (current as TSESTree.TSAsExpression | TSESTree.ChainExpression).expression;
    } else if (awaits && current.type === AST_NODE_TYPES.AwaitExpression) {
      current = current.argument;
    } else {
      return current;
    }
  }
}
