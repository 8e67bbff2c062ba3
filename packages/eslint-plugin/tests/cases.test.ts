// Every file in tests/cases (copied from the project's shared cases, unchanged) is linted with every
// rule of the plugin, and each `// EXPECT:` marker must hold exactly:
//   R1   → `no-random-key` reports on that line;
//   R2   → `require-retry-policy`, `no-unsafe-retry-policy` or `no-misleading-idempotent-hint` reports
//          starting on that line (the tool's policy is missing or contradicts itself);
//   none → nothing of @retrysafe reports starting on that line.
// A report on a line with no R1/R2 marker fails the file too, so the expectations are exact.
import { Linter } from 'eslint';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import plugin from '../src/index.js';

const casesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cases');
const caseFiles = readdirSync(casesDir).filter((file) => file.endsWith('.ts')).sort();

const R1_RULES = new Set(['@retrysafe/no-random-key']);
const R2_RULES = new Set([
  '@retrysafe/require-retry-policy',
  '@retrysafe/no-unsafe-retry-policy',
  '@retrysafe/no-misleading-idempotent-hint',
]);
/** Severities as ESLint reports them. */
const WARN = 1;

type Marker = 'R1' | 'R2' | 'none';

function readMarkers(source: string): Map<number, Marker> {
  const markers = new Map<number, Marker>();
  source.split('\n').forEach((text, index) => {
    const match = /\/\/ EXPECT: (R1|R2|none)\b/.exec(text);
    if (match) markers.set(index + 1, match[1] as Marker);
  });
  return markers;
}

function lintCase(fileName: string, source: string): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat' });
  return linter.verify(source, [plugin.configs.recommended as Linter.Config], { filename: fileName });
}

function describeReports(messages: Linter.LintMessage[]): string[] {
  return messages.map((message) => `${message.line}:${message.column} ${message.ruleId ?? 'fatal'} ${message.message}`);
}

describe('shared cases', () => {
  it('has cases to check', () => {
    expect(caseFiles.length).toBeGreaterThanOrEqual(12);
  });

  for (const fileName of caseFiles) {
    it(`${fileName}: every EXPECT marker holds and nothing else is reported`, () => {
      const source = readFileSync(path.join(casesDir, fileName), 'utf8');
      const markers = readMarkers(source);
      const messages = lintCase(fileName, source);
      const fatal = messages.filter((message) => message.fatal || !message.ruleId);
      expect(describeReports(fatal)).toEqual([]);

      const r1Lines = new Set(messages.filter((m) => R1_RULES.has(m.ruleId ?? '')).map((m) => m.line));
      const r2Lines = new Set(messages.filter((m) => R2_RULES.has(m.ruleId ?? '')).map((m) => m.line));
      const expectedR1 = [...markers].filter(([, marker]) => marker === 'R1').map(([line]) => line);
      const expectedR2 = [...markers].filter(([, marker]) => marker === 'R2').map(([line]) => line);

      expect([...r1Lines].sort((a, b) => a - b), describeReports(messages).join('\n')).toEqual(expectedR1);
      expect([...r2Lines].sort((a, b) => a - b), describeReports(messages).join('\n')).toEqual(expectedR2);
      // R1's message names where the key came from and on which line.
      for (const message of messages.filter((m) => R1_RULES.has(m.ruleId ?? ''))) {
        expect(message.message).toMatch(/line \d+/);
      }
      const otherRetrysafe = messages.filter(
        (m) => m.ruleId?.startsWith('@retrysafe/') && !R1_RULES.has(m.ruleId) && !R2_RULES.has(m.ruleId),
      );
      expect(describeReports(otherRetrysafe)).toEqual([]);
    });
  }

  it('B12.ts: the misleading idempotentHint is a heuristic, reported as a warning by configs.recommended', () => {
    const source = readFileSync(path.join(casesDir, 'B12.ts'), 'utf8');
    const expectedLine = [...readMarkers(source)].find(([, marker]) => marker === 'R2')?.[0];
    const reports = lintCase('B12.ts', source).filter((m) => m.ruleId?.startsWith('@retrysafe/'));
    expect(reports.map((m) => ({ ruleId: m.ruleId, line: m.line, severity: m.severity }))).toEqual([
      { ruleId: '@retrysafe/no-misleading-idempotent-hint', line: expectedLine, severity: WARN },
    ]);
  });
});
