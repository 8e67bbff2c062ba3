import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The import rules of .dependency-cruiser.cjs (the eslint-plugin's layers, index-only imports across
// folders, no cycle in any package's sources, type-only imports included), run as CI runs them, so
// that a violating import fails the test command.
const repoRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = path.join(repoRoot, '.dependency-cruiser.cjs');
// The package exports only its ES module API: its bin sits two folders above that entry.
const depcruise = path.join(fileURLToPath(import.meta.resolve('dependency-cruiser')), '../../../bin/dependency-cruise.mjs');
const CRUISED = ['packages/eslint-plugin/src', 'packages/eslint-plugin/tests', 'packages/spec/src'];

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
  readonly cycle?: readonly { readonly name: string }[];
}

function cruise(cwd: string): Violation[] {
  let output: string;
  try {
    output = execFileSync(process.execPath, [depcruise, '--config', config, '--output-type', 'json', ...CRUISED], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    // Exit code 1 with the report on stdout means violations; anything else is the checker failing.
    output = String((error as { stdout?: string }).stdout ?? '');
    if (!output.startsWith('{')) throw error;
  }
  return (JSON.parse(output) as { summary: { violations: Violation[] } }).summary.violations;
}

const describeViolation = (violation: Violation): string =>
  `${violation.rule.name}: ${violation.from} → ${violation.to}${violation.cycle ? ` (cycle: ${violation.cycle.map((step) => step.name).join(' → ')})` : ''}`;

describe('import rules (.dependency-cruiser.cjs)', () => {
  it('hold for every package source and the plugin tests', () => {
    expect(cruise(repoRoot).map(describeViolation)).toEqual([]);
  });

  describe('each rule fails a planted violation', () => {
    // A copy of the cruised folders in a temporary tree, with one bad import planted per rule.
    const copy = mkdtempSync(path.join(tmpdir(), 'retrysafe-architecture-'));
    afterAll(() => rmSync(copy, { recursive: true, force: true }));
    for (const folder of CRUISED) cpSync(path.join(repoRoot, folder), path.join(copy, folder), { recursive: true });
    const plant = (file: string, line: string): void => {
      const target = path.join(copy, 'packages/eslint-plugin', file);
      writeFileSync(target, `${line}\n${readFileSync(target, 'utf8')}`);
    };
    plant('src/keys/keyPositions.ts', "import type { ToolDefinition } from '../tools/index.js'; export type PlantedLayer = ToolDefinition;");
    plant('src/rules/no-random-key.ts', "import { createValueTracer } from '../keys/valueTracer.js'; export const plantedDeep = createValueTracer;");
    plant('src/ast/imports.ts', "import type { KeyPosition } from '../keys/index.js'; export type PlantedCycle = KeyPosition;");
    plant('tests/plugin.test.ts', "import { createToolRecogniser } from '../src/tools/recogniser.js'; void createToolRecogniser;");
    const found = cruise(copy).map(describeViolation);

    it.each([
      ['layer order', 'layer-keys: packages/eslint-plugin/src/keys/keyPositions.ts → packages/eslint-plugin/src/tools/index.ts'],
      ['index-only imports', 'index-only-across-folders: packages/eslint-plugin/src/rules/no-random-key.ts → packages/eslint-plugin/src/keys/valueTracer.ts'],
      ['a lower layer importing a higher one', 'layer-ast: packages/eslint-plugin/src/ast/imports.ts → packages/eslint-plugin/src/keys/index.ts'],
      ['tests through entry points', 'tests-through-entry-points: packages/eslint-plugin/tests/plugin.test.ts → packages/eslint-plugin/src/tools/recogniser.ts'],
    ])('%s', (_rule, expected) => {
      expect(found).toContain(expected);
    });

    it('no cycles, type-only imports included', () => {
      expect(found.some((line) => line.startsWith('no-circular: packages/eslint-plugin/src/ast/imports.ts'))).toBe(true);
    });
  });
});
