import type ts from 'typescript';

import {
  type FactoryEntry,
  FRAMEWORKS,
  type PolicyLocation,
  type RegistrationEntry,
  type ToolFramework,
} from '../tools/index.js';
import { resolveAlias } from './declarationTargets.js';
import { getDeclaringPackage } from './declaringPackage.js';
import { typescript } from './typescript.js';

// Tool factories recognised by what the callee is, not by what it is called: the checker resolves the
// callee through renaming imports, re-exports and `const` aliases to its declaration, and the file that
// declares it names the package. `export { tool as defineAgentTool } from 'ai'` in a local module
// still leads to the AI SDK's `tool`, while a `tool` exported by an unrelated package does not.
// The declaring packages are each catalogue entry's `packages`, not its import names: `ai` re-exports
// `tool` from `@ai-sdk/provider-utils`, `@openai/agents` from `@openai/agents-core`.

/** A framework function, class or method that defines a tool when called. */
export interface DeclaredToolFactory {
  readonly framework: Exclude<ToolFramework, 'custom' | 'mcp-low-level'>;
  /** A function or class (`tool`, `DynamicStructuredTool`), or a method of a server (`McpServer.registerTool`). */
  readonly kind: 'factory' | 'serverMethod';
  /** Packages that may declare it. */
  readonly packages: readonly string[];
  /** Declared names: a function or class name, or `Class.method`. */
  readonly names: readonly string[];
  /** Index of the argument that holds the config object. */
  readonly configArgument: number;
  /** For factories that take the handler as an argument (LangChain `tool(fn, config)`). */
  readonly handlerArgument?: number;
  /** The config property that names the tool, when it is not `name`. */
  readonly nameProperty?: string;
  /** Where the framework's tools declare a policy. */
  readonly policy: PolicyLocation;
}

/** The factories and server methods of the catalogue's frameworks (tools/frameworks), recognised by declaration. */
export const DECLARED_TOOL_FACTORIES: readonly DeclaredToolFactory[] = FRAMEWORKS.flatMap((entry): DeclaredToolFactory[] => {
  if (entry.framework === 'mcp-low-level') return [];
  const common = { framework: entry.framework, packages: entry.packages, policy: entry.policy };
  return [
    ...entry.factories.map((factory: FactoryEntry): DeclaredToolFactory => ({
      ...common,
      kind: 'factory',
      names: [factory.export],
      configArgument: factory.configArgument,
      ...(factory.handlerArgument === undefined ? {} : { handlerArgument: factory.handlerArgument }),
      ...(factory.nameProperty === undefined ? {} : { nameProperty: factory.nameProperty }),
    })),
    ...entry.registrations.map((registration: RegistrationEntry): DeclaredToolFactory => ({
      ...common,
      kind: 'serverMethod',
      names: [`${registration.owner}.${registration.method}`],
      configArgument: registration.configArgument,
    })),
  ];
});

/** How many `const` aliases (`export const defineAgentTool = tool`) are followed. */
const MAX_ALIASES = 3;

/**
 * The tool factory that the callee at `callee` (an identifier, or the name of a property access) is
 * declared as, followed through aliases and re-exports, and through a `const` set to the factory
 * (`export const defineAgentTool = tool`) or declared with its type (`const t: typeof tool = ...`).
 * Symbols only: no type of the callee is computed.
 */
export function findDeclaredToolFactory(checker: ts.TypeChecker, callee: ts.Node): DeclaredToolFactory | undefined {
  return findDeclaredToolFactoryOf(checker, resolveAlias(checker, checker.getSymbolAtLocation(callee)));
}

/** {@link findDeclaredToolFactory} for the callee's symbol, aliases already resolved. */
export function findDeclaredToolFactoryOf(checker: ts.TypeChecker, declared: ts.Symbol | undefined): DeclaredToolFactory | undefined {
  let symbol = declared;
  for (let aliases = 0; symbol && aliases <= MAX_ALIASES; aliases++) {
    const factory = matchDeclarations(symbol.declarations);
    if (factory) return factory;
    const aliased = getAliasedValue(symbol.valueDeclaration);
    symbol = aliased && resolveAlias(checker, checker.getSymbolAtLocation(aliased));
  }
  return undefined;
}

/** `tool` in `const t = tool`, `const t = ai.tool` or `const t: typeof tool = ...`. */
function getAliasedValue(declaration: ts.Declaration | undefined): ts.Node | undefined {
  if (!declaration || !typescript.isVariableDeclaration(declaration)) return undefined;
  if (declaration.type && typescript.isTypeQueryNode(declaration.type)) {
    const name = declaration.type.exprName;
    return typescript.isQualifiedName(name) ? name.right : name;
  }
  const value = declaration.initializer;
  if (value && typescript.isIdentifier(value)) return value;
  return value && typescript.isPropertyAccessExpression(value) ? value.name : undefined;
}

function matchDeclarations(declarations: readonly ts.Declaration[] | undefined): DeclaredToolFactory | undefined {
  for (const declaration of declarations ?? []) {
    const name = getDeclaredName(declaration);
    const packageName = name === undefined ? undefined : getDeclaringPackage(declaration.getSourceFile().fileName);
    if (packageName === undefined) continue;
    const factory = DECLARED_TOOL_FACTORIES.find(
      (candidate) => candidate.packages.includes(packageName) && candidate.names.includes(name ?? ''),
    );
    if (factory) return factory;
  }
  return undefined;
}

/** `tool` for a function, class or variable; `McpServer.registerTool` for a method. */
function getDeclaredName(declaration: ts.Declaration): string | undefined {
  const name = typescript.getNameOfDeclaration(declaration);
  if (!name || !typescript.isIdentifier(name)) return undefined;
  if (!typescript.isMethodDeclaration(declaration) && !typescript.isMethodSignature(declaration)) return name.text;
  const owner = declaration.parent;
  const ownerName = typescript.isClassLike(owner) || typescript.isInterfaceDeclaration(owner) ? owner.name?.text : undefined;
  return ownerName === undefined ? undefined : `${ownerName}.${name.text}`;
}
