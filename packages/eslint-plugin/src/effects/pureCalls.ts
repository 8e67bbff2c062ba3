import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { getStaticPropertyName, GLOBAL_SOURCE, resolveReference } from '../ast/index.js';
import { getCallSource } from '../keys/index.js';

// Calls that touch nothing outside the process, so that a handler made of reads and these can be
// said to only read: the language's own built-ins, and methods that every value of a kind has
// (strings, arrays, promises, response bodies, schemas), and the calls that make a random id or read
// the clock. A method is taken as pure only when the analysis found no catalogued client behind its
// receiver, which it tries first.

type SourceCode = Readonly<TSESLint.SourceCode>;
type Invocation = TSESTree.CallExpression | TSESTree.NewExpression | TSESTree.TaggedTemplateExpression;

const PURE_GLOBALS = new Set([
  'Array', 'BigInt', 'Boolean', 'Buffer', 'Date', 'Error', 'JSON', 'Map', 'Math', 'Number', 'Object', 'Promise', 'RangeError', 'RegExp',
  'Set', 'String', 'Symbol', 'TypeError', 'URL', 'URLSearchParams', 'WeakMap', 'WeakSet', 'console', 'decodeURI', 'decodeURIComponent',
  'encodeURI', 'encodeURIComponent', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'setTimeout', 'clearTimeout', 'structuredClone',
  'TextDecoder', 'TextEncoder', 'AbortController', 'AbortSignal', 'Headers', 'Request', 'Response', 'FormData', 'Blob', 'Intl', 'queueMicrotask',
]);

const PURE_METHODS = new Set([
  // strings and arrays
  'at', 'charAt', 'concat', 'endsWith', 'entries', 'every', 'filter', 'find', 'findIndex', 'findLast', 'flat', 'flatMap', 'forEach',
  'includes', 'indexOf', 'join', 'keys', 'lastIndexOf', 'localeCompare', 'map', 'match', 'matchAll', 'normalize', 'padEnd', 'padStart',
  'reduce', 'repeat', 'replace', 'replaceAll', 'slice', 'some', 'split', 'startsWith', 'substring', 'toFixed', 'toISOString',
  'toJSON', 'toLocaleString', 'toLowerCase', 'toString', 'toUpperCase', 'trim', 'trimEnd', 'trimStart', 'values', 'toSorted', 'toReversed',
  // promises, response bodies, schemas
  'then', 'catch', 'finally', 'json', 'text', 'arrayBuffer', 'parse', 'safeParse', 'parseAsync', 'safeParseAsync', 'describe', 'optional',
]);

/** Whether `node` is a call of a built-in or a value method that has no effect outside the process. */
export function isPureCall(sourceCode: SourceCode, node: Invocation): boolean {
  if (node.type === AST_NODE_TYPES.TaggedTemplateExpression) return false;
  const callee = node.callee;
  // A random id or the current time (`randomUUID()` from node:crypto, `nanoid()`, `dayjs()`): the
  // key analysis's table of such calls, which make a value and reach nothing outside the process.
  if (node.type === AST_NODE_TYPES.CallExpression && getCallSource(node, { sourceCode, allowedSources: [] })) return true;
  const reference = resolveReference(sourceCode, callee);
  if (reference?.source === GLOBAL_SOURCE) return PURE_GLOBALS.has(reference.path[0] ?? '');
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const name = getStaticPropertyName(callee);
  return name !== undefined && PURE_METHODS.has(name);
}
