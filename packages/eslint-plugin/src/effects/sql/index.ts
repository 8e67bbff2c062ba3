// The SQL statement classifier: what a statement does when it runs twice, from its text.
export { classifySql, type SqlStatement } from './statements.js';
