import { isTestFileName } from '../collect/analysis.js';

// An answer that rests on what the scanned files do not contain ("no test calls it twice", "no
// runner call of this tool") is only as complete as the files read: one that did not parse may hold
// the test, the runner or the call. Such an answer says so, naming the files, instead of asserting
// that there are none.

/** The files of the run that could not be parsed (relative to the report's root). */
export interface UnreadContext {
  readonly unparsed: readonly string[];
}

const SHOWN = 3;

/** `2 files could not be parsed (a.ts, b.ts)`, or '' when every file was read. */
export function describeUnread({ unparsed }: UnreadContext): string {
  if (unparsed.length === 0) return '';
  const shown = unparsed.slice(0, SHOWN).join(', ');
  const more = unparsed.length > SHOWN ? `, and ${unparsed.length - SHOWN} more` : '';
  return `${unparsed.length} file${unparsed.length === 1 ? '' : 's'} could not be parsed (${shown}${more})`;
}

/** What an absence-based reason appends: `; but 1 file could not be parsed (…), so <what> there would not be seen: the answer may be incomplete`. */
export function unreadCaveat(context: UnreadContext, what: string): string {
  const unread = describeUnread(context);
  return unread ? `; but ${unread}, so ${what} there would not be seen: the answer may be incomplete` : '';
}

/** Whether a file that could not be parsed is named like a test (`*.test.ts`, `__tests__/`): it may hold the called-twice test. */
export function mayHoldTests({ unparsed }: UnreadContext): boolean {
  return unparsed.some((file) => isTestFileName(file));
}
