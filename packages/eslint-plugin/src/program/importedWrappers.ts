import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, type TSESLint } from '@typescript-eslint/utils';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { type FunctionNode, isFunctionNode, resolveReference } from '../ast/index.js';
import { createToolRecogniser, fromWrapperCall, type ToolDefinition, type ToolFactory } from '../tools/index.js';
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

/** One file read on the side, keyed by its path and checked against its text (a file edited between runs is read again). */
interface SideFile {
  readonly text: string;
  readonly sourceCode: SourceCode | null;
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
  const answers = new Map<TSESTree.Node, readonly ImportedWrapperTool[]>();
  return {
    wrapperCall(call) {
      let found = answers.get(call);
      if (!found) answers.set(call, (found = readWrapperCall(call)));
      return found;
    },
  };

  function readWrapperCall(call: TSESTree.CallExpression): readonly ImportedWrapperTool[] {
    if (call.arguments.length === 0) return NONE;
    const reference = resolveReference(sourceCode, call.callee);
    if (!reference || !reference.source.startsWith('.') || reference.path.length !== 1) return NONE;
    const target = findExportedFunction(resolveModule(path.dirname(fileName), reference.source), reference.path[0] as string, 0);
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
  const own = <T extends TSESTree.Node>(node: T | undefined): T | undefined => (node && isIn(node, sourceCode) ? node : undefined);
  return {
    ...definition,
    configNode: own(definition.configNode),
    config: own(definition.config),
    inputSchema: own(definition.inputSchema),
    handler: own(definition.handler),
    annotationsNode: own(definition.annotationsNode),
    annotations: own(definition.annotations),
    policy: definition.policy && isIn(definition.policy.node, sourceCode) ? definition.policy : undefined,
  };
}

function isIn(node: TSESTree.Node, sourceCode: SourceCode): boolean {
  let root: TSESTree.Node = node;
  while (root.parent) root = root.parent;
  return root === sourceCode.ast;
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

/** The function `name` that `file` exports, followed through `export { a as name }` and `export { name } from`. */
function findExportedFunction(file: string | undefined, name: string, depth: number): { fileName: string; file: SideFile; sourceCode: SourceCode; fn: FunctionNode } | undefined {
  const side = file === undefined ? undefined : readSideFile(file);
  if (file === undefined || !side?.sourceCode) return undefined;
  const sourceCode = side.sourceCode;
  for (const statement of sourceCode.ast.body) {
    if (statement.type === AST_NODE_TYPES.ExportNamedDeclaration && statement.declaration) {
      const fn = declaredFunction(statement.declaration, name);
      if (fn) return { fileName: file, file: side, sourceCode, fn };
    }
    if (statement.type === AST_NODE_TYPES.ExportDefaultDeclaration && name === 'default' && isFunctionNode(statement.declaration)) {
      return { fileName: file, file: side, sourceCode, fn: statement.declaration };
    }
    if (statement.type !== AST_NODE_TYPES.ExportNamedDeclaration || statement.declaration || statement.exportKind === 'type') continue;
    for (const specifier of statement.specifiers) {
      if (exportedName(specifier.exported) !== name) continue;
      const local = exportedName(specifier.local);
      if (statement.source) {
        return depth < MAX_REEXPORTS ? findExportedFunction(resolveModule(path.dirname(file), statement.source.value), local, depth + 1) : undefined;
      }
      const fn = sourceCode.ast.body.map((candidate: TSESTree.Node) => declaredFunction(candidate, local)).find((found) => found !== undefined);
      return fn ? { fileName: file, file: side, sourceCode, fn } : undefined;
    }
  }
  return undefined;
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
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const cached = sideFiles.get(file);
  if (cached?.text === text) return cached;
  const side: SideFile = { text, sourceCode: parseSideFile(file, text), recognisers: new Map() };
  sideFiles.set(file, side);
  return side;
}

function parseSideFile(file: string, text: string): SourceCode | null {
  try {
    return parseOnTheSide(text, file, { jsx: /\.[jt]sx$/.test(file) }).sourceCode;
  } catch {
    return null;
  }
}
