import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type ts from 'typescript';

import { type FunctionNode, isFunctionNode, skipWrappers } from '../ast/index.js';
import { getProgramFile, type ProgramFile } from './programFiles.js';
import { typescript } from './typescript.js';

// What a call or a name in one file refers to in another, by the type checker: the symbol (aliases and
// re-exports resolved), and the declaration with a body that the ESTree analysis can read.

/** A function with a body, declared in a file the analysis can read, in that file's ESTree. */
export interface FunctionTarget {
  readonly file: ProgramFile;
  readonly fn: FunctionNode;
  /** The TypeScript declaration: its parameters carry the declared types. */
  readonly declaration: ts.SignatureDeclaration;
}

/** Follows `import`/`export` aliases, however many, to the symbol that is declared. */
export function resolveAlias(checker: ts.TypeChecker, symbol: ts.Symbol | undefined): ts.Symbol | undefined {
  if (!symbol || !(symbol.flags & typescript.SymbolFlags.Alias)) return symbol;
  return checker.getAliasedSymbol(symbol);
}

/**
 * The declared symbol a callee names: `makeKey` in `makeKey()`, `make` in `keys.make()` or
 * `client.make()`, the class in `new Tool()`.
 */
export function getCalleeSymbol(
  checker: ts.TypeChecker,
  file: ProgramFile,
  call: TSESTree.CallExpression | TSESTree.NewExpression,
): ts.Symbol | undefined {
  const callee = file.esTreeNodeToTSNodeMap.get(skipWrappers(call.callee, { optionalChains: true }));
  const name = typescript.isPropertyAccessExpression(callee)
    ? callee.name
    : typescript.isElementAccessExpression(callee)
      ? callee.argumentExpression
      : callee;
  return resolveAlias(checker, checker.getSymbolAtLocation(name));
}

/** The symbol an identifier reads, with `path` below it followed through namespace imports. */
export function getReadSymbol(
  checker: ts.TypeChecker,
  file: ProgramFile,
  identifier: TSESTree.Identifier,
  path: readonly string[],
): { symbol: ts.Symbol; path: readonly string[] } | undefined {
  let symbol = resolveAlias(checker, checker.getSymbolAtLocation(file.esTreeNodeToTSNodeMap.get(identifier)));
  let rest = path;
  // `import * as ids from './ids.js'; ids.SESSION_KEY`: the module, then its export.
  while (symbol && symbol.flags & typescript.SymbolFlags.ValueModule && rest[0] !== undefined) {
    symbol = resolveAlias(checker, checker.tryGetMemberInModuleExports(rest[0], symbol));
    rest = rest.slice(1);
  }
  return symbol && { symbol, path: rest };
}

/**
 * Whether the analysis reads a file's code: not the standard library, not a package's files, not
 * declaration files (they have no bodies to read).
 */
export function isAnalysableFile(program: ts.Program, sourceFile: ts.SourceFile): boolean {
  return (
    !sourceFile.isDeclarationFile &&
    !program.isSourceFileDefaultLibrary(sourceFile) &&
    !program.isSourceFileFromExternalLibrary(sourceFile)
  );
}

/** The first declaration of `symbol` that is a function with a body in a file the analysis reads. */
export function getFunctionTarget(program: ts.Program, symbol: ts.Symbol): FunctionTarget | undefined {
  const declaration = getFunctionDeclaration(program, symbol);
  return declaration && toFunctionTarget(program, declaration);
}

/** Like {@link getFunctionTarget}, without converting the declaring file yet. */
export function getFunctionDeclaration(program: ts.Program, symbol: ts.Symbol): ts.SignatureDeclaration | undefined {
  for (const declaration of symbol.declarations ?? []) {
    const tsFunction = getDeclaredFunction(declaration);
    if (tsFunction && isAnalysableFile(program, declaration.getSourceFile())) return tsFunction;
  }
  return undefined;
}

/** A function declaration of the program in its file's ESTree (the file is converted once, then cached). */
export function toFunctionTarget(program: ts.Program, declaration: ts.SignatureDeclaration): FunctionTarget | undefined {
  const file = getProgramFile(program, declaration.getSourceFile());
  const fn = toFunctionNode(file.tsNodeToESTreeNodeMap.get(declaration));
  return fn && { file, fn, declaration };
}

/** The ESTree variable declarator of a `const`/`let` the symbol declares, in a file the analysis reads. */
export function getVariableTarget(
  program: ts.Program,
  symbol: ts.Symbol,
): { file: ProgramFile; declarator: TSESTree.VariableDeclarator } | undefined {
  const declaration = symbol.valueDeclaration;
  if (!declaration || !typescript.isVariableDeclaration(declaration) || !typescript.isIdentifier(declaration.name)) return undefined;
  if (!isAnalysableFile(program, declaration.getSourceFile())) return undefined;
  const file = getProgramFile(program, declaration.getSourceFile());
  const declarator = file.tsNodeToESTreeNodeMap.get(declaration) as TSESTree.Node | undefined;
  return declarator?.type === AST_NODE_TYPES.VariableDeclarator ? { file, declarator } : undefined;
}

/** The function a declaration declares: itself, or the arrow or function expression it is set to. */
export function getDeclaredFunction(declaration: ts.Node): ts.SignatureDeclaration | undefined {
  if (typescript.isFunctionDeclaration(declaration) || typescript.isMethodDeclaration(declaration)) {
    return declaration.body ? declaration : undefined;
  }
  if (typescript.isArrowFunction(declaration) || typescript.isFunctionExpression(declaration)) return declaration;
  const initializer =
    typescript.isVariableDeclaration(declaration) || typescript.isPropertyAssignment(declaration) || typescript.isPropertyDeclaration(declaration)
      ? declaration.initializer
      : typescript.isExportAssignment(declaration)
        ? declaration.expression
        : undefined;
  const value = initializer && skipTsWrappers(initializer);
  return value && (typescript.isArrowFunction(value) || typescript.isFunctionExpression(value)) ? value : undefined;
}

/** The function node an ESTree declaration maps to (`export function`, methods and properties unwrapped). */
function toFunctionNode(node: TSESTree.Node | undefined): FunctionNode | undefined {
  if (!node) return undefined;
  if (isFunctionNode(node)) return node;
  switch (node.type) {
    case AST_NODE_TYPES.ExportNamedDeclaration:
    case AST_NODE_TYPES.ExportDefaultDeclaration:
      return node.declaration ? toFunctionNode(node.declaration) : undefined;
    case AST_NODE_TYPES.MethodDefinition:
    case AST_NODE_TYPES.Property:
    case AST_NODE_TYPES.PropertyDefinition:
      return node.value ? toFunctionNode(node.value) : undefined;
    default:
      return undefined;
  }
}

/** The TypeScript expression inside parentheses, `as`, `satisfies`, `!` and `<T>x`. */
function skipTsWrappers(node: ts.Expression): ts.Expression {
  if (typescript.isParenthesizedExpression(node) || typescript.isAsExpression(node) || typescript.isSatisfiesExpression(node) || typescript.isNonNullExpression(node) || typescript.isTypeAssertionExpression(node)) {
    return skipTsWrappers(node.expression);
  }
  return node;
}
