import { createRequire } from 'node:module';
import type TypeScript from 'typescript';

/**
 * TypeScript's values (`isIdentifier`, `TypeFlags` ...) for the type-aware rules, loaded with
 * `require`. TypeScript is one 9 MB CommonJS file: an ES `import` of it makes Node scan all of it
 * for export names (and try it as an ES module) when the plugin loads, about 0.35 s on every ESLint
 * start even for configs without type information (docs/performance.md), while `require` hands back
 * the copy the parser has already loaded. Types still come from `import type ts from 'typescript'`.
 */
export const typescript: typeof TypeScript = createRequire(import.meta.url)('typescript') as typeof TypeScript;
