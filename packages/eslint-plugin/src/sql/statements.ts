import { sqlAssignments, type SqlAssignment } from './assignments.js';
import { type SqlToken, tokenizeSql } from './tokens.js';

// What a SQL statement does when it runs twice, read from its text: a literal, or a template's
// static parts with holes where the `${}` values go. A small tokenizer rather than a SQL parser:
// the holes make most real statements unparsable for a grammar (a hole may be a value, a column
// list or a whole clause), the classes need only the verb, the conflict clause and the shape of each
// assignment, the same reading serves PostgreSQL, MySQL and SQLite, and the lint budget (a few
// microseconds a statement) leaves no room for a parser of several megabytes on every query call.

/** What an operation does when it runs twice; each kind is described where effects/libraries/catalogue.ts re-exports it. */
export type EffectKind = 'absolute' | 'create' | 'read' | 'relative' | 'unknown' | 'write';

/** One statement, classified. */
export interface SqlStatement {
  readonly kind: EffectKind;
  /** `SELECT`, `INSERT`, `UPDATE`, `DELETE`, `MERGE`, `CREATE`, ... */
  readonly verb: string;
  /** The table it writes or reads first, when named plainly. */
  readonly table: string | undefined;
  /** The statement as far as it decides the kind, for messages: `UPDATE customers SET points = points + $1`. */
  readonly summary: string;
  /** For a relative statement, the column it changes and the operator (`+`, `-`, `array_append`, ...). */
  readonly change?: { readonly column: string; readonly operator: string };
  /**
   * An absolute statement whose SET also changes a column relatively, guarded by its WHERE (the row
   * no longer matches after the first run): the column it changes, for messages that would
   * otherwise call the whole statement absolute.
   */
  readonly guarded?: string;
}

/** Statements that change nothing a retry could repeat: transaction control, session settings. */
const NEUTRAL = new Set([
  'ANALYZE', 'BEGIN', 'CHECKPOINT', 'CLOSE', 'COMMIT', 'DEALLOCATE', 'DECLARE', 'DISCARD', 'END', 'FETCH', 'LISTEN', 'LOCK',
  'RELEASE', 'RESET', 'ROLLBACK', 'SAVEPOINT', 'SET', 'START', 'UNLISTEN', 'USE', 'VACUUM',
]);
const READS = new Set(['DESC', 'DESCRIBE', 'SHOW', 'TABLE', 'VALUES']);
const DEFINITIONS = new Set(['ALTER', 'CLUSTER', 'COMMENT', 'CREATE', 'DROP', 'GRANT', 'REFRESH', 'REINDEX', 'REVOKE', 'TRUNCATE']);
const RUNS_CODE = new Set(['CALL', 'DO', 'EXEC', 'EXECUTE']);

/**
 * The statements of `parts` (joined by holes), each with its kind; `[]` for SQL that changes nothing
 * (`BEGIN`); `undefined` when the text does not read as SQL at all, so it is no evidence.
 */
export function classifySql(parts: readonly string[], holeTexts: readonly string[] = []): SqlStatement[] | undefined {
  const statements: SqlStatement[] = [];
  let recognised = false;
  for (const tokens of splitStatements(tokenizeSql(parts, holeTexts))) {
    const classified = classifyStatement(tokens);
    if (classified === undefined) continue;
    recognised = true;
    statements.push(...classified);
  }
  return recognised ? statements : undefined;
}

/** Splits on top-level `;`, dropping empty statements. */
function splitStatements(tokens: readonly SqlToken[]): SqlToken[][] {
  const statements: SqlToken[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (token.text === '(') depth++;
    if (token.text === ')') depth = Math.max(0, depth - 1);
    if (token.text === ';' && depth === 0) statements.push([]);
    else statements.at(-1)?.push(token);
  }
  return statements.filter((statement) => statement.length > 0);
}

function classifyStatement(tokens: readonly SqlToken[]): SqlStatement[] | undefined {
  const [first] = tokens;
  if (first?.type !== 'word') return undefined;
  const verb = first.value;
  if (verb === 'WITH') return classifyWith(tokens);
  if (verb === 'EXPLAIN') return classifyExplain(tokens);
  if (NEUTRAL.has(verb)) return tokens.length === 1 || tokens[1]?.type === 'word' || tokens[1]?.type === 'op' ? [] : undefined;
  if (verb === 'SELECT') return looksLikeSelect(tokens) ? [statement('read', tokens, fromTable(tokens))] : undefined;
  if (READS.has(verb)) return [statement('read', tokens, undefined)];
  if (verb === 'PRAGMA') return [statement(tokens.some((token) => token.text === '=') ? 'absolute' : 'read', tokens, undefined)];
  if (verb === 'INSERT' || verb === 'REPLACE') return wrap(classifyInsert(tokens));
  if (verb === 'UPDATE') return wrap(classifyUpdate(tokens));
  if (verb === 'DELETE') return wrap(classifyDelete(tokens));
  if (verb === 'MERGE') return wrap(classifyMerge(tokens));
  if (verb === 'COPY') return [statement(indexOfWord(tokens, 'FROM') === -1 ? 'read' : 'create', tokens, nameAt(tokens, 1))];
  if (verb === 'NOTIFY') return [statement('create', tokens, undefined)];
  if (DEFINITIONS.has(verb)) return tokens.length > 1 ? [statement('absolute', tokens, undefined)] : undefined;
  if (RUNS_CODE.has(verb)) return tokens.length > 1 ? [statement('unknown', tokens, undefined)] : undefined;
  return undefined;
}

function wrap(statement: SqlStatement | undefined): SqlStatement[] | undefined {
  return statement && [statement];
}

/** `WITH a AS (…), b AS (…) <statement>`: the main statement, and every data-modifying CTE. */
function classifyWith(tokens: readonly SqlToken[]): SqlStatement[] | undefined {
  const found: SqlStatement[] = [];
  let i = 1;
  if (tokens[i]?.value === 'RECURSIVE') i++;
  for (;;) {
    const open = tokens.findIndex((token, index) => index >= i && token.text === '(' && tokens[index - 1]?.type === 'word');
    if (open === -1) return undefined;
    const close = matchingParen(tokens, open);
    const inner = classifyStatement(tokens.slice(open + 1, close));
    if (inner) found.push(...inner.filter((candidate) => candidate.kind !== 'read'));
    i = close + 1;
    if (tokens[i]?.text !== ',') break;
    i++;
  }
  const main = classifyStatement(tokens.slice(i));
  return main && [...found, ...main];
}

/** `EXPLAIN` plans without running, unless `ANALYZE` runs the statement. */
function classifyExplain(tokens: readonly SqlToken[]): SqlStatement[] | undefined {
  const analyze = tokens.slice(1, 4).some((token) => token.value === 'ANALYZE' || token.value === 'ANALYSE');
  if (!analyze) return [statement('read', tokens, undefined)];
  const start = tokens.findIndex((token, index) => index > 0 && ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'WITH', 'MERGE'].includes(token.value));
  return start === -1 ? undefined : classifyStatement(tokens.slice(start));
}

/** SELECT with a FROM, or a select list that is plainly SQL (`*`, a number, a call, a parameter). */
function looksLikeSelect(tokens: readonly SqlToken[]): boolean {
  if (indexOfWord(tokens, 'FROM') !== -1) return true;
  return tokens.slice(1).some((token) => ['number', 'param', 'hole', 'string'].includes(token.type) || ['*', '(', ','].includes(token.text));
}

function classifyInsert(tokens: readonly SqlToken[]): SqlStatement | undefined {
  const into = indexOfWord(tokens, 'INTO');
  const tableIndex = into !== -1 && into < 5 ? into + 1 : skipModifiers(tokens, 1);
  const table = nameAt(tokens, tableIndex);
  const after = tokens[tableIndex + 1];
  if (table === undefined && tokens[tableIndex]?.type !== 'hole') return undefined;
  if (after && !['(', ',', '.'].includes(after.text) && !['VALUES', 'SELECT', 'DEFAULT', 'SET', 'AS', 'WITH', 'OVERRIDING', 'VALUE'].includes(after.value) && after.type !== 'word' && after.type !== 'hole') {
    return undefined;
  }
  const replaces = tokens[0]?.value === 'REPLACE' || (tokens[1]?.value === 'OR' && ['REPLACE', 'IGNORE'].includes(tokens[2]?.value ?? ''));
  const ignores = tokens.slice(1, 4).some((token) => token.value === 'IGNORE');
  const conflict = indexOfSequence(tokens, ['ON', 'CONFLICT']);
  const duplicate = indexOfSequence(tokens, ['ON', 'DUPLICATE', 'KEY', 'UPDATE']);
  if (conflict !== -1) return classifyOnConflict(tokens, conflict, table);
  if (duplicate !== -1) {
    const assignments = sqlAssignments(tokens, duplicate + 4, table);
    const relative = assignments.find((assignment) => assignment.kind === 'relative');
    // The key it deduplicates on is whichever unique index the row hits: not named, so not known.
    return relative ? relativeStatement(tokens, table, relative) : statement('write', tokens, table, duplicate + 4);
  }
  if (replaces || ignores) return statement('write', tokens, table, tableIndex + 1);
  return statement('create', tokens, table, tableIndex + 1);
}

/** `ON CONFLICT [(target) | ON CONSTRAINT c] DO NOTHING | DO UPDATE SET …`. */
function classifyOnConflict(tokens: readonly SqlToken[], conflict: number, table: string | undefined): SqlStatement {
  const next = tokens[conflict + 2];
  const targeted = next?.text === '(' || next?.value === 'ON';
  const doIndex = indexOfWord(tokens, 'DO', conflict);
  const action = tokens[doIndex + 1]?.value;
  if (action !== 'UPDATE') return statement(targeted ? 'absolute' : 'write', tokens, table, doIndex + 2);
  const assignments = sqlAssignments(tokens, doIndex + 3, table);
  const relative = assignments.find((assignment) => assignment.kind === 'relative' && !assignment.guarded);
  if (relative) return relativeStatement(tokens, table, relative);
  const unclear = assignments.length === 0 || assignments.some((assignment) => assignment.kind === 'write');
  return withGuard(statement(targeted && !unclear ? 'absolute' : 'write', tokens, table, doIndex + 3), assignments);
}

function classifyUpdate(tokens: readonly SqlToken[]): SqlStatement | undefined {
  const set = indexOfWord(tokens, 'SET');
  if (set === -1 || set > 6) return undefined;
  const table = nameAt(tokens, skipModifiers(tokens, 1));
  const assignments = sqlAssignments(tokens, set + 1, table);
  const relative = assignments.find((assignment) => assignment.kind === 'relative' && !assignment.guarded);
  if (relative) return relativeStatement(tokens, table, relative);
  const unclear = assignments.length === 0 || assignments.some((assignment) => assignment.kind === 'write');
  const end = ['FROM', 'WHERE', 'RETURNING'].map((word) => indexOfWord(tokens, word, set)).filter((index) => index !== -1);
  return withGuard(statement(unclear ? 'write' : 'absolute', tokens, table, Math.min(tokens.length, ...end)), assignments);
}

function classifyDelete(tokens: readonly SqlToken[]): SqlStatement | undefined {
  const from = indexOfWord(tokens, 'FROM');
  if (from === -1 || from > 4) return undefined;
  return statement('absolute', tokens, nameAt(tokens, from + 1), from + 2);
}

/** `MERGE INTO t USING s ON … WHEN MATCHED THEN UPDATE SET …`: the ON clause is its conflict target. */
function classifyMerge(tokens: readonly SqlToken[]): SqlStatement | undefined {
  const into = indexOfWord(tokens, 'INTO');
  if (into !== 1) return undefined;
  const table = nameAt(tokens, 2);
  const set = indexOfWord(tokens, 'SET');
  const assignments = set === -1 ? [] : sqlAssignments(tokens, set + 1, table);
  const relative = assignments.find((assignment) => assignment.kind === 'relative' && !assignment.guarded);
  if (relative) return relativeStatement(tokens, table, relative);
  return withGuard(statement(assignments.some((assignment) => assignment.kind === 'write') ? 'write' : 'absolute', tokens, table, 3), assignments);
}

/** An absolute statement with the column of a relative assignment its WHERE guards, if it has one. */
function withGuard(found: SqlStatement, assignments: readonly SqlAssignment[]): SqlStatement {
  const guarded = found.kind === 'absolute' ? assignments.find((assignment) => assignment.kind === 'relative' && assignment.guarded) : undefined;
  return guarded ? { ...found, guarded: guarded.column } : found;
}

function relativeStatement(tokens: readonly SqlToken[], table: string | undefined, assignment: SqlAssignment): SqlStatement {
  const head = tokens[0]?.value === 'UPDATE' ? render(tokens.slice(0, indexOfWord(tokens, 'SET') + 1)) : render(tokens.slice(0, 3));
  const summary = tokens[0]?.value === 'UPDATE' ? `${head} ${render(assignment.tokens)}` : `${render(tokens.slice(0, 3))} … ${render(assignment.tokens)}`;
  return {
    kind: 'relative',
    verb: tokens[0]?.value ?? '',
    table,
    summary: shorten(summary),
    change: { column: assignment.column, operator: assignment.operator ?? '' },
  };
}

function statement(kind: EffectKind, tokens: readonly SqlToken[], table: string | undefined, summaryEnd = tokens.length): SqlStatement {
  const end = tokens[0]?.value === 'SELECT' ? tokens.length : summaryEnd;
  const shown = tokens[0]?.value === 'SELECT' && table !== undefined ? `SELECT … FROM ${table}` : render(tokens.slice(0, end));
  return { kind, verb: tokens[0]?.value ?? '', table, summary: shorten(shown) };
}

/** The table after FROM, when plainly named. */
function fromTable(tokens: readonly SqlToken[]): string | undefined {
  const from = indexOfWord(tokens, 'FROM');
  return from === -1 ? undefined : nameAt(tokens, from + 1);
}

/** `a`, `"a"`, `s.a`: the (last part of the) name at `index`. */
function nameAt(tokens: readonly SqlToken[], index: number): string | undefined {
  let i = index;
  let name: string | undefined;
  while (tokens[i]?.type === 'word' || tokens[i]?.type === 'ident') {
    name = tokens[i]?.type === 'ident' ? tokens[i]?.value : tokens[i]?.text;
    if (tokens[i + 1]?.text !== '.') break;
    i += 2;
  }
  return name;
}

/** Past `ONLY`, `LOW_PRIORITY`, `IGNORE`, `OR REPLACE`... between a verb and its table. */
function skipModifiers(tokens: readonly SqlToken[], from: number): number {
  let i = from;
  const modifiers = new Set(['ONLY', 'LOW_PRIORITY', 'DELAYED', 'HIGH_PRIORITY', 'IGNORE', 'INTO']);
  for (;;) {
    const value = tokens[i]?.value ?? '';
    if (modifiers.has(value)) i++;
    else if (value === 'OR') i += 2;
    else return i;
  }
}

export function indexOfWord(tokens: readonly SqlToken[], word: string, from = 0): number {
  let depth = 0;
  for (let i = from; i < tokens.length; i++) {
    const token = tokens[i] as SqlToken;
    if (token.text === '(') depth++;
    else if (token.text === ')') depth--;
    else if (depth === 0 && token.type === 'word' && token.value === word) return i;
  }
  return -1;
}

function indexOfSequence(tokens: readonly SqlToken[], words: readonly string[]): number {
  for (let i = indexOfWord(tokens, words[0] as string); i !== -1; i = indexOfWord(tokens, words[0] as string, i + 1)) {
    if (words.every((word, offset) => tokens[i + offset]?.value === word)) return i;
  }
  return -1;
}

export function matchingParen(tokens: readonly SqlToken[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (tokens[i]?.text === '(') depth++;
    else if (tokens[i]?.text === ')' && --depth === 0) return i;
  }
  return tokens.length;
}

/** Tokens back to text: one space between tokens, none inside `a.b`, `f(`, `(a`, `a)`, `a,`. */
export function render(tokens: readonly SqlToken[]): string {
  let text = '';
  for (const [index, token] of tokens.entries()) {
    const previous = tokens[index - 1];
    const tight = previous === undefined || previous.text === '.' || previous.text === '(' || ['.', ')', ','].includes(token.text) || (token.text === '(' && previous.type === 'word');
    text += tight ? token.text : ` ${token.text}`;
  }
  return text;
}

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
