// The shared cases (tests/cases, copied unchanged from the project's shared folder), read by the
// rule tests that turn them into named RuleTester cases.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding B01.ts … B18.ts. */
export const casesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'cases');

/** The source of one shared case, e.g. `readCase('B12.ts')`. */
export function readCase(file: string): string {
  return readFileSync(path.join(casesDir, file), 'utf8');
}
