import { describe, expect, it } from 'vitest';

import { codeSpan } from '../../src/ast/index.js';

// CommonMark's code spans (spec 6.1): the fence is a run of backticks that does not occur inside,
// and one space is stripped from each side when both are there, so a text that starts or ends
// with a backtick is padded to keep it apart from the fence.
describe('codeSpan', () => {
  it('fences plain text with one backtick', () => {
    expect(codeSpan('randomUUID()')).toBe('`randomUUID()`');
    expect(codeSpan("retry: 'safe'")).toBe("`retry: 'safe'`");
  });

  it('fences a tagged template one backtick longer, padded where the text ends with a backtick', () => {
    expect(codeSpan('key`refund`')).toBe('`` key`refund` ``');
    expect(codeSpan('`refund`')).toBe('`` `refund` ``');
    expect(codeSpan('`order-${id}`')).toBe('`` `order-${id}` ``');
  });

  it('fences with a run longer than the longest run inside, unpadded where the text does not touch the fence', () => {
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('a``b`c')).toBe('```a``b`c```');
    expect(codeSpan('``x``')).toBe('``` ``x`` ```');
  });

  it('pads a text that starts and ends with a space, so it keeps its spaces', () => {
    expect(codeSpan(' a ')).toBe('`  a  `');
    expect(codeSpan('   ')).toBe('`   `');
  });
});
