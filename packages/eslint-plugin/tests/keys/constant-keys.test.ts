// What keys/findConstantKey calls a constant key (require-key-passthrough's `constantKey`, the
// audit's question 2): only what the file shows is one string for every call.
import { describe, expect, it } from 'vitest';

import { createKeyNameMatcher, findConstantKey, getKeyPositions } from '../../src/keys/index.js';
import { walk } from '../../src/ast/index.js';
import { analyse } from '../support/analyse.js';

/** The constant the file's one `idempotencyKey` position is, as `{ value, name, line }`, or `undefined`. */
function constantOf(code: string): { value: string; name: string | undefined; line: number } | undefined {
  return analyse(code, (sourceCode) => {
    const context = { sourceCode, matchKeyName: createKeyNameMatcher() };
    const positions: ReturnType<typeof getKeyPositions> = [];
    walk(sourceCode.ast, sourceCode, (node) => {
      positions.push(...getKeyPositions(node, context));
      return true;
    });
    const [position] = positions;
    if (!position) throw new Error('no key position in the case');
    const found = findConstantKey(position.value, sourceCode);
    return found && { value: found.value, name: found.name?.name, line: found.literal.loc.start.line };
  });
}

describe('findConstantKey', () => {
  it.each([
    ['a string literal', "send({ idempotencyKey: 'refund' });", { value: 'refund', name: undefined, line: 1 }],
    ['a template without expressions', 'send({ idempotencyKey: `refund` });', { value: 'refund', name: undefined, line: 1 }],
    ['a const, through another const and `as const`', "const KEY = 'refund-key' as const;\nconst ALIAS = KEY;\nsend({ idempotencyKey: ALIAS });", { value: 'refund-key', name: 'ALIAS', line: 1 }],
    ['a let never written again', "let k = 'x';\nsend({ idempotencyKey: k });", { value: 'x', name: 'k', line: 1 }],
    ["the spec's key template with no substitution", "import { key } from '@retrysafe/spec';\nsend({ idempotencyKey: key`refund` });", { value: 'refund', name: undefined, line: 2 }],
  ])('%s is a constant', (_, code, expected) => {
    expect(constantOf(code)).toEqual(expected);
  });

  it.each([
    ['a business id', 'declare const input: { orderId: string };\nsend({ idempotencyKey: input.orderId });'],
    ['a template with an expression', 'declare const orderId: string;\nsend({ idempotencyKey: `refund:${orderId}` });'],
    ['a concatenation of constants', "send({ idempotencyKey: 'refund' + '-key' });"],
    ['a number', 'send({ idempotencyKey: 42 });'],
    ['a let written again', "let k = 'x';\nk = next();\nsend({ idempotencyKey: k });"],
    ['a member of a const object', "const KEYS = { refund: 'refund' };\nsend({ idempotencyKey: KEYS.refund });"],
    ['an import', "import { KEY } from './keys';\nsend({ idempotencyKey: KEY });"],
    ['a fallback (no-random-key reports that)', "declare const k: string | undefined;\nsend({ idempotencyKey: k ?? '' });"],
    ["the spec's key template with a substitution", "import { key } from '@retrysafe/spec';\ndeclare const orderId: string;\nsend({ idempotencyKey: key`refund:${orderId}` });"],
    ['another tag with no substitution', 'declare function sql(s: TemplateStringsArray): string;\nsend({ idempotencyKey: sql`refund` });'],
    ['a destructured default', "function refund({ key = 'x' }: { key?: string }) { return send({ idempotencyKey: key }); }"],
  ])('%s is not', (_, code) => {
    expect(constantOf(code)).toBeUndefined();
  });
});
