// Cheap tests of a file's whole text, asked before anything in the file is looked at: does it spell
// any of a set of words. Every rule of a file asks about the same text, so each test remembers its
// last answer.

/**
 * A test of whether a text contains any of `words` (exactly, as `String#includes` compares): the same
 * answer as `words.some((word) => text.includes(word))`, in one scan of the text instead of one per
 * absent word. A word that contains another word of the list is dropped (the shorter one is found
 * wherever the longer one is), and the rest are one alternation of literals: a regular expression
 * without flags matches exactly where one of its literal alternatives occurs. The answer for the
 * last text asked is kept (the rules of one file ask about the same text, one after another).
 */
export function createWordsTest(words: readonly string[]): (text: string) => boolean {
  const distinct = [...new Set(words)];
  if (distinct.length === 0) return () => false;
  // `''` is in every text: so is the test's answer.
  if (distinct.includes('')) return () => true;
  const kept = distinct.filter((word) => !distinct.some((other) => other !== word && word.includes(other)));
  const pattern = new RegExp(kept.map(escapeRegExp).join('|'));
  let lastText: string | undefined;
  let lastAnswer = false;
  return (text) => {
    if (text !== lastText) {
      lastAnswer = pattern.test(text);
      lastText = text;
    }
    return lastAnswer;
  };
}

function escapeRegExp(word: string): string {
  return word.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}
