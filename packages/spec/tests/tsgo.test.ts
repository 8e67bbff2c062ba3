// TypeScript 7 (tsgo) must accept and reject exactly what TypeScript 6 does. An unused
// `@ts-expect-error` is itself an error, so this fails as soon as a rejection stops working.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCompiler, testsDir } from './support/compilers.js';

describe('type tests under TypeScript 7 (tsgo)', () => {
  it('tsgo --noEmit passes on every *.test-d.ts', () => {
    const { status, output } = runCompiler('tsgo', ['--noEmit', '-p', join(testsDir, 'tsconfig.type-tests.json')], testsDir);
    expect(output).toBe('');
    expect(status).toBe(0);
  });
});
