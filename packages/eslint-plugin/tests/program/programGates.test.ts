// The type-aware rules' program gates (src/program/programGates.ts): each says "nothing to find"
// only for a program that cannot hold what its rule looks for, and "maybe" as soon as one file can.
// Programs are real TypeScript programs over the typed tests' fixtures and files written here.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

import { programHasSpec, programHasToolFramework, programMentionsKeys } from '../../src/program/index.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const folder = mkdtempSync(path.join(tmpdir(), 'retrysafe-program-gates-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A program of the files given (written to a temporary folder) and of the fixture files named. */
function programOf(files: Record<string, string>, fixtureFiles: readonly string[] = []): ts.Program {
  const roots = Object.entries(files).map(([name, text]) => {
    const file = path.join(folder, name);
    writeFileSync(file, text);
    return file;
  });
  return ts.createProgram([...roots, ...fixtureFiles.map((file) => path.join(fixtures, file))], {
    noEmit: true,
    strict: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    types: [],
  });
}

const plain = { 'plain.ts': 'export const amount = (1 as number) + 2;\nexport async function send(to: string): Promise<void> { await fetch(to); }\n' };

describe('programHasSpec', () => {
  it('is false for a program without any file of @retrysafe/spec', () => {
    expect(programHasSpec(programOf(plain))).toBe(false);
  });
  it('is true once the program holds the package (its stand-in, named by its package.json)', () => {
    expect(programHasSpec(programOf(plain, ['retrysafe-spec/src/index.ts']))).toBe(true);
  });
});

describe('programMentionsKeys', () => {
  it('is false when no file spells a key name, vouchDurable or the spec (the standard library aside)', () => {
    expect(programMentionsKeys(programOf(plain), [])).toBe(false);
  });
  it('is true for a key name in any letter case in any file', () => {
    expect(programMentionsKeys(programOf({ ...plain, 'headers.ts': "export const h = { 'IDEMPOTENCY-KEY': '' };\n" }), [])).toBe(true);
  });
  it('is false when only a declaration file spells one: no body the analysis reads can use it', () => {
    expect(programMentionsKeys(programOf({ ...plain, 'sdk.d.ts': 'export declare function charge(o: { idempotencyKey?: string }): void;\n' }), [])).toBe(false);
  });
  it('is true in a program with @retrysafe/spec even where no file spells a key (its brand types make parameters keys)', () => {
    const program = programOf(plain, ['retrysafe-spec/src/index.ts']);
    expect(programMentionsKeys(program, [])).toBe(true);
  });
  it('reads the keyNames option', () => {
    const program = programOf({ ...plain, 'jobs.ts': 'export const job = { jobId: 1 };\n' });
    expect(programMentionsKeys(program, [])).toBe(false);
    expect(programMentionsKeys(program, ['jobId'])).toBe(true);
  });
});

describe('programHasToolFramework', () => {
  it('is false for a program without any framework package', () => {
    expect(programHasToolFramework(programOf(plain))).toBe(false);
  });
  it('is true once a package declaring a tool factory is in the program', () => {
    expect(programHasToolFramework(programOf(plain, ['stand-ins/ai/index.d.ts']))).toBe(true);
  });
});
