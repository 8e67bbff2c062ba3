import * as parser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import { createToolRecogniser, type ToolDefinition } from '../../src/tools/index.js';

// The recogniser skips work it can prove answers nothing: the scope lookup of a callee whose root
// name no variable of the file binds to a factory's module, the walk of a function that holds no
// call defining a tool, the callee lookup in a file where no function holds one. These cases pin
// the answers where such a filter could go wrong: renamed, namespace, default and shadowed imports,
// `require` in its forms, re-exports, wrappers nested in other functions and wrappers declared
// after their calls.

/** The names of the tools `definitionsAt` finds at every call and `new` of `code`, in source order ('-' where none). */
function definitionsIn(code: string): string[] {
  const linter = new Linter({ configType: 'flat' });
  const found: string[] = [];
  const messages = linter.verify(code, [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: parser as unknown as Linter.Parser, sourceType: 'module' },
      plugins: {
        probe: {
          rules: {
            probe: {
              create(context) {
                const tools = createToolRecogniser(context.sourceCode as unknown as Readonly<TSESLint.SourceCode>);
                const label = (tool: ToolDefinition): string => `${tool.framework}:${tool.name ?? '?'}`;
                const atNodes: string[] = [];
                const visit = (node: TSESTree.CallExpression | TSESTree.NewExpression): void => {
                  const names = tools.definitionsAt(node).map(label);
                  found.push(names.length > 0 ? names.join(',') : '-');
                  if (names.length > 0) atNodes.push(`${node.range[0]} ${names.join(',')}`);
                };
                // sites() (what the tool rules read from one listener) lists the same, in the same order.
                const fromSites = (): string[] =>
                  tools
                    .sites()
                    .filter((site) => site.node.type === 'CallExpression' || site.node.type === 'NewExpression')
                    .map((site) => `${site.node.range[0]} ${site.definitions.map(label).join(',')}`);
                return { CallExpression: visit, NewExpression: visit, 'Program:exit': () => expect(fromSites()).toEqual(atNodes) };
              },
            },
          },
        },
      },
      rules: { 'probe/probe': 'error' },
    },
  ], 'file.ts');
  expect(messages).toEqual([]);
  return found;
}

const CONFIG = "{ name: 'refund', description: 'Refunds', inputSchema: {}, execute: async () => 1 }";

describe('factory callee prefilter', () => {
  it('finds a renamed, a namespace and a default-import factory', () => {
    expect(definitionsIn(`import { tool as t } from 'ai';\nt(${CONFIG});`)).toEqual(['ai-sdk:refund']);
    expect(definitionsIn(`import * as ai from 'ai';\nai.tool(${CONFIG});`)).toEqual(['ai-sdk:refund']);
    expect(definitionsIn(`import ai from 'ai';\nai.tool(${CONFIG});`)).toEqual(['ai-sdk:refund']);
  });

  it('finds a factory bound by require, destructured, through an interop helper, in place and inside a function', () => {
    expect(definitionsIn(`const { tool } = require('ai');\ntool(${CONFIG});`)).toEqual(['-', 'ai-sdk:refund']);
    expect(definitionsIn(`const ai_1 = require('ai');\n(0, ai_1.tool)(${CONFIG});`)).toEqual(['-', 'ai-sdk:refund']);
    expect(definitionsIn(`const ai = __importStar(require('ai'));\nai.tool(${CONFIG});`)).toEqual(['-', '-', 'ai-sdk:refund']);
    expect(definitionsIn(`require('ai').tool(${CONFIG});`)).toEqual(['ai-sdk:refund', '-']);
    expect(definitionsIn(`export function make() {\n  const { tool } = require('ai');\n  return tool(${CONFIG});\n}`)).toEqual(['-', 'ai-sdk:refund']);
  });

  it('finds no factory where the name is shadowed, re-exported only, or bound to another module', () => {
    expect(definitionsIn(`import { tool } from 'ai';\nexport function f(tool: (c: unknown) => void) {\n  tool(${CONFIG});\n}`)).toEqual(['-']);
    expect(definitionsIn(`import 'ai';\nexport { tool } from 'ai';\ntool(${CONFIG});`)).toEqual(['-']);
    expect(definitionsIn(`import { z } from 'ai';\nimport { tool } from 'other';\ntool(${CONFIG});`)).toEqual(['-']);
  });
});

describe('wrapper prefilter', () => {
  it('defines the tool at the calls of a wrapper, also nested and declared after the call', () => {
    expect(definitionsIn(`import { tool } from 'ai';\nmakeTool(${CONFIG});\nfunction makeTool(spec) { return tool({ ...spec }); }`)).toEqual(['ai-sdk:refund', '-']);
    expect(
      definitionsIn(`import { tool } from 'ai';\nfunction outer() {\n  const inner = (spec) => tool({ ...spec });\n  return inner(${CONFIG});\n}\nouter();`),
    ).toEqual(['-', 'ai-sdk:refund', '-']);
  });

  it('defines nothing at the calls of a function with no tool inside', () => {
    expect(definitionsIn(`import { tool } from 'ai';\nconst helper = (spec) => ({ ...spec });\nhelper(${CONFIG});\ntool(${CONFIG});`)).toEqual(['-', 'ai-sdk:refund']);
    expect(definitionsIn(`const helper = (spec) => ({ ...spec });\nhelper(${CONFIG});`)).toEqual(['-']);
  });
});

describe('sites', () => {
  it('lists a low-level tool list once, at its first handler, and every registration in source order', () => {
    const listed = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const REFUND = { name: 'refund', description: 'Refunds', inputSchema: {} };
const server = new Server({ name: 's', version: '1' });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [REFUND] }));
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [REFUND] }));`;
    expect(definitionsIn(listed)).toEqual(['-', 'mcp-low-level:refund', '-']);
    const registered = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('b', { description: 'B' }, async () => ({ content: [] }));
server.tool('a', async () => ({ content: [] }));`;
    expect(definitionsIn(registered)).toEqual(['-', 'mcp:b', 'mcp:a']);
  });
});
