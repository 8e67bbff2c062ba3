// A slice of the real code that scripts/evaluate-real-code.mjs lints (see docs/evaluation.md): files
// published on the npm registry, installed in bench/ and examples/agent-tools/, linted unchanged with
// every rule that needs no type information (configs.recommended holds them all). Each file was picked because it
// exercises the rules: MCP servers with and without annotations, a toolkit that proxies remote tools
// (ESM and compiled CommonJS), SDK code that builds idempotency keys, and example servers full of
// random ids that are not keys. Nothing may crash, and the findings must be exactly the ones judged
// true in the evaluation, so a false positive that comes back fails here.
import { Linter } from 'eslint';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import plugin from '../src/index.js';

const repoRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../..');

interface SliceFile {
  /** Where the package is installed: `bench` or `examples/agent-tools`. */
  readonly project: string;
  readonly packageName: string;
  readonly file: string;
  /** `line:column rule-id` of every expected finding, in order. */
  readonly findings: readonly string[];
}

const missingPolicy = (line: number, column: number): string => `${line}:${column} @retrysafe/require-retry-policy`;

const SLICE: readonly SliceFile[] = [
  {
    // Low-level server, eight tool objects listed by the tools/list handler, none with annotations.
    project: 'examples/agent-tools',
    packageName: '@modelcontextprotocol/server-slack',
    file: 'dist/index.js',
    findings: [
      missingPolicy(6, 26),
      missingPolicy(24, 25),
      missingPolicy(42, 27),
      missingPolicy(64, 25),
      missingPolicy(86, 31),
      missingPolicy(105, 30),
      missingPolicy(123, 22),
      missingPolicy(141, 28),
    ],
  },
  {
    // registerTool with full annotations; delete_* tools claim idempotentHint: true, rightly.
    project: 'examples/agent-tools',
    packageName: '@modelcontextprotocol/server-memory',
    file: 'dist/index.js',
    findings: [],
  },
  {
    // Proxies remote tools as AI SDK tools, compiled to CommonJS: `(0, import_ai.tool)({...})`.
    project: 'examples/agent-tools',
    packageName: '@stripe/agent-toolkit',
    file: 'ai-sdk/index.js',
    findings: [missingPolicy(394, 32)],
  },
  {
    // Proxies remote tools onto an McpServer subclass with this.tool(name, description, shape, cb).
    project: 'examples/agent-tools',
    packageName: '@stripe/agent-toolkit',
    file: 'modelcontextprotocol/index.mjs',
    findings: [missingPolicy(292, 5)],
  },
  {
    // Builds Idempotency-Key headers: user-supplied keys, and one generated per request that Stripe
    // reuses across its own network retries.
    project: 'bench',
    packageName: 'stripe',
    file: 'esm/RequestSender.js',
    findings: [],
  },
  {
    project: 'bench',
    packageName: 'stripe',
    file: 'cjs/utils.js',
    findings: [],
  },
  {
    // idempotencyKey fields derived from a hash of the payload.
    project: 'bench',
    packageName: '@aws-lambda-powertools/idempotency',
    file: 'lib/esm/persistence/BasePersistenceLayer.js',
    findings: [],
  },
  {
    // randomUUID() for session and event ids, which are not deduplication keys.
    project: 'bench',
    packageName: '@modelcontextprotocol/sdk',
    file: 'dist/esm/examples/server/simpleStreamableHttp.js',
    findings: [],
  },
  {
    // TypeScript's CommonJS output: (0, node_crypto_1.randomUUID)() for transport session ids.
    project: 'bench',
    packageName: '@modelcontextprotocol/sdk',
    file: 'dist/cjs/server/streamableHttp.js',
    findings: [],
  },
];

function packageDir(entry: SliceFile): string {
  // Resolve through pnpm's symlinks to the package's own folder.
  return realpathSync(path.join(repoRoot, entry.project, 'node_modules', entry.packageName));
}

describe('real code (a slice of scripts/evaluate-real-code.mjs)', () => {
  it('lints with every rule that needs no type information', () => {
    const ids = Object.keys(plugin.configs.recommended.rules ?? {});
    const untyped = Object.entries(plugin.rules)
      .filter(([, rule]) => (rule.meta.docs as { requiresTypeChecking?: boolean } | undefined)?.requiresTypeChecking !== true)
      .map(([id]) => `@retrysafe/${id}`);
    expect(ids).toEqual(untyped);
  });

  for (const entry of SLICE) {
    it(`${entry.packageName}/${entry.file}: no crash, and exactly the findings judged true`, () => {
      const dir = packageDir(entry);
      const file = path.join(dir, entry.file);
      expect(existsSync(file), `${file} is not installed: run pnpm install`).toBe(true);
      const linter = new Linter({ configType: 'flat', cwd: dir });
      const messages = linter.verify(readFileSync(file, 'utf8'), [plugin.configs.recommended as Linter.Config], {
        filename: file,
        // The package's own eslint-disable comments name rules that are not loaded here.
        allowInlineConfig: false,
      });
      const crashes = messages.filter((message) => message.fatal || !message.ruleId);
      expect(crashes.map((message) => `${message.line}:${message.column} ${message.message}`)).toEqual([]);
      const findings = messages.map((message) => `${message.line}:${message.column} ${message.ruleId}`);
      expect(findings, messages.map((message) => message.message).join('\n')).toEqual(entry.findings);
    });
  }
});
