/**
 * How the wire tests start the stdio fixture server (../fixtures/mcp-stdio-server.ts) as a child
 * process: node with the TypeScript loader the crash test uses.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StdioServerArgs } from '../fixtures/mcp-stdio-server.js';

export type { StdioServerArgs } from '../fixtures/mcp-stdio-server.js';

const tests = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The arguments of `node` that start the fixture server with `args`. */
export function stdioServerArgs(args: StdioServerArgs): string[] {
  return ['--import', join(tests, 'helpers/ts-loader.mjs'), join(tests, 'fixtures/mcp-stdio-server.ts'), JSON.stringify(args)];
}
