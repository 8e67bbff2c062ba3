// Tools registered through a wrapper another file exports, read without types
// (createImportedWrappers): the import's relative specifier resolved on disk, the wrapper read in
// its file as a same-file one is, the tool defined at the call. Files are written to a temporary
// folder; the calling file is parsed by ESLint as the audit's collector parses it.
import type { TSESTree } from '@typescript-eslint/utils';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { createImportedWrappers } from '../../src/analysis/index.js';
import { analyse } from '../support/analyse.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'retrysafe-imported-wrappers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

const MCP_IMPORT = "import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n";

write(
  'lib/register.ts',
  MCP_IMPORT +
    [
      'export function addTool(server: McpServer, name: string, handler: () => Promise<object>) {',
      "  server.registerTool(name, { description: name, inputSchema: {} }, handler);",
      '}',
      'const plain = (server: McpServer, name: string, handler: () => Promise<object>) => server.tool(name, handler);',
      'export { plain as addPlain };',
      'export function addSpec(server: McpServer, spec: { name: string; config: object; handler: () => Promise<object> }) {',
      '  server.registerTool(spec.name, spec.config, spec.handler);',
      '}',
      'export function log(name: string, handler: () => void) { console.log(name, handler); }',
      '',
    ].join('\n'),
);
write('lib/index.ts', "export { addTool as viaBarrel } from './register.js';\n");
write('lib/all.ts', "export * from './register.js';\n");
// No MCP import: the recogniser reads no registration here, so this is no wrapper.
write('lib/untyped.ts', 'export function addTool(server: any, name: string, handler: () => void) { server.registerTool(name, {}, handler); }\n');

/** The calls of `code` (one per statement), each with the tools it defines through an imported wrapper. */
function toolsOf(code: string): { name: string | undefined; line: number; handler: boolean; config: boolean; wrapped: string }[][] {
  const fileName = path.join(root, 'src/tools.ts');
  return analyse(code, (sourceCode) => {
    const wrappers = createImportedWrappers(sourceCode, fileName);
    return sourceCode.ast.body
      .filter((statement): statement is TSESTree.ExpressionStatement => statement.type === 'ExpressionStatement' && statement.expression.type === 'CallExpression')
      .map((statement) =>
        wrappers.wrapperCall(statement.expression as TSESTree.CallExpression).map(({ definition, wrapped }) => ({
          name: definition.name,
          line: definition.node.loc.start.line,
          handler: definition.handler !== undefined,
          config: definition.config !== undefined,
          wrapped: `${path.relative(root, wrapped.fileName)}:${wrapped.line}`,
        })),
      );
  });
}

describe('a wrapper another file exports defines its tools at each call', () => {
  it('named by the argument, with the call\'s handler; the wrapper\'s own config literal is left in its file', () => {
    expect(toolsOf("import { addTool } from '../lib/register.js';\naddTool(server, 'refund', async () => ({}));\n")).toEqual([
      [{ name: 'refund', line: 2, handler: true, config: false, wrapped: 'lib/register.ts:3' }],
    ]);
  });

  it('through an `export { a as b }`, a barrel\'s re-export, a namespace import and `export *`', () => {
    const code = [
      "import { addPlain } from '../lib/register.js';",
      "import { viaBarrel } from '../lib/index.js';",
      "import * as registry from '../lib/register.js';",
      "addPlain(server, 'ping', async () => ({}));",
      "viaBarrel(server, 'cancel', async () => ({}));",
      "registry.addTool(server, 'refund_v2', async () => ({}));",
      "import { addPlain as starred } from '../lib/all.js';",
      "starred(server, 'starred', async () => ({}));",
      '',
    ].join('\n');
    expect(toolsOf(code).map((tools) => tools.map(({ name, wrapped }) => [name, wrapped]))).toEqual([[['ping', 'lib/register.ts:5']], [['cancel', 'lib/register.ts:3']], [['refund_v2', 'lib/register.ts:3']], [['starred', 'lib/register.ts:5']]]);
  });

  it('a config from a parameter is the call\'s (its annotations, its policy are read there)', () => {
    const code = "import { addSpec } from '../lib/register.js';\naddSpec(server, { name: 'get_order', config: { annotations: { readOnlyHint: true } }, handler: async () => ({}) });\n";
    expect(toolsOf(code)).toEqual([[{ name: 'get_order', line: 2, handler: true, config: true, wrapped: 'lib/register.ts:8' }]]);
  });
});

describe('silent where the wrapper cannot be read', () => {
  it.each([
    ['a function that registers nothing', "import { log } from '../lib/register.js';\nlog('x', () => undefined);\n"],
    ['an import of a file that does not exist', "import { addTool } from '../lib/missing.js';\naddTool(server, 'x', async () => ({}));\n"],
    ['a name the file does not export', "import { addNothing } from '../lib/register.js';\naddNothing(server, 'x', async () => ({}));\n"],
    ['a package import', "import { addTool } from 'mcp-helpers';\naddTool(server, 'x', async () => ({}));\n"],
    ['a wrapper file that imports no framework', "import { addTool } from '../lib/untyped.js';\naddTool(server, 'x', async () => ({}));\n"],
    ['a local function of the same name', "function addTool(a: unknown, b: string, c: unknown) {}\naddTool(server, 'x', async () => ({}));\n"],
  ])('%s', (_shape, code) => {
    expect(toolsOf(code).flat()).toEqual([]);
  });
});

it('a wrapper file edited between two reads is read again', () => {
  write('lib/edited.ts', `${MCP_IMPORT}export function add(server: McpServer, name: string, handler: () => Promise<object>) { server.tool(name, handler); }\n`);
  const code = "import { add } from '../lib/edited.js';\nadd(server, 'first', async () => ({}));\n";
  expect(toolsOf(code).flat().map((tool) => tool.name)).toEqual(['first']);
  write('lib/edited.ts', 'export function add(server: unknown, name: string) { return name; }\n');
  expect(toolsOf(code).flat()).toEqual([]);
});
