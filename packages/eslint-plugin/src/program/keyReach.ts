import type ts from 'typescript';

import { SPEC_PACKAGE } from '../ast/index.js';
import { createKeyTextTest } from '../keys/index.js';
import { getDeclaredFunction, isAnalysableFile } from './declarationTargets.js';
import { typescript } from './typescript.js';

// Where a function with a key parameter found by its body (keyParameters.ts) can be declared, worked
// out once per program and set of key names, so that a call is asked about only where its callee can
// be one. A body puts a parameter into a key position only in a file that spells a key name,
// `vouchDurable` or `@retrysafe/spec` (the text test of every key rule's file gate), or passes it on
// to a helper of its own file or to an imported function that does: so only those files, and the
// files that import them (directly, or through re-exports and other files), declare such functions.
// The analysis reads bodies in the files `isAnalysableFile` admits, so only those are searched. Key
// parameters by brand type (a parameter typed `DeterministicKey`) are the finder's own question: they
// exist only in a program that holds @retrysafe/spec, and a caller with the spec asks nothing here.

/** Whether a file spells a key name (defaults and `keyNames`), `vouchDurable` or the spec: one answer per file and key names. */
export function spellsKeys(sourceFile: ts.SourceFile, keyNames: readonly string[]): boolean {
  const cacheKey = keyNames.join('\n');
  let byFile = spellingByKeyNames.get(cacheKey);
  if (!byFile) {
    const test = createKeyTextTest(keyNames, ['vouchDurable', SPEC_PACKAGE]);
    byFile = { test, answers: new WeakMap() };
    spellingByKeyNames.set(cacheKey, byFile);
  }
  let spells = byFile.answers.get(sourceFile);
  if (spells === undefined) {
    spells = byFile.test(sourceFile.text);
    byFile.answers.set(sourceFile, spells);
  }
  return spells;
}

// Keyed by source file: the project service keeps the files that did not change in a new program.
const spellingByKeyNames = new Map<string, { test: (text: string) => boolean; answers: WeakMap<ts.SourceFile, boolean> }>();

/** Where functions with key parameters can be declared in one program; get it with {@link getKeyReach}. */
export class KeyReach {
  private spelling: readonly ts.SourceFile[] | undefined;
  /** The files that reach a key position; `'all'` when the program's imports could not be read. */
  private reaching: ReadonlySet<ts.SourceFile> | 'all' | undefined;
  private names: ReadonlySet<string> | undefined;
  private spellingNames: ReadonlySet<string> | undefined;

  constructor(
    private readonly program: ts.Program,
    private readonly keyNames: readonly string[],
  ) {}

  /** The files whose code the analysis reads that spell a key name, `vouchDurable` or the spec. */
  spellingFiles(): readonly ts.SourceFile[] {
    this.spelling ??= this.program
      .getSourceFiles()
      .filter((file) => isAnalysableFile(this.program, file) && spellsKeys(file, this.keyNames));
    return this.spelling;
  }

  /**
   * Whether a function declared in `file` can have a key parameter by its body: the file spells a
   * key ({@link spellingFiles}) or imports such a file, itself or through others. A file whose code
   * the analysis does not read is not judged here (true).
   */
  reaches(file: ts.SourceFile): boolean {
    const reaching = this.getReaching();
    return reaching === 'all' || reaching.has(file) || !isAnalysableFile(this.program, file);
  }

  /**
   * Whether a function of a reaching file is declared under `name` (a method, a property set to a
   * function, a function or `const`; `default` for a default export): what a callee spelled
   * `x.name(...)` must be for the call to have a key parameter by a body.
   */
  mayDeclare(name: string): boolean {
    const reaching = this.getReaching();
    if (reaching === 'all') return true;
    this.names ??= collectDeclaredNames(this.program.getTypeChecker(), reaching);
    return this.names.has(name);
  }

  /** Like {@link mayDeclare}, for the functions of the {@link spellingFiles} alone. */
  spellingFilesDeclare(name: string): boolean {
    this.spellingNames ??= collectDeclaredNames(this.program.getTypeChecker(), new Set(this.spellingFiles()));
    return this.spellingNames.has(name);
  }

  private getReaching(): ReadonlySet<ts.SourceFile> | 'all' {
    this.reaching ??= findReachingFiles(this.program, this.spellingFiles());
    return this.reaching;
  }
}

const reachByProgram = new WeakMap<ts.Program, Map<string, KeyReach>>();

/** The {@link KeyReach} of a program for a set of key names, created once per program object. */
export function getKeyReach(program: ts.Program, keyNames: readonly string[]): KeyReach {
  let byKeyNames = reachByProgram.get(program);
  if (!byKeyNames) reachByProgram.set(program, (byKeyNames = new Map()));
  const cacheKey = keyNames.join('\n');
  let reach = byKeyNames.get(cacheKey);
  if (!reach) byKeyNames.set(cacheKey, (reach = new KeyReach(program, keyNames)));
  return reach;
}

/** The spelling files and every analysable file that imports one of them, directly or through others. */
function findReachingFiles(program: ts.Program, spelling: readonly ts.SourceFile[]): ReadonlySet<ts.SourceFile> | 'all' {
  const reaching = new Set(spelling);
  if (reaching.size === 0) return reaching;
  const checker = program.getTypeChecker();
  const importers = new Map<ts.SourceFile, ts.SourceFile[]>();
  for (const file of program.getSourceFiles()) {
    if (!isAnalysableFile(program, file)) continue;
    // Every module specifier of the file, as the program resolved it: imports, `export ... from`,
    // `require(...)` in JavaScript, `import(...)`. Not in TypeScript's public API: without it, no
    // file is ruled out.
    const specifiers = (file as { readonly imports?: readonly ts.StringLiteralLike[] }).imports;
    if (!specifiers) return 'all';
    for (const specifier of specifiers) {
      const target = checker.getSymbolAtLocation(specifier)?.valueDeclaration;
      if (!target || !typescript.isSourceFile(target)) continue;
      const known = importers.get(target);
      if (known) known.push(file);
      else importers.set(target, [file]);
    }
  }
  const pending = [...reaching];
  for (let file = pending.pop(); file; file = pending.pop()) {
    for (const importer of importers.get(file) ?? []) {
      if (reaching.has(importer)) continue;
      reaching.add(importer);
      pending.push(importer);
    }
  }
  return reaching;
}

/**
 * The names the functions of `files` are declared under, as a property access names them: every
 * declaration the analysis takes a body from (`getDeclaredFunction`), by its identifier, string or
 * number; a computed name by its literal type (a symbol-keyed member is out of reach of a name).
 */
function collectDeclaredNames(checker: ts.TypeChecker, files: ReadonlySet<ts.SourceFile>): ReadonlySet<string> {
  const names = new Set<string>();
  for (const file of files) {
    const declared = getDeclarationsByName(file);
    for (const name of declared.names) names.add(name);
    for (const expression of declared.computed) {
      const type = checker.getTypeAtLocation(expression);
      for (const part of type.isUnion() ? type.types : [type]) {
        if (part.isStringLiteral() || part.isNumberLiteral()) names.add(String(part.value));
      }
    }
  }
  return names;
}

/** A file's function declarations by name: the names it spells, and the computed ones to ask the checker about. */
interface DeclaredNames {
  readonly names: readonly string[];
  readonly computed: readonly ts.Expression[];
}

// Keyed by source file, not by program: the project service hands out a new program several times
// in one lint run (four on the bench corpus), and keeps the source files that did not change.
const declaredNamesByFile = new WeakMap<ts.SourceFile, DeclaredNames>();

function getDeclarationsByName(file: ts.SourceFile): DeclaredNames {
  let declared = declaredNamesByFile.get(file);
  if (declared) return declared;
  const names = new Set<string>();
  const computed: ts.Expression[] = [];
  // Every node of the file passes here: the kind is tested first, and TypeScript's functions are
  // read once (each of its exports is a getter).
  const { forEachChild, isComputedPropertyName, isExportAssignment, isFunctionDeclaration, isIdentifier, isNumericLiteral, isPrivateIdentifier, isStringLiteralLike } = typescript;
  const kinds = declarationKinds();
  const visit = (node: ts.Node): void => {
    if (kinds.has(node.kind) && getDeclaredFunction(node)) {
      const name = (node as { readonly name?: ts.Node }).name;
      if (isExportAssignment(node)) {
        names.add('default');
        names.add('export=');
      } else if (!name) {
        // `export default function () {}`; an anonymous function expression is no member's declaration.
        if (isFunctionDeclaration(node)) names.add('default');
      } else if (isIdentifier(name) || isPrivateIdentifier(name) || isStringLiteralLike(name) || isNumericLiteral(name)) {
        names.add(name.text);
      } else if (isComputedPropertyName(name)) {
        if (isStringLiteralLike(name.expression) || isNumericLiteral(name.expression)) names.add(name.expression.text);
        else computed.push(name.expression);
      }
    }
    forEachChild(node, visit);
  };
  visit(file);
  declared = { names: [...names], computed };
  declaredNamesByFile.set(file, declared);
  return declared;
}

let kindsOfDeclarations: ReadonlySet<ts.SyntaxKind> | undefined;

/** The node kinds `getDeclaredFunction` can take a function from. */
function declarationKinds(): ReadonlySet<ts.SyntaxKind> {
  const { SyntaxKind } = typescript;
  kindsOfDeclarations ??= new Set([
    SyntaxKind.FunctionDeclaration,
    SyntaxKind.MethodDeclaration,
    SyntaxKind.ArrowFunction,
    SyntaxKind.FunctionExpression,
    SyntaxKind.VariableDeclaration,
    SyntaxKind.PropertyAssignment,
    SyntaxKind.PropertyDeclaration,
    SyntaxKind.ExportAssignment,
  ]);
  return kindsOfDeclarations;
}
