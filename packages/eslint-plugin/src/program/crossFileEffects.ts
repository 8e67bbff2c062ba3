import type { ParserServicesWithTypeInformation, TSESLint } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import type { CrossFileResolver } from '../effects/index.js';
import { isImportReference } from './crossFileWalk.js';
import { getCalleeSymbol, getFunctionTarget, getReadSymbol, getVariableTarget } from './declarationTargets.js';
import { getLintedFile, type ProgramFile } from './programFiles.js';

// The effects analysis's way out of a file, on the type checker: an imported helper is the function
// its symbol declares (aliases and re-exports resolved), an imported client the `const` another file
// exports. The checker is asked only at an import the analysis reached from a tool's handler and
// could not resolve itself; a declaration in a package, a declaration file or the same file is no
// answer (the analysis then stays silent about the call, as it is without types).

type SourceCode = Readonly<TSESLint.SourceCode>;

/** What the resolver needs from the rule's context. */
export interface EffectsProgramContext {
  readonly sourceCode: SourceCode;
  readonly fileName: string;
  readonly services: ParserServicesWithTypeInformation;
}

/** Creates the resolver the effects analysis follows imports with, for one linted file. */
export function createCrossFileEffects(context: EffectsProgramContext): CrossFileResolver {
  const { program } = context.services;
  const checker = program.getTypeChecker();
  const linted = getLintedFile(context.sourceCode, context.fileName, context.services);
  // The files the analysis may be walking, by the SourceCode it reads them with.
  const files = new Map<SourceCode, ProgramFile>([[context.sourceCode, linted]]);
  const known = (file: ProgramFile): ProgramFile => {
    files.set(file.sourceCode, file);
    return file;
  };

  return {
    functionOf(sourceCode, call) {
      const file = files.get(sourceCode);
      if (!file || !isImportReference(sourceCode, call.callee)) return undefined;
      const symbol = getCalleeSymbol(checker, file, call);
      const target = symbol && getFunctionTarget(program, symbol);
      if (!target || target.file.fileName === file.fileName) return undefined;
      return { sourceCode: known(target.file).sourceCode, fileName: target.file.fileName, node: target.fn };
    },
    valueOf(sourceCode, identifier) {
      const file = files.get(sourceCode);
      if (!file) return undefined;
      const read = getReadSymbol(checker, file, identifier, []);
      const target = read && getVariableTarget(program, read.symbol);
      if (!target || target.file.fileName === file.fileName) return undefined;
      const id = target.declarator.id;
      if (id.type !== AST_NODE_TYPES.Identifier) return undefined;
      return { sourceCode: known(target.file).sourceCode, fileName: target.file.fileName, node: id };
    },
  };
}
