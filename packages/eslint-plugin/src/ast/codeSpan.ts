/**
 * `text` as a Markdown code span, by CommonMark's rule: fenced with a run of backticks one longer
 * than the longest run inside, and padded with a space on each side when the text starts or ends
 * with a backtick (or is all spaces), so that the fence and the text stay apart.
 *
 * `codeSpan('randomUUID()')` is `` `randomUUID()` ``; `codeSpan('key`refund`')` is
 * ``` `` key`refund` `` ```. Every message and audit answer that quotes text in backticks builds the
 * span here.
 *
 * @param text - The text to quote, one line.
 * @returns The code span.
 */
export function codeSpan(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space from each side when both are there and the text is not all
  // spaces, so a text that starts and ends with a space is padded too, to keep its own.
  const pad = text.startsWith('`') || text.endsWith('`') || (text.length > 1 && text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Words as a sentence lists them: `a`, `a and b`, `a, b and c` (with `conjunction` 'or': `a, b or c`).
 *
 * @param items - The words, already quoted as they should read.
 * @param conjunction - The word before the last item.
 */
export function listWords(items: readonly string[], conjunction: 'and' | 'or'): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}
