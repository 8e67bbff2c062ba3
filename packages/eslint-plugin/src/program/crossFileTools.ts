import type { ParserServicesWithTypeInformation, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type ts from 'typescript';

import { findProperty, findVariableOf, getConstantInitializer, getStaticPropertyName, resolveConst, resolveObject } from '../ast/index.js';
import {
  createToolRecogniser,
  FRAMEWORKS,
  fromWrapperCall,
  type LocalWrapper,
  type SpreadResolver,
  type ToolDefinition,
  type ToolFactory,
} from '../tools/index.js';
import { getFunctionDeclaration, getReadSymbol, getVariableTarget, toFunctionTarget } from './declarationTargets.js';
import { getLintedFile, type ProgramFile } from './programFiles.js';

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
/** How many member reads below an imported binding a spread is followed through (`presets.read.base`). */
const MAX_PATH = 3;

/**
 * The module names a file must quote to hold a tool definition the syntactic recogniser sees (a
 * framework's factory or server method is recognised through its import): a file whose text quotes
 * none of them, nor a `toolFactories` module, is not converted to ESTree to look for a wrapper.
 */
const FRAMEWORK_MODULES: readonly string[] = [...new Set(FRAMEWORKS.flatMap((entry) => entry.modules))];

/** Per program: each declaring file's recogniser and each function's wrapper, shared by every linted file. */
interface ProgramTools {
  readonly recognisers: Map<SourceCode, ReturnType<typeof createToolRecogniser>>;
  readonly wrappers: Map<ts.Node, LocalWrapper | null>;
  readonly mayDefine: Map<ts.SourceFile, boolean>;
}

const toolsByProgram = new WeakMap<ts.Program, Map<string, ProgramTools>>();

function getProgramTools(program: ts.Program, factoriesKey: string): ProgramTools {
  let byFactories = toolsByProgram.get(program);
  if (!byFactories) toolsByProgram.set(program, (byFactories = new Map()));
  let tools = byFactories.get(factoriesKey);
  if (!tools) byFactories.set(factoriesKey, (tools = { recognisers: new Map(), wrappers: new Map(), mayDefine: new Map() }));
  return tools;
}

/** Creates the cross-file registration follower for one linted file. */
export function createCrossFileTools(context: CrossFileToolsContext): CrossFileTools {
  const { program } = context.services;
  const checker = program.getTypeChecker();
  const linted = getLintedFile(context.sourceCode, context.fileName, context.services);
  const modules = [...FRAMEWORK_MODULES, ...context.toolFactories.map((factory) => factory.from)];
  const shared = getProgramTools(program, JSON.stringify(context.toolFactories));
  // The files a spread may be read in, by the SourceCode the judgement reads them with.
  const files = new Map<SourceCode, ProgramFile>([[context.sourceCode, linted]]);

  function resolveSpread(sourceCode: SourceCode, argument: TSESTree.Node): ReturnType<SpreadResolver> {
    const file = files.get(sourceCode);
    const read = file && getImportedRead(sourceCode, resolveConst(sourceCode, argument));
    if (!file || !read) return undefined;
    const found = getReadSymbol(checker, file, read.identifier, read.path);
    const target = found && getVariableTarget(program, found.symbol);
    if (!found || !target || target.file.fileName === file.fileName) return undefined;
    const targetCode = target.file.sourceCode;
    const id = target.declarator.id;
    const variable = id.type === AST_NODE_TYPES.Identifier ? findVariableOf(id, targetCode) : undefined;
    let value: TSESTree.Node | undefined = getConstantInitializer(variable);
    for (const name of found.path) value = value && findProperty(resolveObject(targetCode, value), name)?.value;
    const object = resolveObject(targetCode, value);
    if (!object) return undefined;
    files.set(targetCode, target.file);
    return { sourceCode: targetCode, object };
  }

  function wrapperOf(symbol: ts.Symbol): LocalWrapper | undefined {
    const declaration = getFunctionDeclaration(program, symbol);
    // A function of the linted file is the syntactic rule's to follow.
    if (!declaration || declaration.getSourceFile().fileName === linted.fileName) return undefined;
    const cached = shared.wrappers.get(declaration);
    if (cached !== undefined) return cached ?? undefined;
    shared.wrappers.set(declaration, null);
    if (!mayDefineTools(declaration.getSourceFile())) return undefined;
    const target = toFunctionTarget(program, declaration);
    if (!target) return undefined;
    const wrapper = recogniserOf(target.file).wrapperOf(target.fn);
    shared.wrappers.set(declaration, wrapper ?? null);
    return wrapper;
  }

  /** Whether a declaring file quotes a module a tool definition is recognised through (text only). */
  function mayDefineTools(sourceFile: ts.SourceFile): boolean {
    let may = shared.mayDefine.get(sourceFile);
    if (may === undefined) {
      const text = sourceFile.text;
      may = modules.some((name) => text.includes(name));
      shared.mayDefine.set(sourceFile, may);
    }
    return may;
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

/** `base`, or `presets.read` / `ns.base` below an imported binding: the imported identifier and the member path read below it. */
function getImportedRead(sourceCode: SourceCode, node: TSESTree.Node): { identifier: TSESTree.Identifier; path: string[] } | undefined {
  const path: string[] = [];
  let current = node;
  while (current.type === AST_NODE_TYPES.MemberExpression && path.length < MAX_PATH) {
    const name = getStaticPropertyName(current);
    if (name === undefined) return undefined;
    path.unshift(name);
    current = current.object;
  }
  if (current.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariableOf(current, sourceCode)?.defs[0];
  return def?.type === 'ImportBinding' ? { identifier: current, path } : undefined;
}
