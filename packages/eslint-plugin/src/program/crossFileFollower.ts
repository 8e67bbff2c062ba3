import type { ParserServicesWithTypeInformation, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import path from 'node:path';

import { type PropertyPath } from '../ast/index.js';
import type { AllowedSource, ValueTracer } from '../keys/index.js';
import { type FoundSource, getProgramAnalysis, type ProgramAnalysis } from './crossFileSources.js';
import { isImportReference, ValueWalk } from './crossFileWalk.js';
import { type KeyParameter, KeyParameterFinder } from './keyParameters.js';
import { getLintedFile } from './programFiles.js';

// The entry point of the type-aware key analysis for one linted file. Everything here starts from
// what the syntactic analysis could not finish (an import, a method, a parameter of a helper declared
// elsewhere) and asks the type checker only then; what it learns about other files is kept per program.

/** A source found across a file boundary, with the boundary in the linted file it was reached through. */
export interface FollowedSource extends FoundSource {
  readonly through: TSESTree.Node;
}

/** Cross-file questions about one linted file. Create it lazily: it is only needed at a boundary. */
export interface CrossFileFollower {
  /**
   * The first non-deterministic source the value of `expression` (read at `path`) comes from, found
   * by following imported functions, imported values and methods into the files that declare them
   * (functions declared in the linted file are left to the syntactic tracer).
   */
  findSource(expression: TSESTree.Node, path?: PropertyPath): FollowedSource | undefined;
  /**
   * The parameters of the called function that make an argument a key, if it is declared in another
   * file. `quick` skips the bodies of files that mention no key name (see {@link KeyParameterFinder}).
   */
  getKeyParameters(call: TSESTree.CallExpression, quick: boolean): readonly KeyParameter[];
  /** False where {@link getKeyParameters} (`quick` or not) certainly finds none: a cheap first question about a call. */
  mayHaveKeyParameters(call: TSESTree.CallExpression, quick: boolean): boolean;
  /**
   * Whether the value of `expression` reaches past the linted file: an imported value or function,
   * or (unless `importsOnly`) a method declared who knows where. Syntax only: no type checker.
   */
  readsAcrossFiles(expression: TSESTree.Node, importsOnly: boolean): boolean;
}

/** Options of {@link createCrossFileFollower}, as the rule's options give them. */
export interface CrossFileFollowerOptions {
  readonly allowedSources: readonly AllowedSource[];
  readonly keyNames: readonly string[];
}

/** What the follower needs from the rule's context. */
export interface LintedFileContext {
  readonly sourceCode: Readonly<TSESLint.SourceCode>;
  readonly fileName: string;
  readonly services: ParserServicesWithTypeInformation;
  /** The rule's tracer for the linted file. */
  readonly tracer: ValueTracer;
}

const finders = new WeakMap<ProgramAnalysis, Map<string, KeyParameterFinder>>();

/** Creates the follower for one linted file. */
export function createCrossFileFollower(context: LintedFileContext, options: CrossFileFollowerOptions): CrossFileFollower {
  const analysis = getProgramAnalysis(context.services.program, { allowedSources: options.allowedSources });
  const file = getLintedFile(context.sourceCode, context.fileName, context.services);
  const finder = getFinder(analysis, options.keyNames);

  const walk = (): ValueWalk<FoundSource> =>
    new ValueWalk<FoundSource>(file, {
      value: (_walk, node) => {
        const found = context.tracer.findSource(node);
        return found && { source: { ...found, fileName: file.fileName } };
      },
      // Boundaries in the linted file: the first one crossed is the one a message names.
      call: (current, node, path) => withThrough(analysis.followCall(current, node, path, file.fileName), node),
      imported: (current, node, path) => withThrough(analysis.followImport(current, node, path), getReadExpression(node)),
      parameter: () => undefined,
    });

  return {
    findSource(expression, path = []) {
      const found = path.length === 0 ? walk().at(expression) : walk().enter(expression, path);
      return found && { source: found.source, through: found.through ?? expression };
    },
    getKeyParameters: (call, quick) => finder.ofCall(file, call, file.fileName, quick),
    mayHaveKeyParameters: (call, quick) => finder.mayHaveKeyParameters(file, call, file.fileName, quick),
    readsAcrossFiles(expression, importsOnly) {
      const reached = new ValueWalk<true>(file, {
        call: (_walk, node) => (!importsOnly || isImportReference(file.sourceCode, node.callee) ? true : undefined),
        imported: () => true,
        parameter: () => undefined,
      }).at(expression);
      return reached === true;
    },
  };
}

/** A file name as a message shows it: relative to the linted file's folder, with `/`. */
export function displayFileName(fileName: string, lintedFileName: string): string {
  if (!path.isAbsolute(fileName) || !path.isAbsolute(lintedFileName)) return path.basename(fileName);
  return path.relative(path.dirname(lintedFileName), fileName).replaceAll('\\', '/');
}

/** `keys.SESSION_KEY` for the `keys` of a namespace import: the read as written, without a method call on it. */
function getReadExpression(identifier: TSESTree.Identifier): TSESTree.Node {
  let read: TSESTree.Node = identifier;
  while (
    read.parent?.type === AST_NODE_TYPES.MemberExpression &&
    read.parent.object === read &&
    !(read.parent.parent.type === AST_NODE_TYPES.CallExpression && read.parent.parent.callee === read.parent)
  ) {
    read = read.parent;
  }
  return read;
}

function withThrough(found: FoundSource | undefined, boundary: TSESTree.Node): FoundSource | undefined {
  return found && { source: found.source, through: found.through ?? boundary };
}

function getFinder(analysis: ProgramAnalysis, keyNames: readonly string[]): KeyParameterFinder {
  const key = JSON.stringify(keyNames);
  let byKeyNames = finders.get(analysis);
  if (!byKeyNames) finders.set(analysis, (byKeyNames = new Map()));
  let finder = byKeyNames.get(key);
  if (!finder) byKeyNames.set(key, (finder = new KeyParameterFinder(analysis, keyNames)));
  return finder;
}
