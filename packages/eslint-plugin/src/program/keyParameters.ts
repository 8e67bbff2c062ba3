import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type ts from 'typescript';

import {
  codeSpan,
  type FunctionNode,
  getChildNodes,
  getStaticPropertyName,
  getThisParameterCount,
  type ParameterReference,
  type PropertyPath,
  resolveLocalFunction,
  skipWrappers,
} from '../ast/index.js';
import {
  createKeyNameMatcher,
  getKeyPositions,
  KEY_POSITION_NODE_TYPES,
  type KeyNameMatcher,
  type KeyPosition,
} from '../keys/index.js';
import { getOwnBrands } from './brandTypes.js';
import type { ProgramAnalysis } from './crossFileSources.js';
import { isImportReference, ValueWalk } from './crossFileWalk.js';
import { getCalleeSymbol, getFunctionDeclaration, toFunctionTarget } from './declarationTargets.js';
import { isInSpecPackage } from './declaringPackage.js';
import { getKeyReach, type KeyReach, spellsKeys } from './keyReach.js';
import type { ProgramFile } from './programFiles.js';
import { typescript } from './typescript.js';

// Parameters that make a call's argument a key position: the parameter's declared type carries the
// `DeterministicKey` or `Durable` brand, or the function's body puts the parameter into a key position
// (`{ 'Idempotency-Key': key }`, `key\`...\``, `vouchDurable(...)`), itself or through a helper it
// passes the parameter to.

/** Why an argument becomes a key, and where that happens. */
export interface KeyParameter {
  /** The argument index that fills the parameter; a rest parameter takes every argument from it on. */
  readonly index: number;
  readonly rest: boolean;
  /** Where in the argument the key is: `['key']` for `function send(opts) { ... opts.key ... }`. */
  readonly path: PropertyPath;
  /** The parameter as the message names it: `key`, `opts.key`. */
  readonly parameter: string;
  /** What the callee does with it, completing "which ...": "sends it as the `Idempotency-Key` header". */
  readonly role: string;
  /** The file and line where it becomes a key (the key position, or the parameter's declaration). */
  readonly fileName: string;
  readonly line: number;
}

const KEY_POSITION_TYPES: ReadonlySet<string> = new Set(KEY_POSITION_NODE_TYPES);

/**
 * Finds the key parameters of functions; one per program analysis and set of key names.
 *
 * A "quick" search reads a function's body only if its file mentions a key name, `vouchDurable` or
 * `@retrysafe/spec` at all (a text search, before the file is converted): it is the search for calls
 * whose argument merely comes from another module, which are too many to read every callee for.
 */
export class KeyParameterFinder {
  private readonly thorough = new Map<ts.Node, readonly KeyParameter[]>();
  private readonly quick = new Map<ts.Node, readonly KeyParameter[]>();
  private readonly brands = new Map<ts.Node, readonly KeyParameter[]>();
  private readonly matchKeyName: KeyNameMatcher;
  private readonly reach: KeyReach;
  private specInProgram: boolean | undefined;
  /** Whether a thorough search has found a key parameter: a quick search reuses its results. */
  private foundThoroughly = false;

  constructor(
    private readonly analysis: ProgramAnalysis,
    private readonly keyNames: readonly string[],
  ) {
    this.matchKeyName = createKeyNameMatcher(keyNames);
    this.reach = getKeyReach(analysis.program, keyNames);
  }

  /**
   * False where {@link ofCall} (with the same `skipFile` and `quick`) certainly finds no key
   * parameter, asked before anything else about the call: without @retrysafe/spec in the program
   * only a body makes a parameter a key, and only a function of a file that reaches a key position
   * ({@link KeyReach}) has such a body; a quick search reads only the bodies of files that spell
   * one, unless a thorough search has already found a key parameter somewhere (its results are
   * reused). A method is judged by its name alone (no receiver type); a function the callee names,
   * by the file that declares it (one symbol lookup).
   */
  mayHaveKeyParameters(file: ProgramFile, call: TSESTree.CallExpression, skipFile?: string, quick = false): boolean {
    if (this.hasSpec()) return true;
    const spellingOnly = quick && !this.foundThoroughly;
    const callee = skipWrappers(call.callee, { optionalChains: true });
    if (callee.type === AST_NODE_TYPES.MemberExpression) {
      const name = getStaticPropertyName(callee);
      if (name === undefined) return true;
      return spellingOnly ? this.reach.spellingFilesDeclare(name) : this.reach.mayDeclare(name);
    }
    if (callee.type !== AST_NODE_TYPES.Identifier) return true;
    const local = this.localFunction(file, call);
    const declaration = local
      ? (file.esTreeNodeToTSNodeMap.get(local) as ts.SignatureDeclaration)
      : getFunctionDeclarationOf(this.analysis, file, call);
    if (!declaration || (local ? file.fileName : declaration.getSourceFile().fileName) === skipFile) return false;
    return spellingOnly ? this.mentionsKeys(declaration.getSourceFile()) : this.reach.reaches(declaration.getSourceFile());
  }

  /**
   * The key parameters of the function a call in `file` calls, when that function is declared in
   * another file than `skipFile` (declaration files of packages included, for the brand types).
   */
  ofCall(file: ProgramFile, call: TSESTree.CallExpression, skipFile?: string, quick = false): readonly KeyParameter[] {
    const local = this.localFunction(file, call);
    if (local) {
      if (file.fileName === skipFile) return [];
      const declaration = file.esTreeNodeToTSNodeMap.get(local) as ts.SignatureDeclaration;
      return this.ofFunction(declaration, quick, () => ({ file, fn: local, declaration }));
    }
    const symbol = getCalleeSymbol(this.analysis.checker, file, call);
    if (!symbol) return [];
    const program = this.analysis.program;
    const declaration = getFunctionDeclaration(program, symbol);
    if (declaration) {
      if (declaration.getSourceFile().fileName === skipFile) return [];
      return this.ofFunction(declaration, quick, () => toFunctionTarget(program, declaration));
    }
    // No body to read (a declaration file): the declared parameter types still tell.
    const declared = symbol.declarations?.find((candidate): candidate is ts.SignatureDeclaration =>
      typescript.isFunctionLike(candidate) && candidate.getSourceFile().fileName !== skipFile);
    if (!declared || program.isSourceFileDefaultLibrary(declared.getSourceFile())) return [];
    return this.brandParameters(declared);
  }

  private ofFunction(
    declaration: ts.SignatureDeclaration,
    quick: boolean,
    target: () => { file: ProgramFile; fn: FunctionNode; declaration: ts.SignatureDeclaration } | undefined,
  ): readonly KeyParameter[] {
    const known = this.thorough.get(declaration) ?? (quick ? this.quick.get(declaration) : undefined);
    if (known) return known;
    // Without the spec's brand types, no body in a file that reaches no key position makes a parameter a key.
    if (!this.hasSpec() && !this.reach.reaches(declaration.getSourceFile())) return [];
    if (quick && !this.mentionsKeys(declaration.getSourceFile())) return this.brandParameters(declaration);
    const resolved = target();
    if (!resolved) return this.brandParameters(declaration);
    const parameters = this.analysis.withinNesting(resolved.fn, [], () => [
      ...this.brandParameters(declaration),
      ...this.bodyParameters(resolved.file, resolved.fn, quick),
    ]);
    (quick ? this.quick : this.thorough).set(declaration, parameters);
    if (!quick && parameters.length > 0) this.foundThoroughly = true;
    return parameters;
  }

  private mentionsKeys(sourceFile: ts.SourceFile): boolean {
    return spellsKeys(sourceFile, this.keyNames);
  }

  private hasSpec(): boolean {
    // Without @retrysafe/spec in the program no type can carry its brands.
    this.specInProgram ??= this.analysis.program.getSourceFiles().some((file) => isInSpecPackage(file.fileName));
    return this.specInProgram;
  }

  /** Parameters whose declared type carries a brand of `@retrysafe/spec` (by type, whatever its name). */
  private brandParameters(declaration: ts.SignatureDeclaration): readonly KeyParameter[] {
    let parameters = this.brands.get(declaration);
    if (!parameters) {
      parameters = this.hasSpec() ? this.findBrandParameters(declaration) : [];
      this.brands.set(declaration, parameters);
    }
    return parameters;
  }

  private findBrandParameters(declaration: ts.SignatureDeclaration): KeyParameter[] {
    const checker = this.analysis.checker;
    const parameters = declaration.parameters.filter((parameter) => !isThisParameter(parameter));
    return parameters.flatMap((parameter, index): KeyParameter[] => {
      let type = checker.getTypeAtLocation(parameter);
      if (parameter.dotDotDotToken && checker.isArrayType(type)) type = checker.getTypeArguments(type as ts.TypeReference)[0] ?? type;
      const parts = type.isUnion() ? type.types : [type];
      const brands = parts.flatMap((part) => getOwnBrands(checker, part));
      const brand = brands.find((candidate) => candidate === 'DeterministicKey' || candidate === 'Durable');
      if (brand === undefined) return [];
      const sourceFile = parameter.getSourceFile();
      return [{
        index,
        rest: parameter.dotDotDotToken !== undefined,
        path: [],
        parameter: typescript.isIdentifier(parameter.name) ? parameter.name.text : `argument ${index + 1}`,
        role: brand === 'DeterministicKey' ? 'declares it a `DeterministicKey`' : 'declares it `Durable`',
        fileName: sourceFile.fileName,
        line: sourceFile.getLineAndCharacterOfPosition(parameter.getStart(sourceFile)).line + 1,
      }];
    });
  }

  /** Parameters the body puts into a key position, directly or through a helper it calls. */
  private bodyParameters(file: ProgramFile, fn: FunctionNode, quick: boolean): KeyParameter[] {
    const parameters: KeyParameter[] = [];
    // Every node of the body, nested functions included (a callback may use the parameter), the
    // last child first.
    const pending: TSESTree.Node[] = [fn.body];
    for (let node = pending.pop(); node; node = pending.pop()) {
      if (KEY_POSITION_TYPES.has(node.type)) {
        for (const position of getKeyPositions(node, { sourceCode: file.sourceCode, matchKeyName: this.matchKeyName })) {
          for (const reached of reachedParameters(file, fn, position.value, [])) {
            parameters.push(toKeyParameter(reached, fn, describePosition(position), file.fileName, position.value.loc.start.line));
          }
        }
      }
      if (node.type === AST_NODE_TYPES.CallExpression) parameters.push(...this.passedOn(file, fn, node, quick));
      pending.push(...getChildNodes(node, file.sourceCode));
    }
    return dedupe(parameters);
  }

  /**
   * `send(key)` inside `fn`, where `send` has a key parameter: `fn`'s parameter is a key too. Only
   * helpers of the same file and imported functions are looked into: a method would need its
   * receiver's type, for every call that passes a parameter on.
   */
  private passedOn(file: ProgramFile, fn: FunctionNode, call: TSESTree.CallExpression, quick: boolean): KeyParameter[] {
    if (!this.localFunction(file, call) && !isImportReference(file.sourceCode, call.callee)) return [];
    const reaching = call.arguments.map((argument) => reachedParameters(file, fn, argument, []));
    if (reaching.every((reached) => reached.length === 0)) return [];
    return this.ofCall(file, call, undefined, quick).flatMap((inner) =>
      call.arguments.flatMap((argument, index) => {
        if (index < inner.index || (index > inner.index && !inner.rest)) return [];
        return reachedParameters(file, fn, argument, inner.path).map((reached) =>
          toKeyParameter(reached, fn, inner.role, inner.fileName, inner.line),
        );
      }),
    );
  }

  private localFunction(file: ProgramFile, call: TSESTree.CallExpression): FunctionNode | undefined {
    return resolveLocalFunction(call.callee, file.sourceCode);
  }
}

/** The declaration with a body that a call's callee names in another file, as {@link KeyParameterFinder.ofCall} finds it. */
function getFunctionDeclarationOf(analysis: ProgramAnalysis, file: ProgramFile, call: TSESTree.CallExpression): ts.SignatureDeclaration | undefined {
  const symbol = getCalleeSymbol(analysis.checker, file, call);
  return symbol && getFunctionDeclaration(analysis.program, symbol);
}

/** The parameters of `fn` whose value reaches `expression` (read at `path`), within the file. */
function reachedParameters(file: ProgramFile, fn: FunctionNode, expression: TSESTree.Node, path: PropertyPath): ParameterReference[] {
  const reached: ParameterReference[] = [];
  new ValueWalk<never>(file, {
    call: () => undefined,
    imported: () => undefined,
    parameter: (_walk, parameter) => {
      if (parameter.fn === fn) reached.push(parameter);
      return undefined;
    },
  }).enter(expression, path);
  return reached;
}

function toKeyParameter(reached: ParameterReference, fn: FunctionNode, role: string, fileName: string, line: number): KeyParameter {
  const declared = fn.params[reached.index + getThisParameterCount(fn)];
  const binding = declared?.type === AST_NODE_TYPES.AssignmentPattern ? declared.left : declared;
  const name = binding?.type === AST_NODE_TYPES.Identifier ? binding.name : undefined;
  const parameter = [name, ...reached.path].filter((part) => part !== undefined).join('.') || `argument ${reached.index + 1}`;
  return { index: reached.index, rest: reached.rest, path: reached.path, parameter, role, fileName, line };
}

function describePosition(position: KeyPosition): string {
  switch (position.kind) {
    case 'headerCall':
    case 'headerEntry':
      return `sends it as the ${codeSpan(position.keyName)} header`;
    case 'specKey':
      return position.keyName === 'key' ? 'builds a `key` from it' : 'vouches for it with `vouchDurable(...)`';
    case 'toolKey':
      return "returns it from a tool's `key` function";
    default:
      return `uses it as ${codeSpan(position.keyName)}`;
  }
}

function dedupe(parameters: KeyParameter[]): KeyParameter[] {
  const seen = new Set<string>();
  return parameters.filter((parameter) => {
    const key = `${parameter.index}\0${parameter.path.join('\0')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function isThisParameter(parameter: ts.ParameterDeclaration): boolean {
  return typescript.isIdentifier(parameter.name) && parameter.name.text === 'this';
}
