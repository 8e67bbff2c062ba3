// Runs a piece of the programmatic analysis over a snippet, inside ESLint as a collector rule does
// (the way `@retrysafe/eslint-plugin/analysis` is meant to be called), and hands back its answer.
import * as parser from '@typescript-eslint/parser';
import type { TSESLint } from '@typescript-eslint/utils';
import { Linter } from 'eslint';

/** Parses `code` as `filename` and returns what `inspect` computes from its `SourceCode` at the end of the file. */
export function analyse<T>(code: string, inspect: (sourceCode: Readonly<TSESLint.SourceCode>) => T, filename = 'file.ts'): T {
  let answer: { value: T } | undefined;
  const messages = new Linter({ configType: 'flat' }).verify(
    code,
    [
      {
        files: ['**/*.{js,ts,tsx}'],
        languageOptions: { parser: parser as unknown as Linter.Parser, sourceType: 'module' },
        plugins: {
          collect: {
            rules: {
              collect: {
                create(context) {
                  return {
                    'Program:exit'() {
                      answer = { value: inspect(context.sourceCode as unknown as Readonly<TSESLint.SourceCode>) };
                    },
                  };
                },
              },
            },
          },
        },
        rules: { 'collect/collect': 'error' },
      },
    ],
    filename,
  );
  const fatal = messages.find((message) => message.fatal);
  if (fatal) throw new Error(`${filename} does not parse: ${fatal.message}`);
  if (!answer) throw new Error('the collector rule did not run');
  return answer.value;
}
