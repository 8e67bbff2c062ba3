import { describe, expect, it } from 'vitest';

import { createWordsTest } from '../../src/ast/index.js';
import { createKeyTextTest } from '../../src/keys/index.js';

// createWordsTest replaces `words.some((word) => text.includes(word))` in the file gates: the same
// answer for every text, in one scan. These cases pin the equivalence where a regular expression
// could differ: metacharacters, words that contain others, the empty word, and the per-text cache.

const WORDS = ['?? randomUUID', '|| uuid', 'a.b', 'x(y)', '[z]', 'dedup', 'dedupKey', '\\n', 'c+', '^d$', '{e}', 'f/g'];
const TEXTS = [
  '',
  'const k = id ?? randomUUID()',
  'const k = id || uuid()',
  'const k = id ||uuid()',
  'aXb',
  'a.b',
  'xy',
  'x(y)',
  'z',
  '[z]',
  'dedupkey',
  'dedupKey',
  'dedu',
  'line\\n',
  'line\n',
  'cc',
  'c+',
  'd',
  '^d$',
  'e',
  '{e}',
  'f/g',
  'fg',
];

describe('createWordsTest', () => {
  it('answers as String#includes does for each word', () => {
    for (const words of [WORDS, WORDS.slice(0, 3), ['dedupKey'], ['dedupKey', 'dedup'], ['x(y)', '[z]']]) {
      const test = createWordsTest(words);
      for (const text of TEXTS) expect(test(text), `${JSON.stringify(words)} in ${JSON.stringify(text)}`).toBe(words.some((word) => text.includes(word)));
    }
  });

  it('keeps the answer per text, not across texts', () => {
    const test = createWordsTest(['dedup']);
    expect(test('a dedup b')).toBe(true);
    expect(test('a dedup b')).toBe(true);
    expect(test('nothing')).toBe(false);
    expect(test('a dedup b')).toBe(true);
  });

  it('finds nothing with no words, and everything with the empty word', () => {
    expect(createWordsTest([])('dedup')).toBe(false);
    expect(createWordsTest(['', 'x'])('')).toBe(true);
  });
});

describe('createKeyTextTest', () => {
  it('finds key names in any letter case, and the extra words', () => {
    const test = createKeyTextTest(['X-My-Key'], ['vouchDurable']);
    expect(test("headers['IDEMPOTENCY-KEY'] = k")).toBe(true);
    expect(test('const x = id ?? randomUUID()')).toBe(true);
    expect(test('const x = id ?? RANDOMUUID()')).toBe(true);
    expect(test('h.set("x-my-key", k)')).toBe(true);
    expect(test('vouchdurable(x)')).toBe(true);
    expect(test('const requestId = randomUUID()')).toBe(false);
  });
});
