// A small SQL tokenizer for the statement classifier (sql.ts). It reads the static parts of a
// statement written as a literal or a template, with a `hole` token where a `${}` expression goes,
// across the dialects tools use (PostgreSQL, MySQL, SQLite): comments are dropped, string literals
// (with '' escapes, E'..', and $tag$..$tag$) become one token, quoted identifiers ("a", `a`, [a])
// become identifiers. It never fails: text it cannot read becomes `other` tokens, and the classifier
// decides what that means.

/** One token of a statement. */
export interface SqlToken {
  readonly type: 'hole' | 'ident' | 'number' | 'op' | 'other' | 'param' | 'punct' | 'string' | 'word';
  /** As written (a string literal with its quotes; a hole as `${…}` or the hole's source text). */
  readonly text: string;
  /** For words: upper-cased, to compare with keywords. For identifiers: the name, unquoted. */
  readonly value: string;
}

/** The character that stands for a `${}` hole in the joined text (never in real SQL). */
const HOLE = '\u0000';
const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[\w$\u0080-\uffff]/;
const OPERATOR_CHARS = '+-*/<>=!|&%^~@#?:';

/**
 * Tokens of `parts` joined with a hole between each two (a template's quasis). `holeTexts[i]` is
 * shown for hole `i` in messages (default `${…}`). A hole inside a string literal stays part of it.
 */
export function tokenizeSql(parts: readonly string[], holeTexts: readonly string[] = []): SqlToken[] {
  const text = parts.join(HOLE);
  const tokens: SqlToken[] = [];
  let holeIndex = 0;
  let i = 0;
  const push = (type: SqlToken['type'], start: number, end: number, value?: string): void => {
    const raw = text.slice(start, end);
    tokens.push({ type, text: raw, value: value ?? raw });
    i = end;
  };
  while (i < text.length) {
    const char = text[i] as string;
    const next = text[i + 1];
    if (char === HOLE) {
      const shown = holeTexts[holeIndex] ?? '${…}';
      holeIndex++;
      tokens.push({ type: 'hole', text: shown, value: shown });
      i++;
    } else if (/\s/.test(char)) {
      i++;
    } else if (char === '-' && next === '-') {
      i = endOfLine(text, i);
    } else if (char === '#' && (tokens.length === 0 || /\s/.test(text[i - 1] ?? ' '))) {
      i = endOfLine(text, i); // MySQL comment; `#>` operators follow an operand without a space in practice
    } else if (char === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else if (char === "'" || ((char === 'E' || char === 'e') && next === "'")) {
      const start = i;
      const end = endOfQuoted(text, char === "'" ? i : i + 1, "'");
      holeIndex += countHoles(text, start, end);
      push('string', start, end);
    } else if (char === '"' || char === '`') {
      const end = endOfQuoted(text, i, char);
      holeIndex += countHoles(text, i, end);
      push('ident', i, end, text.slice(i + 1, end - 1));
    } else if (char === '[' && tokens.at(-1)?.type !== 'word' && tokens.at(-1)?.type !== 'ident') {
      const close = text.indexOf(']', i);
      const end = close === -1 ? text.length : close + 1;
      push('ident', i, end, text.slice(i + 1, end - 1)); // SQL Server; `arr[1]` subscripts follow a name
    } else if (char === '$' && next !== undefined && /\d/.test(next)) {
      push('param', i, endOfWhile(text, i + 1, /\d/));
    } else if (char === '$' && (next === '$' || (next !== undefined && WORD_START.test(next)))) {
      const dollar = readDollarQuoted(text, i);
      if (dollar === undefined) push('other', i, i + 1);
      else {
        holeIndex += countHoles(text, i, dollar);
        push('string', i, dollar);
      }
    } else if (char === ':' && next !== undefined && WORD_START.test(next) && text[i - 1] !== ':') {
      push('param', i, endOfWhile(text, i + 1, WORD_PART)); // :name
    } else if (char === '?' && !OPERATOR_CHARS.includes(next ?? '') && !OPERATOR_CHARS.includes(text[i - 1] ?? '')) {
      push('param', i, i + 1);
    } else if (/\d/.test(char) || (char === '.' && next !== undefined && /\d/.test(next))) {
      push('number', i, endOfWhile(text, i, /[\d.eE]/));
    } else if (WORD_START.test(char)) {
      const end = endOfWhile(text, i, WORD_PART);
      push('word', i, end, text.slice(i, end).toUpperCase());
    } else if ('(),;.'.includes(char)) {
      push('punct', i, i + 1);
    } else if (OPERATOR_CHARS.includes(char)) {
      push('op', i, endOfWhile(text, i, /[+\-*/<>=!|&%^~@#?:]/));
    } else {
      push('other', i, i + 1);
    }
  }
  return tokens;
}

function endOfLine(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end === -1 ? text.length : end;
}

function endOfWhile(text: string, from: number, pattern: RegExp): number {
  let end = from;
  while (end < text.length && pattern.test(text[end] as string)) end++;
  return end;
}

/** The end (after the closing quote) of a quoted run starting at `start`; doubled quotes escape. */
function endOfQuoted(text: string, start: number, quote: string): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\' && quote === "'") i++;
    else if (text[i] === quote) {
      if (text[i + 1] !== quote) return i + 1;
      i++;
    }
  }
  return text.length;
}

/** `$$…$$` or `$tag$…$tag$`; `undefined` when `$word` is not an opening tag (a `$name` parameter). */
function readDollarQuoted(text: string, start: number): number | undefined {
  const open = /^\$([A-Za-z_]\w*)?\$/.exec(text.slice(start, start + 64));
  if (!open) return undefined;
  const close = text.indexOf(open[0], start + open[0].length);
  return close === -1 ? text.length : close + open[0].length;
}

function countHoles(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) if (text[i] === HOLE) count++;
  return count;
}
