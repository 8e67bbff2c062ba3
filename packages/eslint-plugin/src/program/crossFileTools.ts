import type { ParserServicesWithTypeInformation, TSESLint, TSESTree } from '@typescript-eslint/utils';
import type ts from 'typescript';

import {
  createToolRecogniser,
  FRAMEWORKS,
  fromWrapperCall,
  isFrameworkModule,
  type LocalWrapper,
  type SpreadResolver,
  type ToolDefinition,
  type ToolFactory,
} from '../tools/index.js';
import { getFunctionDeclaration, toFunctionTarget } from './declarationTargets.js';
import { createImportedObjectResolver } from './importedObjects.js';
import { getLintedFile, type ProgramFile } from './programFiles.js';
import { typescript } from './typescript.js';

// Registration through indirection across files (issue 14, class 3), for the type-aware twin of
// require-retry-policy. The syntactic rule follows a `const` spread into a tool config and a
// project's own wrapper around a registration or factory within one file (tools/localWrappers.ts);
// here the checker names what an import is, and the declaring file is read with the same ESTree
// analysis:
// - a spread of an imported `const` (`{ ...baseConfig }`) is read where the `const` is declared;
// - a call of an imported function is a wrapper call when that function's body registers or defines
//   a tool from its parameters (`registerAll(server, tools)`, `myTool(name, cfg, fn)`), and the tools
//   are then judged at the call, with its arguments in place of the parameters.
// Only what the analysis can read is followed: a declaration in a package, in a declaration file or
// behind something the checker cannot resolve is no answer, and the tool keeps the benefit of the doubt.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** What the follower needs from the rule's context. */
export interface CrossFileToolsContext {
  readonly sourceCode: SourceCode;
  readonly fileName: string;
  readonly services: ParserServicesWithTypeInformation;
  /** The rule's `toolFactories` option: a wrapper's file is read with the same factories. */
  readonly toolFactories: readonly ToolFactory[];
}

/** Cross-file registration questions about one linted file. */
export interface CrossFileTools {
  /** Reads a spread of another file's `const` (for {@link spreadsMayDeclare}); `undefined` when not visible. */
  readonly resolveSpread: SpreadResolver;
  /**
   * The tools a call defines through a wrapper that `symbol` (the callee's, aliases resolved)
   * declares in another file of the program; none when it is no wrapper or cannot be read.
   */
  wrapperCall(call: TSESTree.CallExpression, symbol: ts.Symbol): readonly ToolDefinition[];
}

const NONE: readonly ToolDefinition[] = [];

/** The method names of the catalogue's server registrations (`registerTool`, `tool`, `addTool`, `addTools`). */
const REGISTRATION_METHODS: readonly string[] = [...new Set(FRAMEWORKS.flatMap((entry) => entry.registrations.map((registration) => registration.method)))];

/** Per program: each declaring file's recogniser and each function's wrapper, shared by every linted file. */
interface ProgramTools {
  readonly recognisers: Map<SourceCode, ReturnType<typeof createToolRecogniser>>;
  readonly wrappers: Map<ts.Node, LocalWrapper | null>;
  readonly toolNames: Map<ts.SourceFile, readonly string[]>;
}

const toolsByProgram = new WeakMap<ts.Program, Map<string, ProgramTools>>();

function getProgramTools(program: ts.Program, factoriesKey: string): ProgramTools {
  let byFactories = toolsByProgram.get(program);
  if (!byFactories) toolsByProgram.set(program, (byFactories = new Map()));
  let tools = byFactories.get(factoriesKey);
  if (!tools) byFactories.set(factoriesKey, (tools = { recognisers: new Map(), wrappers: new Map(), toolNames: new Map() }));
  return tools;
}

/** Creates the cross-file registration follower for one linted file. */
export function createCrossFileTools(context: CrossFileToolsContext): CrossFileTools {
  const { program } = context.services;
  const linted = getLintedFile(context.sourceCode, context.fileName, context.services);
  const shared = getProgramTools(program, JSON.stringify(context.toolFactories));

  // A spread of an imported const is read where it is declared (the same reader the other type-aware rules use).
  const resolveSpread: SpreadResolver = createImportedObjectResolver(context.sourceCode, context.fileName, context.services);

  function wrapperOf(symbol: ts.Symbol): LocalWrapper | undefined {
    const declaration = getFunctionDeclaration(program, symbol);
    // A function of the linted file is the syntactic rule's to follow.
    if (!declaration || declaration.getSourceFile().fileName === linted.fileName) return undefined;
    const cached = shared.wrappers.get(declaration);
    if (cached !== undefined) return cached ?? undefined;
    shared.wrappers.set(declaration, null);
    if (!mayDefineTools(declaration)) return undefined;
    const target = toFunctionTarget(program, declaration);
    if (!target) return undefined;
    const wrapper = recogniserOf(target.file).wrapperOf(target.fn);
    shared.wrappers.set(declaration, wrapper ?? null);
    return wrapper;
  }

  /**
   * Whether a function's text names something its file imports from a framework's module (or a
   * `toolFactories` module), or a server's registration method in a file that imports one: the only
   * calls the syntactic recogniser can see as tool definitions. TypeScript's tree and text only, so
   * that a file is converted to ESTree only for a function that may be a wrapper.
   */
  function mayDefineTools(declaration: ts.SignatureDeclaration): boolean {
    const names = toolNamesOf(declaration.getSourceFile());
    if (names.length === 0) return false;
    const text = declaration.getSourceFile().text.slice(declaration.pos, declaration.end);
    return names.some((name) => text.includes(name));
  }

  /** The local names of a file's imports (and `require`s) of tool modules, and the registration methods if it imports a server's. */
  function toolNamesOf(sourceFile: ts.SourceFile): readonly string[] {
    let names = shared.toolNames.get(sourceFile);
    if (!names) {
      names = readToolNames(sourceFile, context.toolFactories);
      shared.toolNames.set(sourceFile, names);
    }
    return names;
  }

  function recogniserOf(file: ProgramFile): ReturnType<typeof createToolRecogniser> {
    let recogniser = shared.recognisers.get(file.sourceCode);
    if (!recogniser) {
      recogniser = createToolRecogniser(file.sourceCode, { toolFactories: context.toolFactories });
      shared.recognisers.set(file.sourceCode, recogniser);
    }
    return recogniser;
  }

  return {
    resolveSpread,
    wrapperCall(call, symbol) {
      const wrapper = wrapperOf(symbol);
      return wrapper ? fromWrapperCall(context.sourceCode, call, wrapper) : NONE;
    },
  };
}

/** What importing a module can bind that the recogniser sees as a tool definition: factory exports, and whether its servers register tools. */
interface ToolModule {
  /** The first segment of each factory's export path (`tool`, `DynamicStructuredTool`, `tools` for `tools.create`). */
  readonly factories: ReadonlySet<string>;
  readonly registers: boolean;
}

/** The tool module a specifier names: a framework's (by the catalogue) or a `toolFactories` module. */
function toolModuleOf(specifier: string, factoryModules: readonly ToolFactory[]): ToolModule | undefined {
  const entry = FRAMEWORKS.find((candidate) => isFrameworkModule(candidate, specifier));
  const factories = new Set([
    ...(entry?.factories ?? []).map((factory) => firstSegment(factory.export)),
    ...factoryModules.filter((factory) => factory.from === specifier).map((factory) => firstSegment(factory.name)),
  ]);
  const registers = (entry?.registrations.length ?? 0) > 0;
  return factories.size > 0 || registers ? { factories, registers } : undefined;
}

function firstSegment(path: string): string {
  return path.split('.')[0] ?? path;
}

/**
 * See `mayDefineTools`: the local names a file's top-level imports and `require`s bind to a tool
 * factory (a named import of a factory export, a namespace, default or whole-module binding), and
 * the registration methods when it imports a module whose servers register tools.
 */
function readToolNames(sourceFile: ts.SourceFile, factoryModules: readonly ToolFactory[]): readonly string[] {
  const names = new Set<string>();
  const add = (specifier: string, bound: readonly Binding[]): void => {
    const module = toolModuleOf(specifier, factoryModules);
    if (!module) return;
    for (const { local, imported } of bound) if (imported === undefined || module.factories.has(imported)) names.add(local);
    if (module.registers) for (const method of REGISTRATION_METHODS) names.add(method);
  };
  for (const statement of sourceFile.statements) {
    if (typescript.isImportDeclaration(statement) && typescript.isStringLiteral(statement.moduleSpecifier)) {
      add(statement.moduleSpecifier.text, getImportBindings(statement.importClause));
    } else if (typescript.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const specifier = getRequiredModule(declaration.initializer);
        if (specifier !== undefined) add(specifier, getRequireBindings(declaration.name));
      }
    }
  }
  return [...names];
}

/** A local name an import binds, and the export it names (`undefined`: the whole module, a namespace or a default). */
interface Binding {
  readonly local: string;
  readonly imported: string | undefined;
}

function getImportBindings(clause: ts.ImportClause | undefined): Binding[] {
  if (!clause) return [];
  const names: Binding[] = clause.name ? [{ local: clause.name.text, imported: undefined }] : [];
  const bindings = clause.namedBindings;
  if (bindings && typescript.isNamespaceImport(bindings)) names.push({ local: bindings.name.text, imported: undefined });
  else if (bindings) for (const element of bindings.elements) names.push({ local: element.name.text, imported: (element.propertyName ?? element.name).text });
  return names;
}

/** `'ai'` in `require('ai')` (also behind `__importDefault(...)` / `__importStar(...)`, as compiled CommonJS has it). */
function getRequiredModule(node: ts.Expression | undefined): string | undefined {
  if (!node || !typescript.isCallExpression(node)) return undefined;
  const [argument] = node.arguments;
  if (typescript.isIdentifier(node.expression) && node.expression.text === 'require') {
    return argument && typescript.isStringLiteral(argument) ? argument.text : undefined;
  }
  return getRequiredModule(argument);
}

/** `ai` in `const ai = require('ai')`; `tool` in `const { tool } = require('ai')` (and `{ tool: t }`). */
function getRequireBindings(name: ts.BindingName): Binding[] {
  if (typescript.isIdentifier(name)) return [{ local: name.text, imported: undefined }];
  if (!typescript.isObjectBindingPattern(name)) return [];
  return name.elements.flatMap((element): Binding[] => {
    if (!typescript.isIdentifier(element.name)) return [];
    const property = element.propertyName;
    const imported = property === undefined ? element.name.text : typescript.isIdentifier(property) ? property.text : undefined;
    return imported === undefined ? [] : [{ local: element.name.text, imported }];
  });
}
