import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { expect, it } from 'vitest';

// The repository's own sources pass its own recommended config and typescript-eslint's
// (eslint.config.mjs at the root, the same run as `pnpm lint`). The plugin comes from its build,
// which the test command makes first (scripts/setup.sh).
const repoRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

it('pnpm lint: the packages lint clean with typescript-eslint recommended and @retrysafe recommended', async () => {
  const eslint = new ESLint({ cwd: repoRoot });
  const results = await eslint.lintFiles(['packages']);
  const problems = results.flatMap((result) =>
    result.messages.map((message) => `${path.relative(repoRoot, result.filePath)}:${message.line}:${message.column} ${message.ruleId ?? ''} ${message.message}`),
  );
  expect(results.length).toBeGreaterThan(50);
  expect(problems).toEqual([]);
}, 120_000);
