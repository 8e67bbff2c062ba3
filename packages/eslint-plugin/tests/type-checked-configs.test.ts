// The type-checked config as a user copies it from the docs, on a project with JavaScript files that
// no tsconfig.json includes (the config file itself, scripts/*.mjs, a .cjs) and a TypeScript config
// file outside the tsconfig: JavaScript is linted without types instead of becoming a parsing
// error, and `disable-type-checked` is what lets a TypeScript file without types be linted
// (typescript-eslint's own disableTypeChecked leaves our type-aware rules on, and they fail to load).
import { ESLint } from 'eslint';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const packageDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.join(packageDir, '../..');

/** The `eslint.config.mjs` block of a markdown file that uses `recommended-type-checked`. */
function typeCheckedSnippet(markdownFile: string): string {
  const blocks = [...readFileSync(markdownFile, 'utf8').matchAll(/```js\n(\/\/ eslint\.config\.mjs\n[\s\S]*?)```/g)];
  const snippet = blocks.map((block) => block[1] ?? '').find((code) => code.includes("configs['recommended-type-checked']"));
  if (snippet === undefined) throw new Error(`${markdownFile} has no eslint.config.mjs block with recommended-type-checked`);
  return snippet;
}

const docsSnippet = typeCheckedSnippet(path.join(repoRoot, 'docs/getting-started.md'));

// The project lives inside this package, so its `import '@retrysafe/eslint-plugin'` resolves to
// this package's build (a package may import itself by name through its exports).
const projectDir = path.join(packageDir, `tests/fixtures/configs-${process.pid}`);
const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', noEmit: true, types: ['node'] }, include: ['src'] }),
  'src/keys.ts': "import { randomUUID } from 'node:crypto';\n\nexport function makeKey(): string {\n  return randomUUID();\n}\n",
  'src/refund.ts': [
    "import { makeKey } from './keys.js';",
    '',
    'export async function refund(stripe: { refunds: { create(params: object, options: object): Promise<unknown> } }) {',
    '  return stripe.refunds.create({ charge: "ch_1" }, { idempotencyKey: makeKey() });',
    '}',
    '',
  ].join('\n'),
  'src/legacy.js': 'export const answer = 42;\n',
  'scripts/pay.mjs': "import { randomUUID } from 'node:crypto';\n\nawait fetch('https://pay.example/charge', { method: 'POST', headers: { 'Idempotency-Key': randomUUID() } });\n",
  'scripts/pay.cjs': "const { randomUUID } = require('node:crypto');\n\nfetch('https://pay.example/charge', { method: 'POST', headers: { 'Idempotency-Key': randomUUID() } });\n",
  'vitest.config.ts': 'export default { test: { include: ["src/**/*.test.ts"] } };\n',
};

beforeAll(() => {
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(projectDir, file)), { recursive: true });
    writeFileSync(path.join(projectDir, file), text);
  }
});
afterAll(() => rmSync(projectDir, { recursive: true, force: true }));

/** Lints the project with `config` as its eslint.config.mjs; `file: line rule` of each message. */
async function lintProject(config: string, files: readonly string[]): Promise<string[]> {
  const configFile = path.join(projectDir, 'eslint.config.mjs');
  writeFileSync(configFile, config);
  const eslint = new ESLint({ cwd: projectDir, overrideConfigFile: configFile });
  const results = await eslint.lintFiles([...files]);
  return results
    .flatMap((result) =>
      result.messages.map((message) =>
        `${path.relative(projectDir, result.filePath)}:${message.line ?? 0} ${message.ruleId ?? `fatal: ${message.message.split('\n')[0]}`}`,
      ),
    )
    .sort();
}

/** The docs' config with one more config object at the end of its array. */
const withEntry = (entry: string): string => docsSnippet.replace(/\n\];\s*$/, `\n  ${entry},\n];\n`);

describe('the type-checked config from the docs', () => {
  it('is the same block in the package README and getting-started', () => {
    expect(typeCheckedSnippet(path.join(repoRoot, 'packages/eslint-plugin/README.md'))).toBe(docsSnippet);
  });

  it('lints .mjs and .cjs files outside every tsconfig and .js without allowJs, and type-checks TypeScript', async () => {
    const messages = await lintProject(docsSnippet, ['eslint.config.mjs', 'src', 'scripts']);
    expect(messages).toEqual([
      'scripts/pay.cjs:3 @retrysafe/no-random-key',
      'scripts/pay.mjs:3 @retrysafe/no-random-key',
      'src/refund.ts:4 @retrysafe/no-random-key-type-checked',
    ]);
  });

  it('reports a TypeScript file outside every tsconfig as the parsing error the docs describe', async () => {
    const messages = await lintProject(docsSnippet, ['vitest.config.ts']);
    expect(messages).toEqual([expect.stringMatching(/^vitest\.config\.ts:0 fatal: .*was not found by the project service/)]);
  });

  it('lints that file without types under disable-type-checked, as the docs show', async () => {
    const messages = await lintProject(withEntry("{ files: ['*.config.ts'], ...retrysafe.configs['disable-type-checked'] }"), ['vitest.config.ts', 'src']);
    expect(messages).toEqual(['src/refund.ts:4 @retrysafe/no-random-key-type-checked']);
  });

  // typescript-eslint infers a "single run" when CI=true or under the eslint bin and then reuses the
  // program it built for the other files, so the crash shows where programs are not reused: in an
  // editor's language server and through the ESLint API (TSESTREE_SINGLE_RUN=false pins that path,
  // whatever CI sets). Seen in CI, where the single run had hidden it.
  it("fails to load our type-aware rules under typescript-eslint's disableTypeChecked alone (editor, API)", async () => {
    const config = `import tseslint from 'typescript-eslint';\n${withEntry("{ files: ['*.config.ts'], ...tseslint.configs.disableTypeChecked }")}`;
    const saved = process.env['TSESTREE_SINGLE_RUN'];
    process.env['TSESTREE_SINGLE_RUN'] = 'false';
    try {
      await expect(lintProject(config, ['vitest.config.ts'])).rejects.toThrow(
        /Error while loading rule '@retrysafe\/[\w-]+-type-checked': You have used a rule which requires type information/,
      );
    } finally {
      if (saved === undefined) delete process.env['TSESTREE_SINGLE_RUN'];
      else process.env['TSESTREE_SINGLE_RUN'] = saved;
    }
  });
});
