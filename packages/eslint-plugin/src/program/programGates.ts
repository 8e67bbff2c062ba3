import type ts from 'typescript';

import { DECLARED_TOOL_FACTORIES } from './declaredToolFactories.js';
import { getDeclaringPackage, isInSpecPackage } from './declaringPackage.js';
import { getKeyReach } from './keyReach.js';

// What a whole program can hold, asked once per program: the type-aware rules' gates, like the file
// gates of their syntactic twins (docs/performance.md). A type-aware rule asks the checker only in
// a program where what it looks for can exist at all:
// - a brand of @retrysafe/spec is a property keyed by a symbol the package declares, so no type
//   carries one in a program without the package's files (no-key-cast-type-checked);
// - a key position is a key name, `key`/`vouchDurable` or an import of the spec spelled in some file,
//   so a program without the spec in which no file with bodies the analysis reads spells one has no
//   key parameter and no key position (no-random-key-type-checked; keyReach.ts);
// - a framework's factory or server method is recognised by the package declaring it, so a program
//   without any of those packages' files defines no tool the checker could reveal
//   (require-retry-policy-type-checked).
// Each answer is kept per program object: a project service that updates the program builds a new one.

const specByProgram = new WeakMap<ts.Program, boolean>();

/** Whether any file of the program belongs to `@retrysafe/spec` (its sources or its declaration files). */
export function programHasSpec(program: ts.Program): boolean {
  let has = specByProgram.get(program);
  if (has === undefined) {
    has = program.getSourceFiles().some((file) => isInSpecPackage(file.fileName));
    specByProgram.set(program, has);
  }
  return has;
}

/**
 * Whether the program can hold a key parameter or a key position outside the linted file: it holds
 * `@retrysafe/spec` (whose brand types make a parameter a key), or some file whose code the analysis
 * reads spells a key name (the defaults and `keyNames`, in any letter case), `vouchDurable` or
 * `@retrysafe/spec`. Declaration files and packages' files are not read for bodies, so their
 * spelling alone (a payment SDK's `idempotencyKey` option) opens nothing.
 */
export function programMentionsKeys(program: ts.Program, keyNames: readonly string[]): boolean {
  return programHasSpec(program) || getKeyReach(program, keyNames).spellingFiles().length > 0;
}

/** The packages that declare a framework's tool factory or server method (tools/frameworks). */
const TOOL_PACKAGES: ReadonlySet<string> = new Set(DECLARED_TOOL_FACTORIES.flatMap((factory) => factory.packages));
const frameworksByProgram = new WeakMap<ts.Program, boolean>();

/** Whether any file of the program belongs to a package that declares a framework's tool factory or server method. */
export function programHasToolFramework(program: ts.Program): boolean {
  let has = frameworksByProgram.get(program);
  if (has === undefined) {
    has = program.getSourceFiles().some((file) => {
      const name = getDeclaringPackage(file.fileName);
      return name !== undefined && TOOL_PACKAGES.has(name);
    });
    frameworksByProgram.set(program, has);
  }
  return has;
}
