import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, type TSESLint } from '@typescript-eslint/utils';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { type FunctionNode, isFunctionNode, isNodeOfFile, resolveReference } from '../ast/index.js';
import { createToolRecogniser, FRAMEWORKS, fromWrapperCall, type ToolDefinition, type ToolFactory } from '../tools/index.js';
import { parseOnTheSide } from './programFiles.js';

// Tools registered through a project's own wrapper that another file exports (`lib/register.ts`:
// `export function addTool(server, name, handler) { server.registerTool(name, {...}, handler) }`,
// called as `addTool(server, 'refund', ...)` in `src/tools.ts`), without type information: the
// import's relative specifier is resolved on disk as TypeScript's `nodenext` and bundlers resolve it
// (`./x.js` is `./x.ts`), the declaring file is parsed with the same ESTree analysis, and the
// wrapper is read there as tools/localWrappers.ts reads a same-file one. Only a relative import of
// a file that exists, a function that file declares and exports (directly or through `export { }`
// and re-exports), and a body the recogniser reads as a wrapper is followed; anything else is no
// answer. `program/crossFileTools.ts` is the type-aware twin (the checker names the declaration).

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The wrapper calls of one file, resolved through its relative imports. */
export interface ImportedWrappers {
  /**
   * The tools `call` defines through a wrapper another file exports, as defined at the call (named
   * by its arguments, with its handler); none when the callee is no such wrapper or cannot be read.
   * Parts of a definition written in the wrapper's file (its config literal, its input schema) are
   * left out: they are nodes of another file, and every reader of a definition reads the calling
   * file.
   */
  wrapperCall(call: TSESTree.CallExpression): readonly ImportedWrapperTool[];
}

/** A tool defined at a call of an imported wrapper, and the definition inside the wrapper that the call makes. */
export interface ImportedWrapperTool {
  readonly definition: ToolDefinition;
  /** The wrapper's file (absolute) and where in it the wrapped definition starts (1-based line and column). */
  readonly wrapped: { readonly fileName: string; readonly line: number; readonly column: number };
}

const NONE: readonly ImportedWrapperTool[] = [];
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_TO_TS: Readonly<Record<string, readonly string[]>> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };
const MAX_REEXPORTS = 4;
/** Files kept read (and, where a wrapper can be, parsed) at once, in the process. */
const MAX_SIDE_FILES = 256;
/** `export { a } from '...'` or `export * from '...'`. */
const REEXPORT = /export\s*(?:\*|\{[^}]*\})\s*from\s*['"]/;

/** One file read on the side, keyed by its path and checked against its size and time (a file edited between runs is read again). */
interface SideFile {
  readonly stamp: string;
  readonly text: string;
  /** Read at the first question that needs it; `null`: it does not parse. */
  shape?: FileShape | null;
  readonly recognisers: Map<string, ReturnType<typeof createToolRecogniser>>;
}

const sideFiles = new Map<string, SideFile>();

/**
 * Creates the reader of one linted file's calls of imported wrappers.
 *
 * @param toolFactories - the rules' `toolFactories` option: the wrapper's file is read with them.
 */
export function createImportedWrappers(sourceCode: SourceCode, fileName: string, toolFactories: readonly ToolFactory[] = []): ImportedWrappers {
  const factoriesKey = JSON.stringify(toolFactories);
  // Only a file that names a tool module can hold a wrapper, and one that re-exports from another
  // can lead to one: any other file the project imports is not parsed (most of them, on real code).
  const modules = [...FRAMEWORKS.flatMap((entry) => entry.modules), ...toolFactories.map((factory) => factory.from)];
  const mentionsToolModule = (text: string): boolean => modules.some((name) => text.includes(`'${name}`) || text.includes(`"${name}`));
  const answers = new Map<TSESTree.Node, readonly ImportedWrapperTool[]>();
  // Most calls of a file go to a few imports: each is resolved once.
  const targets = new Map<string, ReturnType<typeof findExportedFunction>>();
  return {
    wrapperCall(call) {
      let found = answers.get(call);
      if (!found) answers.set(call, (found = readWrapperCall(call)));
      return found;
    },
  };

  function targetOf(source: string, name: string): ReturnType<typeof findExportedFunction> {
    const id = `${source}\0${name}`;
    if (!targets.has(id)) targets.set(id, findExportedFunction(resolveModule(path.dirname(fileName), source), name, mentionsToolModule, 0));
    return targets.get(id);
  }

  function readWrapperCall(call: TSESTree.CallExpression): readonly ImportedWrapperTool[] {
    if (call.arguments.length === 0) return NONE;
    const reference = resolveReference(sourceCode, call.callee);
    if (!reference || !reference.source.startsWith('.') || reference.path.length !== 1) return NONE;
    const target = targetOf(reference.source, reference.path[0] as string);
    if (!target) return NONE;
    let recogniser = target.file.recognisers.get(factoriesKey);
    if (!recogniser) target.file.recognisers.set(factoriesKey, (recogniser = createToolRecogniser(target.sourceCode, { toolFactories })));
    const wrapper = recogniser.wrapperOf(target.fn);
    if (!wrapper) return NONE;
    return wrapper.wrapped.flatMap((entry) => {
      const start = entry.inner.node.loc.start;
      const wrapped = { fileName: target.fileName, line: start.line, column: start.column + 1 };
      return fromWrapperCall(sourceCode, call, { ...wrapper, wrapped: [entry] }).map((definition) => ({ definition: withoutForeignNodes(definition, sourceCode), wrapped }));
    });
  }
}

/** The definition with every node that is not in the calling file's tree left out. */
function withoutForeignNodes(definition: ToolDefinition, sourceCode: SourceCode): ToolDefinition {
  const own = <T extends TSESTree.Node>(node: T | undefined): T | undefined => (node && isNodeOfFile(node, sourceCode) ? node : undefined);
  return {
    ...definition,
    configNode: own(definition.configNode),
    config: own(definition.config),
    inputSchema: own(definition.inputSchema),
    handler: own(definition.handler),
    annotationsNode: own(definition.annotationsNode),
    annotations: own(definition.annotations),
    policy: definition.policy && isNodeOfFile(definition.policy.node, sourceCode) ? definition.policy : undefined,
  };
}


/** The file a relative specifier names, as TypeScript resolves it (`./x.js` is `./x.ts`, `./dir` is `./dir/index.ts`). */
function resolveModule(fromDir: string, specifier: string): string | undefined {
  const base = path.resolve(fromDir, specifier);
  const extension = path.extname(base);
  const stem = base.slice(0, base.length - extension.length);
  const candidates = [
    ...(JS_TO_TS[extension] ?? []).map((ts) => stem + ts),
    ...(EXTENSIONS.includes(extension) ? [base] : []),
    ...EXTENSIONS.map((ext) => base + ext),
    ...EXTENSIONS.map((ext) => path.join(base, `index${ext}`)),
  ];
  return candidates.find((candidate) => !candidate.endsWith('.d.ts') && isFile(candidate));
}

function isFile(file: string): boolean {
  return existsSync(file) && statSync(file).isFile();
}

/** The function `name` that `file` exports, followed through `export { a as name }`, `export { name } from` and `export * from`. */
function findExportedFunction(
  file: string | undefined,
  name: string,
  mentionsToolModule: (text: string) => boolean,
  depth: number,
): { fileName: string; file: SideFile; sourceCode: SourceCode; fn: FunctionNode } | undefined {
  const side = file === undefined ? undefined : readSideFile(file);
  if (file === undefined || !side) return undefined;
  const wrapperFile = mentionsToolModule(side.text);
  if (!wrapperFile && !REEXPORT.test(side.text)) return undefined;
  const shape = shapeOf(file, side, wrapperFile);
  if (!shape) return undefined;
  const { sourceCode } = shape;
  if (wrapperFile && sourceCode) {
    const local = shape.local.get(name);
    const fn =
      local === undefined
        ? undefined
        : sourceCode.ast.body
            .map((candidate: TSESTree.Node) => declaredFunction(candidate.type === AST_NODE_TYPES.ExportNamedDeclaration && candidate.declaration ? candidate.declaration : candidate, local))
            .find((found) => found !== undefined);
    if (fn) return { fileName: file, file: side, sourceCode, fn };
    if (name === 'default' && shape.defaultFunction) return { fileName: file, file: side, sourceCode, fn: shape.defaultFunction };
  }
  if (depth >= MAX_REEXPORTS) return undefined;
  const reexported = shape.reexported.get(name);
  if (reexported) return findExportedFunction(resolveModule(path.dirname(file), reexported.from), reexported.name, mentionsToolModule, depth + 1);
  // `export * from './register.js'`: the name is the first starred module's that declares it.
  for (const specifier of shape.stars) {
    const found = findExportedFunction(resolveModule(path.dirname(file), specifier), name, mentionsToolModule, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** What a file exports, read once: its AST is kept only where a wrapper can be (it names a tool module); a barrel's is not. */
interface FileShape {
  readonly sourceCode: SourceCode | undefined;
  /** Exported name to the local name of a function or const of the file. */
  readonly local: ReadonlyMap<string, string>;
  readonly defaultFunction: FunctionNode | undefined;
  /** Exported name to the module and name it re-exports. */
  readonly reexported: ReadonlyMap<string, { readonly from: string; readonly name: string }>;
  readonly stars: readonly string[];
}

function shapeOf(file: string, side: SideFile, keepTree: boolean): FileShape | undefined {
  if (side.shape === null || (side.shape && (side.shape.sourceCode || !keepTree))) return side.shape ?? undefined;
  const sourceCode = parseSideFile(file, side.text);
  if (!sourceCode) {
    side.shape = null;
    return undefined;
  }
  const local = new Map<string, string>();
  const reexported = new Map<string, { from: string; name: string }>();
  const stars: string[] = [];
  let defaultFunction: FunctionNode | undefined;
  for (const statement of sourceCode.ast.body) {
    if (statement.type === AST_NODE_TYPES.ExportAllDeclaration && statement.exported === null && statement.exportKind !== 'type') stars.push(statement.source.value);
    if (statement.type === AST_NODE_TYPES.ExportDefaultDeclaration && isFunctionNode(statement.declaration)) defaultFunction = statement.declaration;
    if (statement.type !== AST_NODE_TYPES.ExportNamedDeclaration || statement.exportKind === 'type') continue;
    for (const declared of declaredNames(statement.declaration)) local.set(declared, declared);
    for (const specifier of statement.specifiers) {
      const exported = exportedName(specifier.exported);
      if (statement.source) reexported.set(exported, { from: statement.source.value, name: exportedName(specifier.local) });
      else local.set(exported, exportedName(specifier.local));
    }
  }
  const shape: FileShape = { sourceCode: keepTree ? sourceCode : undefined, local, defaultFunction, reexported, stars };
  side.shape = shape;
  return shape;
}

/** The names a top-level declaration binds (`function a`, `const a = ..., b = ...`). */
function declaredNames(declaration: TSESTree.ExportNamedDeclaration['declaration']): string[] {
  if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration) return declaration.id ? [declaration.id.name] : [];
  if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration) return [];
  return declaration.declarations.flatMap((declarator) => (declarator.id.type === AST_NODE_TYPES.Identifier ? [declarator.id.name] : []));
}

function exportedName(node: TSESTree.Identifier | TSESTree.StringLiteral): string {
  return node.type === AST_NODE_TYPES.Identifier ? node.name : node.value;
}

/** `function name() {}` or `const name = () => ...` / `function () {}` at the top of a file. */
function declaredFunction(statement: TSESTree.Node, name: string): FunctionNode | undefined {
  if (statement.type === AST_NODE_TYPES.FunctionDeclaration) return statement.id?.name === name ? statement : undefined;
  if (statement.type !== AST_NODE_TYPES.VariableDeclaration || statement.kind !== 'const') return undefined;
  const declarator = statement.declarations.find((candidate) => candidate.id.type === AST_NODE_TYPES.Identifier && candidate.id.name === name);
  return declarator?.init && isFunctionNode(declarator.init) ? declarator.init : undefined;
}

/** The file parsed as ESLint's TypeScript parser parses it, without a program; `sourceCode: null` when it does not parse. */
function readSideFile(file: string): SideFile | undefined {
  try {
    const stats = statSync(file);
    const stamp = `${stats.size}:${stats.mtimeMs}`;
    const cached = sideFiles.get(file);
    // Least recently used last out: the cache holds trees, and a large tree imports many files.
    sideFiles.delete(file);
    const side: SideFile = cached?.stamp === stamp ? cached : { stamp, text: readFileSync(file, 'utf8'), recognisers: new Map() };
    sideFiles.set(file, side);
    if (sideFiles.size > MAX_SIDE_FILES) sideFiles.delete(sideFiles.keys().next().value as string);
    return side;
  } catch {
    return undefined;
  }
}

function parseSideFile(file: string, text: string): SourceCode | null {
  try {
    return parseOnTheSide(text, file, { jsx: /\.[jt]sx$/.test(file) }).sourceCode;
  } catch {
    return null;
  }
}
