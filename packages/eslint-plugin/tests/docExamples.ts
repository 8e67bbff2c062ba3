import * as parser from '@typescript-eslint/parser';
import { type ESLint, Linter } from 'eslint';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The `### ❌ Incorrect` and `### ✅ Correct` code blocks of a rule doc, linted as standalone files, so
// that a doc cannot show an example the rule does not actually report (or reports when it should not).

const packageDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The `ts` code blocks under a rule doc's ❌ and ✅ headings. */
export function readDocExamples(ruleId: string): { incorrect: string[]; correct: string[] } {
  const markdown = readFileSync(path.join(packageDir, 'docs/rules', `${ruleId}.md`), 'utf8');
  return { incorrect: blocksUnder(markdown, '### ❌ Incorrect'), correct: blocksUnder(markdown, '### ✅ Correct') };
}

function blocksUnder(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(heading);
  if (start === -1) return [];
  const rest = markdown.slice(start + heading.length);
  const end = rest.search(/^#{2,3} /m);
  const section = end === -1 ? rest : rest.slice(0, end);
  return [...section.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
}

/**
 * Lints `code` with one rule, type-aware, as the file `fileName` (which the project of `tsconfigRootDir`
 * includes); returns the rule's reports and any parse error.
 */
export function lintTyped(
  code: string,
  ruleId: string,
  rule: unknown,
  { tsconfigRootDir, fileName }: { tsconfigRootDir: string; fileName: string },
): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat' });
  const config: Linter.Config[] = [
    {
      files: ['**/*.ts'],
      languageOptions: {
        parser: parser as unknown as Linter.Parser,
        parserOptions: { projectService: true, tsconfigRootDir },
      },
      plugins: { retrysafe: { rules: { [ruleId]: rule } } as unknown as ESLint.Plugin },
      rules: { [`retrysafe/${ruleId}`]: 'error' },
    },
  ];
  return linter.verify(code, config, { filename: path.join(tsconfigRootDir, fileName) });
}
