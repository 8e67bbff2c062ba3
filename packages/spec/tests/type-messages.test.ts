// What the compilers actually say. The type tests' `@ts-expect-error` directives are removed in a
// copy, both compilers check it, and every error must sit on a line a directive covered; a line
// marked `// @ts-expect-error -- Contradiction: <key>` must name `Contradiction<"<message>">` with
// the message from CONTRADICTIONS, and a line marked `// @ts-expect-error -- NotDurableKeyPart: ...`
// must name `NotDurableKeyPart<"<NOT_DURABLE_KEY_PART>">`, so the text a user reads is the text we
// document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRADICTIONS, NOT_DURABLE_KEY_PART } from '../src/index.js';
import {
  copyWithoutDirectives,
  expectedErrors,
  parseDiagnostics,
  removeCopy,
  runCompiler,
  typeTestFiles,
  type Compiler,
  type Diagnostic,
} from './support/compilers.js';

const files = typeTestFiles();
const expected = expectedErrors(files);
const at = (file: string, line: number) => `${file}:${line}`;

let copyDir: string;
beforeAll(() => {
  copyDir = copyWithoutDirectives(files);
});
afterAll(() => removeCopy(copyDir));

describe.each<Compiler>(['tsc', 'tsc7'])('%s error messages', (compiler) => {
  let diagnostics: Diagnostic[] = [];
  beforeAll(() => {
    diagnostics = parseDiagnostics(runCompiler(compiler, ['-p', 'tsconfig.json'], copyDir).output);
    expect(diagnostics.length).toBeGreaterThan(0);
  }, 120_000);

  it('reports errors only on lines a @ts-expect-error covers', () => {
    const covered = new Set(expected.map(({ file, line }) => at(file, line)));
    const stray = diagnostics.filter(({ file, line }) => !covered.has(at(file, line)));
    expect(stray).toEqual([]);
  });

  it('reports an error on every line a @ts-expect-error covers', () => {
    const reported = new Set(diagnostics.map(({ file, line }) => at(file, line)));
    const silent = expected.filter(({ file, line }) => !reported.has(at(file, line)));
    expect(silent).toEqual([]);
  });

  const marked = expected.filter((entry) => entry.contradiction !== undefined);

  it('covers every contradiction at least once', () => {
    expect(new Set(marked.map((entry) => entry.contradiction))).toEqual(new Set(Object.keys(CONTRADICTIONS)));
  });

  it.each(marked.map((entry) => [`${entry.file}:${entry.line} ${entry.contradiction}`, entry] as const))(
    '%s names the contradiction',
    (_label, { file, line, contradiction }) => {
      const message = CONTRADICTIONS[contradiction as keyof typeof CONTRADICTIONS];
      expect(message, `unknown contradiction ${contradiction}`).toBeDefined();
      const texts = diagnostics.filter((d) => d.file === file && d.line === line).map((d) => d.text);
      expect(texts.join('\n')).toContain(`Contradiction<"${message}">`);
    },
  );

  const notDurable = expected.filter((entry) => entry.notDurableKeyPart);

  it.each(notDurable.map((entry) => [`${entry.file}:${entry.line}`, entry] as const))(
    '%s says the key part is not durable, and where durable parts come from',
    (_label, { file, line }) => {
      const texts = diagnostics.filter((d) => d.file === file && d.line === line).map((d) => d.text);
      expect(texts.join('\n')).toContain(`NotDurableKeyPart<"${NOT_DURABLE_KEY_PART}">`);
    },
  );

  it("never shows TypeScript's bare Durable<string | number> parameter", () => {
    expect(notDurable.length).toBeGreaterThan(10);
    expect(diagnostics.filter((d) => d.text.includes("parameter of type 'Durable<string | number>'"))).toEqual([]);
  });
});
