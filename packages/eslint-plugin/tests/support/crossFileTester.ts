import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuleTester } from '@typescript-eslint/rule-tester';

/**
 * tests/fixtures/cross-file: the typed rules' program, whose linted code is its `file.ts` and whose
 * other modules (clients, points, policies, registrations and their barrels) the cases import.
 */
export const crossFileDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/cross-file');

/** A RuleTester whose cases are linted as tests/fixtures/cross-file/file.ts, with type information from the project service. */
export function createCrossFileTester(): RuleTester {
  return new RuleTester({ languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: crossFileDir } } });
}
