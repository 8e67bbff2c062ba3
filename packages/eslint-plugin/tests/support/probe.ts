import * as parser from '@typescript-eslint/parser';
import type { TSESLint } from '@typescript-eslint/utils';
import { Linter, type Rule } from 'eslint';

/** The listeners a probe rule returns for one file, given the file's source code. */
export type ProbeListeners = (sourceCode: Readonly<TSESLint.SourceCode>) => TSESLint.RuleListener;

/**
 * Lints `code` as `filename` with the TypeScript parser and one rule, `probe/probe`, whose
 * listeners `listen` returns for the file: the tests' way to reach a node, or the SourceCode, as a
 * rule would. Returns ESLint's messages (a parse error is a fatal one).
 */
export function lintWithProbe(code: string, listen: ProbeListeners, filename = 'file.ts'): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat' });
  return linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: parser as unknown as Linter.Parser },
        plugins: { probe: { rules: { probe: { create: (context) => listen(context.sourceCode as unknown as Readonly<TSESLint.SourceCode>) as unknown as Rule.RuleListener } } } },
        rules: { 'probe/probe': 'error' },
      },
    ],
    filename,
  );
}
