import * as parser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import type { FunctionNode } from '../../src/ast/index.js';
import { createEffectsAnalyser, type CrossFileResolver, type FoundEffect } from '../../src/effects/index.js';

// The effects analysis across a file boundary, on its own: the resolver here stands in for the type
// checker's (program/crossFileEffects, exercised by no-contradicted-policy-type-checked's tests) and
// resolves a named import of './other.js' to the export of that name in a second parsed module.
// Each row's handler is the function `handler` of the first module.

type SourceCode = Readonly<TSESLint.SourceCode>;

function parse(code: string, onProgram: (sourceCode: SourceCode) => void): void {
  const rule: TSESLint.RuleModule<string> = {
    defaultOptions: [],
    meta: { type: 'problem', schema: [], messages: {} },
    create: (context) => ({ 'Program:exit': () => onProgram(context.sourceCode) }),
  };
  const config = {
    languageOptions: { parser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } },
    plugins: { test: { rules: { parse: rule } } },
    rules: { 'test/parse': 'error' },
  } as unknown as Linter.Config;
  const fatal = new Linter({ configType: 'flat' }).verify(code, config).find((message) => message.fatal);
  if (fatal) throw new Error(fatal.message);
}

/** The resolver: a named import of './other.js' is the declaration of that name exported by `other`. */
function resolverFor(other: SourceCode): CrossFileResolver {
  const exported = (name: string): TSESTree.Node | undefined => {
    for (const statement of other.ast.body) {
      const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : undefined;
      if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration && declaration.id?.name === name) return declaration;
      if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration) continue;
      const declarator = declaration.declarations.find((candidate) => candidate.id.type === AST_NODE_TYPES.Identifier && candidate.id.name === name);
      if (declarator) return declarator;
    }
    return undefined;
  };
  const importedName = (sourceCode: SourceCode, identifier: TSESTree.Node): string | undefined => {
    if (identifier.type !== AST_NODE_TYPES.Identifier) return undefined;
    const def = ASTUtils.findVariable(sourceCode.getScope(identifier), identifier)?.defs[0];
    const specifier = def?.type === 'ImportBinding' ? def.node : undefined;
    const fromOther = specifier?.parent.type === AST_NODE_TYPES.ImportDeclaration && specifier.parent.source.value === './other.js';
    return fromOther && specifier.type === AST_NODE_TYPES.ImportSpecifier && specifier.imported.type === AST_NODE_TYPES.Identifier ? specifier.imported.name : undefined;
  };
  return {
    functionOf(sourceCode, call) {
      const name = sourceCode === other ? undefined : importedName(sourceCode, call.callee);
      const found = name === undefined ? undefined : exported(name);
      const fn = found?.type === AST_NODE_TYPES.FunctionDeclaration ? found : found?.type === AST_NODE_TYPES.VariableDeclarator ? found.init : undefined;
      return fn && (fn.type === AST_NODE_TYPES.FunctionDeclaration || fn.type === AST_NODE_TYPES.ArrowFunctionExpression)
        ? { sourceCode: other, fileName: '/app/other.ts', node: fn as FunctionNode }
        : undefined;
    },
    valueOf(sourceCode, identifier) {
      const name = sourceCode === other ? undefined : importedName(sourceCode, identifier);
      const found = name === undefined ? undefined : exported(name);
      return found?.type === AST_NODE_TYPES.VariableDeclarator && found.id.type === AST_NODE_TYPES.Identifier
        ? { sourceCode: other, fileName: '/app/other.ts', node: found.id }
        : undefined;
    },
  };
}

/** `kind library text [key] @file:line` for each effect `handler` reaches, with or without the resolver. */
function listed(code: string, other: string, withResolver = true): { effects: string[]; complete: boolean } {
  let answer: { effects: string[]; complete: boolean } | undefined;
  parse(other, (otherSourceCode) => {
    parse(code, (sourceCode) => {
      const handler = sourceCode.ast.body
        .map((statement) => (statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement))
        .find((statement): statement is TSESTree.FunctionDeclaration => statement?.type === AST_NODE_TYPES.FunctionDeclaration && statement.id?.name === 'handler');
      if (!handler) throw new Error('no function handler');
      const analyser = createEffectsAnalyser(sourceCode, withResolver ? { crossFile: resolverFor(otherSourceCode) } : {});
      const effects = analyser.analyseHandler(handler);
      answer = { effects: (effects?.effects ?? []).map(describeEffect), complete: effects?.complete ?? false };
    });
  });
  if (!answer) throw new Error('not analysed');
  return answer;
}

const describeEffect = (effect: FoundEffect): string =>
  `${[effect.kind, effect.library, effect.text, effect.keyPassed ?? ''].filter(Boolean).join(' ')} @${effect.fileName === undefined ? 'here' : 'other'}:${effect.line}`;

const OTHER = `import { Pool } from 'pg';
import Stripe from 'stripe';
export const db = new Pool();
export const stripe = new Stripe('sk');
export const config = { retries: 3 };
export async function addPoints(id, n) {
  await db.query('UPDATE customers SET points = points + $1 WHERE id = $2', [n, id]);
}
export async function changePoints(action, id, n) {
  if (action === 'set') return db.query('UPDATE customers SET points = $1 WHERE id = $2', [n, id]);
  return db.query('UPDATE customers SET points = points + $1 WHERE id = $2', [n, id]);
}
export const refund = async (id, key) => stripe.refunds.create({ payment_intent: id }, { idempotencyKey: key });
`;

interface Row {
  readonly name: string;
  readonly code: string;
  readonly effects: readonly string[];
  /** The same row without a resolver (the syntactic analysis). */
  readonly without: readonly string[];
}

const rows: Row[] = [
  {
    name: 'an imported helper: its effect, in the other file at its line',
    code: "import { addPoints } from './other.js';\nexport async function handler(id) { await addPoints(id, 5); }",
    effects: ['relative pg UPDATE customers SET points = points + $1 @other:7'],
    without: [],
  },
  {
    name: 'a client another module constructs: the call here, judged as that client’s',
    code: "import { stripe } from './other.js';\nexport async function handler(id) { await stripe.paymentIntents.create({ amount: 1, currency: 'usd' }); }",
    effects: ['create Stripe stripe.paymentIntents.create no @here:2'],
    without: [],
  },
  {
    name: 'a keyed create in an imported arrow function',
    code: "import { refund } from './other.js';\nexport async function handler(id) { await refund(id, `refund:${id}`); }",
    effects: ['create Stripe stripe.refunds.create yes @other:13'],
    without: [],
  },
  {
    name: 'a shared helper: a static string argument decides its branch over there',
    code: "import { changePoints } from './other.js';\nexport async function handler(id) { await changePoints('set', id, 1); }",
    effects: ['absolute pg UPDATE customers SET points = $1 @other:10'],
    without: [],
  },
  {
    name: 'a shared helper given a value not known here: both branches',
    code: "import { changePoints } from './other.js';\nexport async function handler(action, id) { await changePoints(action, id, 1); }",
    effects: ['absolute pg UPDATE customers SET points = $1 @other:10', 'relative pg UPDATE customers SET points = points + $1 @other:11'],
    without: [],
  },
  {
    name: 'an imported value that is no client: unknown',
    code: "import { config } from './other.js';\nexport async function handler(id) { await config.retries.create(id); }",
    effects: [],
    without: [],
  },
  {
    name: 'an import the resolver cannot resolve: unknown',
    code: "import { addPoints } from './elsewhere.js';\nexport async function handler(id) { await addPoints(id, 5); }",
    effects: [],
    without: [],
  },
];

describe('the effects analysis across files (a resolver standing in for the checker)', () => {
  it.each(rows)('$name', ({ code, effects, without }) => {
    expect(listed(code, OTHER).effects).toEqual(effects);
    expect(listed(code, OTHER, false).effects).toEqual(without);
  });

  it('an unresolved import leaves the handler incomplete (nothing can be said to be only reads)', () => {
    expect(listed("import { addPoints } from './elsewhere.js';\nexport async function handler(id) { await addPoints(id, 5); }", OTHER).complete).toBe(false);
  });
});
