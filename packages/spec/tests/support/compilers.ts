// Runs tsc from TypeScript 6 and from TypeScript 7 on the type tests, for tests that check what the
// compilers say rather than only whether they accept the code. TypeScript 7 is the release users
// install (typescript@7.0.2), from examples/ts7-project: a package that holds it beside TypeScript 6
// the way users do (docs/typescript-7.md), so that no `tsc` of the workspace is silently repointed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const testsDir = join(packageDir, 'tests');

/** `tsc` is TypeScript 6 (the workspace's `typescript`), `tsc7` TypeScript 7.0.2. */
export type Compiler = 'tsc' | 'tsc7';

export interface CompilerRun {
  readonly status: number | null;
  readonly output: string;
}

/** Runs a compiler with `args` in `cwd`; diagnostics are printed plain (`--pretty false`). */
export function runCompiler(compiler: Compiler, args: readonly string[], cwd: string): CompilerRun {
  const tscOf = (packageJson: string): string => join(dirname(createRequire(import.meta.url).resolve(packageJson)), 'bin/tsc');
  const tsc = compiler === 'tsc' ? tscOf('typescript/package.json') : typescript7Tsc();
  const result = spawnSync(process.execPath, [tsc, ...args, '--pretty', 'false'], { cwd, encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function typescript7Tsc(): string {
  const project = resolve(packageDir, '../../examples/ts7-project/package.json');
  const manifest = createRequire(project).resolve('@typescript/native/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  if (!version.startsWith('7.')) throw new Error(`examples/ts7-project's @typescript/native is ${version}, not TypeScript 7`);
  return join(dirname(manifest), 'bin/tsc');
}

/** Every `*.test-d.ts` under tests/, as paths relative to tests/. */
export function typeTestFiles(dir = testsDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'support' ? [] : typeTestFiles(path);
    return entry.name.endsWith('.test-d.ts') ? [relative(testsDir, path)] : [];
  });
}

/**
 * Copies the type tests with every `@ts-expect-error` turned into a plain comment (same lines), so
 * the compilers report the errors the directives normally swallow. The copy lives under the
 * package's node_modules/.cache so that zod, vitest and @types/node resolve as they do for the
 * originals. Returns the copy's directory, which holds a tsconfig.json listing the copies; remove it
 * with {@link removeCopy}.
 */
export function copyWithoutDirectives(files: readonly string[]): string {
  // One directory per process, so that two test runs at once do not overwrite each other's copy.
  const copyDir = join(packageDir, `node_modules/.cache/retrysafe-type-messages-${process.pid}`);
  rmSync(copyDir, { recursive: true, force: true });
  for (const file of files) {
    const from = join(testsDir, file);
    const to = join(copyDir, 'tests', file);
    mkdirSync(dirname(to), { recursive: true });
    const text = readFileSync(from, 'utf8')
      .replaceAll('@ts-expect-error', 'expected-error')
      .replace(/from '(\.[^']*)'/g, (_match, specifier: string) => {
        const target = relative(dirname(to), resolve(dirname(from), specifier)).replaceAll('\\', '/');
        return `from '${target.startsWith('.') ? target : `./${target}`}'`;
      });
    writeFileSync(to, text);
  }
  const tsconfig = {
    extends: relative(copyDir, resolve(packageDir, '../../tsconfig.base.json')).replaceAll('\\', '/'),
    compilerOptions: { noEmit: true },
    files: files.map((file) => `tests/${file.replaceAll('\\', '/')}`),
  };
  writeFileSync(join(copyDir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  return copyDir;
}

export interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** Parses `file(line,col): error TSnnnn: message` blocks, continuation lines included. */
export function parseDiagnostics(output: string): Diagnostic[] {
  const diagnostics: { file: string; line: number; text: string }[] = [];
  for (const line of output.split('\n')) {
    const match = /^(.+?)\((\d+),\d+\): error (TS\d+: .*)$/.exec(line);
    if (match) diagnostics.push({ file: match[1]!, line: Number(match[2]), text: match[3]! });
    else if (line.startsWith(' ') && diagnostics.length > 0) diagnostics[diagnostics.length - 1]!.text += `\n${line}`;
  }
  return diagnostics;
}

export interface ExpectedError {
  readonly file: string;
  /** 1-based line the directive covers (the line after it). */
  readonly line: number;
  /** The `CONTRADICTIONS` key named by `// @ts-expect-error -- Contradiction: <key>`, if any. */
  readonly contradiction: string | undefined;
  /** Marked `// @ts-expect-error -- NotDurableKeyPart: <why>`: a key part that is not durable. */
  readonly notDurableKeyPart: boolean;
}

/** Every `@ts-expect-error` directive in the given files. */
export function expectedErrors(files: readonly string[]): ExpectedError[] {
  return files.flatMap((file) =>
    readFileSync(join(testsDir, file), 'utf8')
      .split('\n')
      .flatMap((text, index) => {
        const match = /\/\/ @ts-expect-error(?: -- (?:Contradiction: (\w+)|(NotDurableKeyPart):))?/.exec(text);
        if (!match) return [];
        return [{ file: `tests/${file}`, line: index + 2, contradiction: match[1], notDurableKeyPart: match[2] !== undefined }];
      }),
  );
}

/** Removes a directory made by {@link copyWithoutDirectives}. */
export function removeCopy(copyDir: string): void {
  rmSync(copyDir, { recursive: true, force: true });
}
