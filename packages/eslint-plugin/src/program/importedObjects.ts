import type { ParserServicesWithTypeInformation, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  findProperty,
  findVariableOf,
  getConstantInitializer,
  getStaticMemberPath,
  type ObjectResolver,
  resolveConst,
  resolveObject,
  type VisibleObject,
} from '../ast/index.js';
import { getReadSymbol, getVariableTarget } from './declarationTargets.js';
import { getLintedFile, type ProgramFile } from './programFiles.js';

// An imported `const` object read where it is declared, for the type-aware rules that judge a policy
// or hints written through one (`_meta: { 'io.github.retrysafe/policy': READ_ONLY }`,
// `annotations: { ...READ_ONLY_HINTS }`). The checker names the declaration; only an object literal
// the analysis can read is an answer (`as const` and `satisfies` included): a value built by a call,
// a declaration in a package or a declaration file, or anything reassigned is none, and the reader
// stays silent. require-retry-policy-type-checked reads a spread of an imported const with it too
// (program/crossFileTools.ts).

type SourceCode = Readonly<TSESLint.SourceCode>;

/** How many member reads below an imported binding are followed (`presets.read.base`). */
const MAX_PATH = 3;

/** Creates the reader of imported `const` objects for one linted file. */
export function createImportedObjectResolver(
  sourceCode: SourceCode,
  fileName: string,
  services: ParserServicesWithTypeInformation,
): ObjectResolver {
  const { program } = services;
  const checker = program.getTypeChecker();
  // The files an object may be read from, by the SourceCode that reads them (a spread inside an imported const is read in its file).
  const files = new Map<SourceCode, ProgramFile>([[sourceCode, getLintedFile(sourceCode, fileName, services)]]);
  return (code, node) => {
    const file = files.get(code);
    const read = file && getImportedRead(code, resolveConst(code, node));
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
    const visible: VisibleObject = { sourceCode: targetCode, object, fileName: target.file.fileName };
    return visible;
  };
}

/** An imported binding and the static member path read below it (`ids.READ_ONLY` → `ids`, `['READ_ONLY']`). */
function getImportedRead(sourceCode: SourceCode, node: TSESTree.Node): { identifier: TSESTree.Identifier; path: string[] } | undefined {
  const read = getStaticMemberPath(node, MAX_PATH);
  const current = read?.root;
  if (current?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const { path } = read!;
  const def = findVariableOf(current, sourceCode)?.defs[0];
  return def?.type === 'ImportBinding' ? { identifier: current, path } : undefined;
}
