// SQL read from its text, below keys/ and effects/, which both ask it: the statement classifier
// (statements: what a statement does when it runs twice) and the calls that run SQL text whatever
// their receiver (textCalls: `db.query('INSERT …')`, `sql\`…\``, and the text they hold). Built on
// ast/ only. Import it from here.
export { classifySql, type EffectKind, type SqlStatement } from './statements.js';
export * from './textCalls.js';
