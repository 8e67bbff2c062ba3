import type { SqlToken } from './tokens.js';

// The `SET a = …, b = …` list of an UPDATE, an upsert's DO UPDATE / ON DUPLICATE KEY UPDATE, or a
// MERGE, each assignment judged absolute (`col = $1`), relative (`col = col + $1`) or unclear, and
// whether the statement's WHERE clause makes a relative one safe to repeat: a second run matches no
// row when the WHERE tests the changed column by equality (`version = $3`) or tests a column the
// same SET moves to another value (`SET status = 'done' … WHERE status = 'pending'`).

/** One assignment of a SET list. */
export interface SqlAssignment {
  /** The assigned column (without table qualifier); `''` when it is a hole. */
  readonly column: string;
  /** `points = points + $1` */
  readonly tokens: readonly SqlToken[];
  readonly kind: 'absolute' | 'relative' | 'write';
  /** For a relative one: `+`, `-`, `*`, `/`, or the accumulating function (`array_append`). */
  readonly operator?: string;
  /** The WHERE clause stops a second run from matching the row again. */
  readonly guarded: boolean;
}

/** Keywords that end a SET list. */
const END_OF_SET = new Set(['FROM', 'WHERE', 'RETURNING', 'ORDER', 'LIMIT', 'WHEN', 'ON', 'OUTPUT']);
const ARITHMETIC = new Set(['+', '-', '*', '/', '%']);
/** Functions that build the new value by adding to the old one. */
const ACCUMULATING = new Set(['ARRAY_APPEND', 'ARRAY_PREPEND', 'ARRAY_CAT', 'CONCAT', 'CONCAT_WS', 'JSON_ARRAY_APPEND', 'JSONB_INSERT']);
/** Functions of the old value that a repeat leaves unchanged. */
const IDEMPOTENT_OF_SELF = new Set(['GREATEST', 'LEAST', 'COALESCE', 'IFNULL', 'NULLIF', 'ARRAY_REMOVE']);
/** Qualifiers under which a column names the incoming row, not the current one. */
const NEW_ROW = new Set(['EXCLUDED', 'NEW', 'VALUES', 'SOURCE', 'S']);

/** The assignments from `start` to the end of the SET list, judged against the WHERE that follows. */
export function sqlAssignments(tokens: readonly SqlToken[], start: number, table: string | undefined): SqlAssignment[] {
  const pieces: SqlToken[][] = [[]];
  let depth = 0;
  let end = tokens.length;
  for (let i = start; i < tokens.length; i++) {
    const token = tokens[i] as SqlToken;
    if (depth === 0 && token.type === 'word' && END_OF_SET.has(token.value)) {
      end = i;
      break;
    }
    if (token.text === '(') depth++;
    if (token.text === ')') depth--;
    if (depth === 0 && token.text === ',') pieces.push([]);
    else pieces.at(-1)?.push(token);
  }
  const where = tokens[end]?.value === 'WHERE' ? tokens.slice(end + 1) : [];
  const judged = pieces.filter((piece) => piece.length > 0).map((piece) => judge(piece, table));
  return judged.map((assignment) => ({ ...assignment, guarded: assignment.kind === 'relative' && isGuarded(assignment, judged, where) }));
}

type Judged = Omit<SqlAssignment, 'guarded'>;

function judge(tokens: readonly SqlToken[], table: string | undefined): Judged {
  const equals = tokens.findIndex((token) => token.text === '=');
  const target = tokens.slice(0, equals);
  const last = target.at(-1);
  if (equals === -1 || (last?.type !== 'word' && last?.type !== 'ident') || target.some((token) => token.text === '(')) {
    return { column: '', tokens, kind: 'write' }; // `${fields}`, `(a, b) = (…)`
  }
  const column = last.value.toLowerCase();
  const value = tokens.slice(equals + 1);
  const selfAt = value.map((_, index) => index).filter((index) => isSelfReference(value, index, column, table));
  if (selfAt.length === 0) return { column, tokens, kind: 'absolute' };
  const accumulating = value.find((token, index) => token.type === 'word' && ACCUMULATING.has(token.value) && value[index + 1]?.text === '(');
  if (accumulating) return { column, tokens, kind: 'relative', operator: accumulating.text.toLowerCase() };
  const arithmetic = value.find((token, index) => token.type === 'op' && ARITHMETIC.has(token.text) && index > 0 && !isInsideIdempotentCall(value, index));
  if (arithmetic) return { column, tokens, kind: 'relative', operator: arithmetic.text };
  const onlyIdempotentCalls = selfAt.every((index) => isInsideIdempotentCall(value, index));
  return { column, tokens, kind: onlyIdempotentCalls ? 'absolute' : 'write' };
}

/** Whether `value[index]` names the assigned column of the current row (`points`, `t.points`, not `EXCLUDED.points`). */
function isSelfReference(value: readonly SqlToken[], index: number, column: string, table: string | undefined): boolean {
  const token = value[index] as SqlToken;
  if ((token.type !== 'word' && token.type !== 'ident') || token.value.toLowerCase() !== column) return false;
  if (value[index + 1]?.text === '(') return false; // a function of that name
  if (value[index - 1]?.text !== '.') {
    // MySQL's VALUES(col) is the incoming value.
    return !(value[index - 1]?.text === '(' && value[index - 2]?.value === 'VALUES');
  }
  const qualifier = value[index - 2]?.value.toUpperCase() ?? '';
  return !NEW_ROW.has(qualifier) || qualifier === table?.toUpperCase();
}

/** Whether the token at `index` sits inside GREATEST(…), COALESCE(…) and the like, with no arithmetic around it in there. */
function isInsideIdempotentCall(value: readonly SqlToken[], index: number): boolean {
  let depth = 0;
  for (let i = index - 1; i >= 0; i--) {
    const token = value[i] as SqlToken;
    if (token.text === ')') depth++;
    else if (token.text === '(') {
      if (depth === 0) return value[i - 1]?.type === 'word' && IDEMPOTENT_OF_SELF.has(value[i - 1]?.value ?? '');
      depth--;
    }
  }
  return false;
}

/**
 * A relative assignment is guarded when the WHERE tests its own column by equality (optimistic
 * locking), or tests a column the same SET moves away from the tested value: the row no longer
 * matches after the first run.
 */
function isGuarded(assignment: Judged, all: readonly Judged[], where: readonly SqlToken[]): boolean {
  if (where.length === 0) return false;
  const tests = equalityTests(where);
  if (tests.some((test) => test.column === assignment.column && test.operator === '=')) return true;
  return all.some((other) => {
    if (other.kind !== 'absolute' || other.column === assignment.column) return false;
    const assigned = assignedLiteral(other);
    if (assigned === undefined) return false;
    return tests.some((test) => test.column === other.column && test.value !== undefined && test.value !== assigned);
  });
}

interface EqualityTest {
  readonly column: string;
  readonly operator: '=' | 'IS';
  /** The literal compared with, upper-cased (`'PENDING'`, `NULL`, `FALSE`); `undefined` for a parameter. */
  readonly value: string | undefined;
}

/** `col = 'x'`, `col = $1`, `col IS NULL`, `NOT col` (as `col = FALSE`) in a WHERE clause. */
function equalityTests(where: readonly SqlToken[]): EqualityTest[] {
  const tests: EqualityTest[] = [];
  for (const [index, token] of where.entries()) {
    if (token.type !== 'word' && token.type !== 'ident') continue;
    const column = token.value.toLowerCase();
    const next = where[index + 1];
    const value = where[index + 2];
    if (next?.text === '=') tests.push({ column, operator: '=', value: literalValue(value) });
    else if (next?.value === 'IS' && value?.value === 'NULL') tests.push({ column, operator: 'IS', value: 'NULL' });
    else if (next?.value === 'IS' && value?.value === 'FALSE') tests.push({ column, operator: 'IS', value: 'FALSE' });
    else if (where[index - 1]?.value === 'NOT' && next?.text !== '(') tests.push({ column, operator: 'IS', value: 'FALSE' });
  }
  return tests;
}

function assignedLiteral(assignment: Judged): string | undefined {
  const equals = assignment.tokens.findIndex((token) => token.text === '=');
  const value = assignment.tokens.slice(equals + 1);
  if (value.length === 1) return literalValue(value[0]);
  // `now()`, `CURRENT_TIMESTAMP`: a value that is never NULL, whatever it is.
  return value[0]?.type === 'word' ? 'NOT NULL' : undefined;
}

function literalValue(token: SqlToken | undefined): string | undefined {
  if (!token) return undefined;
  if (token.type === 'string' || token.type === 'number') return token.text.toUpperCase();
  if (token.type === 'word' && ['NULL', 'TRUE', 'FALSE'].includes(token.value)) return token.value;
  if (token.type === 'word' && token.value === 'CURRENT_TIMESTAMP') return 'NOT NULL';
  return undefined;
}
