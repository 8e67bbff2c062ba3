// TypeScript 7's tsc (7.0.2) must accept and reject exactly what TypeScript 6 does. An unused
// `@ts-expect-error` is itself an error, so this fails as soon as a rejection stops working.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCompiler, testsDir } from './support/compilers.js';

describe('type tests under TypeScript 7', () => {
  it('tsc --noEmit (TypeScript 7.0.2) passes on every *.test-d.ts', () => {
    const { status, output } = runCompiler('tsc7', ['--version'], testsDir);
    expect(output.trim()).toBe('Version 7.0.2');
    expect(status).toBe(0);
    const checked = runCompiler('tsc7', ['--noEmit', '-p', join(testsDir, 'tsconfig.type-tests.json')], testsDir);
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
  });
});
