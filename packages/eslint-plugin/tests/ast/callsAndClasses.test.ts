import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { getCallsAndClasses } from '../../src/ast/index.js';
import { lintWithProbe } from '../support/probe.js';

// getCallsAndClasses is the list the tool recogniser and the low-level MCP handler reader read
// instead of each walking the file (docs/performance.md): it must hold every call, `new` and class
// of the file, in the order ESLint visits them, and nothing else.

const CODE = `
import { tool } from 'ai';
class Outer { run() { return new Inner(make(1)); } }
const value = a.b(c(), new D(class {}), () => e?.(f()));
function g() { return tool({ execute: async () => h(i()) }); }
`;

/** Lints `code` with a rule that records, in visiting order, the nodes ESLint enters, and the list. */
function lint(code: string): { visited: TSESTree.Node[]; listed: readonly TSESTree.Node[] } {
  const visited: TSESTree.Node[] = [];
  let listed: readonly TSESTree.Node[] = [];
  const record = (node: TSESTree.Node): void => {
    visited.push(node);
  };
  const messages = lintWithProbe(code, (sourceCode) => ({
    Program() {
      listed = getCallsAndClasses(sourceCode);
    },
    CallExpression: record,
    NewExpression: record,
    ClassDeclaration: record,
    ClassExpression: record,
  }));
  expect(messages).toEqual([]);
  return { visited, listed };
}

describe('getCallsAndClasses', () => {
  it("lists the file's calls, news and classes in ESLint's visiting order", () => {
    const { visited, listed } = lint(CODE);
    expect(visited).toHaveLength(12);
    expect(listed).toEqual(visited);
    expect(listed.map((node) => node.type)).toEqual([
      'ClassDeclaration',
      'NewExpression',
      'CallExpression',
      'CallExpression',
      'CallExpression',
      'NewExpression',
      'ClassExpression',
      'CallExpression',
      'CallExpression',
      'CallExpression',
      'CallExpression',
      'CallExpression',
    ]);
  });

});
