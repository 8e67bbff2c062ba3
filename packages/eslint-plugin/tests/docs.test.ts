// The rule docs cannot drift from the rules:
// - eslint-doc-generator --check: every doc header and both README rule tables match the metadata;
// - every code block under `### ❌ Incorrect` is reported by its rule, and every block under
//   `### ✅ Correct` is not (type-aware rules lint their blocks inside the typed fixture project).
//   A block whose first line names a file (`// keys.ts`) is a support module for the blocks after
//   it: it is written under that name for type-aware rules and is not judged itself.
import { ESLint, Linter } from 'eslint';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

import plugin from '../src/index.js';

const packageDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const docsDir = path.join(packageDir, 'docs/rules');
const fixturesDir = path.join(packageDir, 'tests/fixtures');
const ruleIds = readdirSync(docsDir).filter((file) => file.endsWith('.md')).map((file) => file.replace(/\.md$/, '')).sort();

type Verdict = 'incorrect' | 'correct';
interface Example {
  readonly verdict: Verdict;
  readonly code: string;
  readonly line: number;
  /** Set for a support module: the file name its first line gives. */
  readonly supportFile?: string;
}

const SUPPORT_FILE_COMMENT = /^\/\/ ([\w.-]+\.tsx?)\s*$/;

/** The fenced code blocks under `### ❌ Incorrect` and `### ✅ Correct`, with the line they start on. */
function readExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  let verdict: Verdict | undefined;
  let block: { start: number; lines: string[] } | undefined;
  markdown.split('\n').forEach((text, index) => {
    if (block) {
      if (text.startsWith('```')) {
        const supportFile = SUPPORT_FILE_COMMENT.exec(block.lines[0] ?? '')?.[1];
        if (verdict) examples.push({ verdict, code: block.lines.join('\n'), line: block.start, ...(supportFile ? { supportFile } : {}) });
        block = undefined;
      } else {
        block.lines.push(text);
      }
      return;
    }
    if (text.startsWith('#')) verdict = /^###\s*❌/.test(text) ? 'incorrect' : /^###\s*✅/.test(text) ? 'correct' : undefined;
    else if (/^```(ts|tsx|js|mjs|javascript|typescript)\s*$/.test(text)) block = { start: index + 1, lines: [] };
  });
  return examples;
}

function isTypeAware(ruleId: string): boolean {
  const rule = (plugin.rules as Record<string, { meta: { docs?: { requiresTypeChecking?: boolean } } }>)[ruleId];
  return rule?.meta.docs?.requiresTypeChecking === true;
}

function lintUntyped(ruleId: string, code: string): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat' });
  const config = { ...plugin.configs.recommended, rules: { [`@retrysafe/${ruleId}`]: 'error' } } as Linter.Config;
  return linter.verify(code, [config], { filename: 'example.ts' });
}

// Typed examples are written to a folder of this run's own inside the fixture project (its
// tsconfig extends the fixtures' one), so runs never collide and nothing is left among the fixtures.
const typedDir = path.join(fixturesDir, `doc-examples-${process.pid}`);
function prepareTypedDir(): void {
  if (existsSync(typedDir)) return;
  mkdirSync(typedDir);
  writeFileSync(path.join(typedDir, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', include: ['*.ts'] }));
}
afterAll(() => rmSync(typedDir, { recursive: true, force: true }));

// recommended-type-checked: the parser and plugin for every file, then type information for TypeScript.
const [untypedConfig, typedConfig] = plugin.configs['recommended-type-checked'];

async function lintTyped(ruleId: string, code: string, index: number): Promise<Linter.LintMessage[]> {
  prepareTypedDir();
  const file = path.join(typedDir, `doc-example-${ruleId}-${index}.ts`);
  writeFileSync(file, code);
  const eslint = new ESLint({
    cwd: typedDir,
    overrideConfigFile: true,
    overrideConfig: [
      { ...untypedConfig, rules: {} } as Linter.Config,
      {
        ...typedConfig,
        languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: typedDir } },
        rules: { [`@retrysafe/${ruleId}`]: 'error' },
      } as Linter.Config,
    ],
  });
  const [result] = await eslint.lintFiles([file]);
  return result?.messages ?? [];
}

describe('rule docs', () => {
  it('match the rule metadata and the README tables (eslint-doc-generator --check)', () => {
    expect(existsSync(path.join(packageDir, 'dist/index.js')), 'build first: pnpm --filter @retrysafe/eslint-plugin build').toBe(true);
    const bin = createRequire(import.meta.url).resolve('eslint-doc-generator/dist/bin/eslint-doc-generator.js');
    const result = spawnSync(process.execPath, [bin, '--check'], { cwd: packageDir, encoding: 'utf8' });
    expect(result.status, `${result.stdout}${result.stderr}\nRun \`pnpm --filter @retrysafe/eslint-plugin docs\` to regenerate.`).toBe(0);
  });

  for (const ruleId of ruleIds) {
    describe(ruleId, () => {
      const examples = readExamples(readFileSync(path.join(docsDir, `${ruleId}.md`), 'utf8'));

      it('has ❌ and ✅ examples', () => {
        expect(examples.some((example) => example.verdict === 'incorrect')).toBe(true);
        expect(examples.some((example) => example.verdict === 'correct')).toBe(true);
      });

      const supportFiles = examples.filter((example) => example.supportFile !== undefined);
      const judged = examples.filter((example) => example.supportFile === undefined);

      if (supportFiles.length > 0 && isTypeAware(ruleId)) {
        it('writes its support modules', () => {
          prepareTypedDir();
          for (const support of supportFiles) writeFileSync(path.join(typedDir, support.supportFile ?? ''), support.code);
        });
      }

      judged.forEach((example, index) => {
        it(`${example.verdict === 'incorrect' ? '❌' : '✅'} example at line ${example.line} is ${example.verdict === 'incorrect' ? 'reported' : 'clean'}`, async () => {
          const messages = isTypeAware(ruleId) ? await lintTyped(ruleId, example.code, index) : lintUntyped(ruleId, example.code);
          const fatal = messages.filter((message) => message.fatal);
          expect(fatal.map((message) => message.message)).toEqual([]);
          const reports = messages.filter((message) => message.ruleId === `@retrysafe/${ruleId}`);
          if (example.verdict === 'incorrect') expect(reports.length).toBeGreaterThan(0);
          else expect(reports.map((message) => `${message.line}: ${message.message}`)).toEqual([]);
        });
      });
    });
  }
});
