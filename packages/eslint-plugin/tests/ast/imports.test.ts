import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { getChainRootName, getImportBoundNames, getImportedModules, getMemberChain, GLOBAL_SOURCE, resolveReference } from '../../src/ast/index.js';
import { lintWithProbe } from '../support/probe.js';

// getMemberChain and resolveReference run on every callee of every file for every rule, so they
// were rewritten for speed (an iterative chain, one answer per node; see docs/performance.md).
// These cases pin what they answer.

/** Parses `code` and hands the callee of its last statement-level call, and the file, to `inspect`. */
function withLastCallee(code: string, inspect: (callee: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>) => void): void {
  let last: TSESTree.CallExpression | undefined;
  const messages = lintWithProbe(code, (sourceCode) => ({
    CallExpression(node: TSESTree.CallExpression) {
      if (['ExpressionStatement', 'ReturnStatement', 'ChainExpression'].includes(node.parent.type)) last = node;
    },
    'Program:exit'() {
      if (last) inspect(last.callee, sourceCode);
    },
  }));
  expect(messages.filter((m) => m.fatal)).toEqual([]);
}

const chainOf = (code: string): unknown => {
  let chain: unknown;
  withLastCallee(code, (callee) => {
    const found = getMemberChain(callee);
    chain = found && [found[0].name, ...found.slice(1)];
  });
  return chain;
};

describe('getMemberChain', () => {
  it.each([
    ['f()', ['f']],
    ['a.b.c()', ['a', 'b', 'c']],
    ["a['b'].c()", ['a', 'b', 'c']],
    ['a?.b.c()', ['a', 'b', 'c']],
    ['a!.b()', ['a', 'b']],
    ['(0, m.f)()', ['m', 'f']],
    ['(0, m.ns).f()', ['m', 'ns', 'f']],
    ['a[x].b()', undefined],
    ['f().b()', undefined],
    ['this.b()', undefined],
  ])('%s → %j', (code, expected) => {
    expect(chainOf(code)).toEqual(expected);
  });
});

describe('resolveReference', () => {
  it('answers the same for the same node, and by the binding for another node', () => {
    const code = `
import { randomUUID as uuid } from 'node:crypto';
function local(randomUUID: () => string) { return randomUUID(); }
uuid();
`;
    withLastCallee(code, (callee, sourceCode) => {
      const first = resolveReference(sourceCode, callee);
      expect(first).toEqual({ source: 'crypto', path: ['randomUUID'] });
      expect(resolveReference(sourceCode, callee)).toBe(first);
    });
  });

  it('a local that shadows an import is not the import, asked twice', () => {
    const code = `
import { randomUUID } from 'node:crypto';
export function local(randomUUID: () => string) { return randomUUID(); }
`;
    withLastCallee(code, (callee, sourceCode) => {
      expect(resolveReference(sourceCode, callee)).toBeUndefined();
      expect(resolveReference(sourceCode, callee)).toBeUndefined();
    });
  });

  it('a global keeps its whole path', () => {
    withLastCallee('globalThis.crypto.randomUUID();', (callee, sourceCode) => {
      expect(resolveReference(sourceCode, callee)).toEqual({ source: '<global>', path: ['globalThis', 'crypto', 'randomUUID'] });
    });
  });
});

describe('getImportedModules', () => {
  const modulesOf = (code: string): string[] => {
    let modules: string[] = [];
    withLastCallee(`${code}\nf();`, (_callee, sourceCode) => {
      modules = [...getImportedModules(sourceCode)].sort();
      // One answer per file: the same set for every rule that asks.
      expect(getImportedModules(sourceCode)).toBe(getImportedModules(sourceCode));
    });
    return modules;
  };

  it.each([
    ["import { tool } from 'ai';", ['ai']],
    ["import type { Tool } from '@openai/agents';", ['@openai/agents']],
    ["import { randomUUID } from 'node:crypto';", ['crypto']],
    ["import crypto = require('node:crypto');", ['crypto']],
    ["const { tool } = require('ai');", ['ai']],
    ['function load() { const { tool } = require("@openai/agents-core"); return tool; }', ['@openai/agents-core']],
    ["const ai = __importStar(require ( 'ai' ));", ['ai']],
    ["export { tool } from 'ai'; const x = 'ai';", []],
    ["const m = 'ai'; require(m);", []],
  ])('%s → %j', (code, expected) => {
    expect(modulesOf(code)).toEqual(expected);
  });

  it('every binding resolveReference follows is in the set', () => {
    const code = `
import { defineTool } from '@retrysafe/spec';
const sdk = require('ai');
export function f() { const { tool } = require('@langchain/core/tools'); return [defineTool, sdk, tool]; }
`;
    expect(modulesOf(code)).toEqual(['@langchain/core/tools', '@retrysafe/spec', 'ai']);
  });
});

// findFactory passes over a callee whose root name no import binds, without the scope lookup
// (docs/performance.md). That is exact only if such a callee never resolves to an import.
describe('getImportBoundNames and getChainRootName', () => {
  const judge = (code: string): { root: string | undefined; bound: boolean; resolved: string | undefined } => {
    let result: { root: string | undefined; bound: boolean; resolved: string | undefined } | undefined;
    withLastCallee(code, (callee, sourceCode) => {
      const root = getChainRootName(callee);
      const reference = resolveReference(sourceCode, callee);
      result = {
        root,
        bound: root !== undefined && getImportBoundNames(sourceCode)?.has(root) === true,
        resolved: reference && (reference.source === GLOBAL_SOURCE ? 'global' : `${reference.source}:${reference.path.join('.')}`),
      };
    });
    return result!;
  };

  it.each([
    ["import { tool } from 'ai'; tool({});", 'tool', true, 'ai:tool'],
    ["import { tool as t } from 'ai'; t({});", 't', true, 'ai:tool'],
    ["import * as ai from 'ai'; ai.tool({});", 'ai', true, 'ai:tool'],
    ["import ai from 'ai'; (0, ai.tool)({});", 'ai', true, 'ai:tool'],
    ["import crypto = require('node:crypto'); crypto.randomUUID();", 'crypto', true, 'crypto:randomUUID'],
    ["const ai_1 = require('ai'); (0, ai_1.tool)({});", 'ai_1', true, 'ai:tool'],
    ["function f() { const { tool } = require('ai'); return tool({}); }", 'tool', true, 'ai:tool'],
    ["const { tool: make } = require('ai').default; make({});", 'make', true, 'ai:default.tool'],
    // Not bound by an import anywhere: a local or a global, never an import.
    ["function tool(x: unknown) { return x; } tool({});", 'tool', false, undefined],
    ["const tool = (x: unknown) => x; tool({});", 'tool', false, undefined],
    ['fetch("https://example.com");', 'fetch', false, 'global'],
    ['server.registerTool("a", {}, () => 1);', 'server', false, 'global'],
    // The same name imported in one place and local in another: bound, so it is looked up.
    ["import { tool } from 'ai'; function f(tool: (x: unknown) => void) { tool({}); } f(() => {}); tool({});", 'tool', true, 'ai:tool'],
    ["import { tool } from 'ai'; function f(tool: (x: unknown) => void) { return tool({}); }", 'tool', true, undefined],
    // No identifier root: looked up as before.
    ["require('ai').tool({});", undefined, false, 'ai:tool'],
  ])('%s', (code, root, bound, resolved) => {
    expect(judge(code)).toEqual({ root, bound, resolved });
  });
});
