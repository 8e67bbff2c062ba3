import { parseForESLint } from '@typescript-eslint/parser';
import type { ParserOptions } from '@typescript-eslint/parser';
import type { ParserServices, ParserServicesWithTypeInformation, TSESTree } from '@typescript-eslint/utils';
import { TSESLint } from '@typescript-eslint/utils';
import type ts from 'typescript';

import { isAstNode, markOwnSourceCode } from '../ast/index.js';

// The type-aware rules follow values into other files of the program. They read those files with
// the same ESTree analysis (value tracer, key positions, source tables) that the syntactic rules run
// on the linted file, so that a source is recognised the same way on both sides of an import. This
// module turns a `ts.SourceFile` of the program into that form, once per source file.

/** One file as the shared ESTree analysis reads it, with the maps to and from the TypeScript AST. */
export interface ProgramFile {
  readonly fileName: string;
  readonly sourceCode: Readonly<TSESLint.SourceCode>;
  readonly esTreeNodeToTSNodeMap: ParserServicesWithTypeInformation['esTreeNodeToTSNodeMap'];
  readonly tsNodeToESTreeNodeMap: ParserServicesWithTypeInformation['tsNodeToESTreeNodeMap'];
}

// Keyed by source file, not by program: the project service hands out a new program after an edit but
// keeps the source files that did not change, and so does this cache.
const programFiles = new WeakMap<ts.SourceFile, ProgramFile>();

/**
 * The linted file itself, from the rule's context: its AST and maps are already there.
 */
export function getLintedFile(
  sourceCode: Readonly<TSESLint.SourceCode>,
  fileName: string,
  services: ParserServicesWithTypeInformation,
): ProgramFile {
  return {
    fileName,
    sourceCode,
    esTreeNodeToTSNodeMap: services.esTreeNodeToTSNodeMap,
    tsNodeToESTreeNodeMap: services.tsNodeToESTreeNodeMap,
  };
}

/**
 * Another file of the program, converted to ESTree with scopes and parent links; cached per source
 * file. The conversion reuses the program's own `ts.SourceFile` (no second TypeScript parse).
 */
export function getProgramFile(program: ts.Program, sourceFile: ts.SourceFile): ProgramFile {
  let file = programFiles.get(sourceFile);
  if (!file) {
    file = convertProgramFile(program, sourceFile);
    programFiles.set(sourceFile, file);
  }
  return file;
}

function convertProgramFile(program: ts.Program, sourceFile: ts.SourceFile): ProgramFile {
  const { sourceCode, services } = parseOnTheSide(sourceFile.text, sourceFile.fileName, {
    programs: [program],
    // Single-run inference counts parses per file and would make ESLint's own later parse of this
    // file (with the legacy `project` option in CI) fall back to an isolated program.
    disallowAutomaticSingleRunInference: true,
  });
  const typed = services as ParserServicesWithTypeInformation;
  return {
    fileName: sourceFile.fileName,
    sourceCode,
    esTreeNodeToTSNodeMap: typed.esTreeNodeToTSNodeMap,
    tsNodeToESTreeNodeMap: typed.tsNodeToESTreeNodeMap,
  };
}

/**
 * A file that ESLint is not linting, parsed as the analysis reads a linted one: ESTree with scopes,
 * tokens and parent links, as a `SourceCode`. `options` add to the parser's (a program to reuse).
 *
 * @throws the parser's error when the text does not parse.
 */
export function parseOnTheSide(text: string, filePath: string, options: ParserOptions = {}): { readonly sourceCode: Readonly<TSESLint.SourceCode>; readonly services: ParserServices } {
  const { ast, scopeManager, services, visitorKeys } = parseForESLint(text, {
    ...options,
    filePath,
    sourceType: /\.c[jt]s$/.test(filePath) ? 'script' : 'module',
    // No implicit variables for the standard library's globals: the analysis treats an unbound name
    // as a global either way, and declaring thousands of them per file is most of the scope cost.
    lib: [],
    range: true,
    loc: true,
    tokens: true,
    comment: true,
  });
  setParents(ast, visitorKeys);
  const sourceCode = new TSESLint.SourceCode({ text, ast, scopeManager, parserServices: services, visitorKeys: visitorKeys as TSESLint.Parser.VisitorKeys });
  markOwnSourceCode(sourceCode);
  return { sourceCode, services };
}

/** ESLint links `parent` while it lints a file; a file read on the side needs the links set here. */
function setParents(root: TSESTree.Node, visitorKeys: Readonly<Record<string, readonly string[] | undefined>>): void {
  const pending: TSESTree.Node[] = [root];
  for (let node = pending.pop(); node; node = pending.pop()) {
    for (const key of visitorKeys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      for (const child of Array.isArray(value) ? value : [value]) {
        if (!isAstNode(child)) continue;
        (child as { parent: TSESTree.Node }).parent = node;
        pending.push(child);
      }
    }
  }
}
