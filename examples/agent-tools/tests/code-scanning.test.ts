// The GitHub code scanning workflow of docs/code-scanning.md: it is valid YAML with the steps the
// page describes, and its ESLint command, run here, writes a SARIF 2.1.0 log (validated against the
// schema, @microsoft/jest-sarif's copy of the OASIS one) with every finding as a result that links
// its rule's page (`helpUri`, from the rule's meta.docs.url).
import { ESLint } from 'eslint';
import AjvDraft04 from 'ajv-draft-04';
import { execSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Log } from 'sarif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';

import retrysafe from '@retrysafe/eslint-plugin';

const projectDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const docPath = path.join(projectDir, '../../docs/code-scanning.md');

interface Step {
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Record<string, unknown>;
  readonly 'continue-on-error'?: boolean;
}
interface Workflow {
  readonly on: { readonly push?: { readonly branches?: string[] }; readonly pull_request?: unknown };
  readonly permissions: Record<string, string>;
  readonly jobs: Record<string, { readonly 'runs-on': string; readonly steps: readonly Step[] }>;
}

function readWorkflow(): { text: string; workflow: Workflow } {
  const block = /```yaml\n([\s\S]*?)```/.exec(readFileSync(docPath, 'utf8'))?.[1];
  if (block === undefined) throw new Error('docs/code-scanning.md has no yaml block');
  const document = parseDocument(block, { prettyErrors: true, uniqueKeys: true });
  expect(document.errors.map((error) => error.message)).toEqual([]);
  return { text: block, workflow: document.toJS() as Workflow };
}

const { workflow } = readWorkflow();
const steps = Object.values(workflow.jobs)[0]?.steps ?? [];
const lintStep = steps.find((step) => step.run?.includes('eslint'));
const uploadStep = steps.find((step) => step.uses?.startsWith('github/codeql-action/upload-sarif@'));
const outputFile = /--output-file (\S+)/.exec(lintStep?.run ?? '')?.[1] ?? '';

describe('the code scanning workflow in docs/code-scanning.md', () => {
  it('runs on pushes to main and on pull requests, allowed to write security events', () => {
    expect(workflow.on.push?.branches).toEqual(['main']);
    expect(workflow.on).toHaveProperty('pull_request');
    expect(workflow.permissions).toEqual({ contents: 'read', 'security-events': 'write' });
  });

  it('checks out, sets up Node 20, installs, lints to SARIF without failing the job, and uploads that file', () => {
    expect(steps.map((step) => step.uses?.replace(/@.*/, '') ?? step.run?.split(' ').slice(0, 2).join(' '))).toEqual([
      'actions/checkout',
      'actions/setup-node',
      'npm ci',
      'npx eslint',
      'github/codeql-action/upload-sarif',
    ]);
    expect(steps[1]?.with).toEqual({ 'node-version': 20 });
    expect(lintStep?.run).toBe(`npx eslint . --format @microsoft/eslint-formatter-sarif --output-file ${outputFile}`);
    expect(lintStep?.['continue-on-error']).toBe(true);
    expect(uploadStep?.with).toEqual({ sarif_file: outputFile, category: 'eslint' });
  });
});

describe("the workflow's ESLint command, run in examples/agent-tools", () => {
  let log: Log;
  beforeAll(() => {
    try {
      execSync(lintStep?.run ?? 'false', { cwd: projectDir, stdio: 'pipe' });
    } catch (error) {
      // ESLint exits 1 when a rule reports: the workflow's continue-on-error.
      expect((error as { status?: number }).status).toBe(1);
    }
    log = JSON.parse(readFileSync(path.join(projectDir, outputFile), 'utf8')) as Log;
  }, 120_000);
  afterAll(() => rmSync(path.join(projectDir, outputFile), { force: true }));

  it('writes a log that is valid SARIF 2.1.0', () => {
    const schemaPath = createRequire(import.meta.url).resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
    // The schema is draft-04; its pattern for `language` is not a valid Unicode-mode RegExp.
    const ajv = new AjvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false });
    const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as object);
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(log.version).toBe('2.1.0');
    // The schema does reject a log that is not one: a run's tool must name its driver.
    expect(validate({ version: '2.1.0', runs: [{ tool: {} }] })).toBe(false);
  });

  it("has every finding as a result, whose rule links that rule's page", async () => {
    const results = await new ESLint({ cwd: projectDir }).lintFiles(['.']);
    const expected = results
      .flatMap((result) => result.messages.map((m) => `${pathToFileURL(result.filePath).href}:${m.line}:${m.column} ${m.ruleId ?? ''}`))
      .sort();
    const [run] = log.runs;
    const found = (run?.results ?? [])
      .map((result) => {
        const location = result.locations?.[0]?.physicalLocation;
        return `${location?.artifactLocation?.uri ?? ''}:${location?.region?.startLine ?? 0}:${location?.region?.startColumn ?? 0} ${result.ruleId ?? ''}`;
      })
      .sort();
    expect(found).toEqual(expected);
    expect(found.length).toBeGreaterThan(0);
    const rules = run?.tool.driver.rules ?? [];
    for (const result of run?.results ?? []) {
      const rule = rules.find((candidate) => candidate.id === result.ruleId);
      const docsUrl = (retrysafe.rules as Record<string, { meta: { docs?: { url?: string } } }>)[result.ruleId?.replace('@retrysafe/', '') ?? '']?.meta.docs?.url;
      expect(rule?.helpUri, result.ruleId).toBe(docsUrl);
      expect(rule?.helpUri).toMatch(/^https:\/\/github\.com\/retrysafe\/retrysafe\/blob\/main\/packages\/eslint-plugin\/docs\/rules\/[a-z-]+\.md$/);
    }
  });
});
