import { ESLintUtils } from '@typescript-eslint/utils';

import { createEffectsAnalyser, type EffectsAnalyser } from '../effects/index.js';
import { createCrossFileEffects, createImportedObjectResolver, displayFileName } from '../program/index.js';
import { type Claim, type Claims, createContradictionRule, findContradiction } from './no-contradicted-policy-utils/index.js';

export type { ContradictionId as MessageIds, ContradictionRuleOptionList as Options } from './no-contradicted-policy-utils/index.js';

// The twin follows a tool's handler into the other files of the program: an imported helper, a
// client another module constructs (`export const db = new Pool()`), re-exports. It reports only
// where `no-contradicted-policy` finds nothing in the linted file, so a tool is reported once with
// both rules on; the operation it names carries the other file and line. The checker is asked only
// for a tool that makes a claim, at an import its handler reaches.

export default createContradictionRule({
  name: 'no-contradicted-policy-type-checked',
  description: 'Disallow retry policies and MCP hints that the tool’s handler contradicts through code in other files',
  // A policy or hints written through an imported `const` object is read where it is declared.
  resolveObjects: (context) => createImportedObjectResolver(context.sourceCode, context.filename, ESLintUtils.getParserServices(context)),
  create(context) {
    const services = ESLintUtils.getParserServices(context);
    const sourceCode = context.sourceCode;
    const fileName = context.filename;
    let syntactic: EffectsAnalyser | undefined;
    let typed: EffectsAnalyser | undefined;
    return ({ tool, claims, libraries, keyNames }) => {
      // What no-contradicted-policy reports, judged the same way: that report is its own.
      syntactic ??= createEffectsAnalyser(sourceCode, { libraries, keyNames });
      const local = syntactic.analyseHandler(tool.handler, tool.name);
      const label = (other: string): string => displayFileName(other, fileName);
      // A claim read from another file is this rule's alone: the syntactic rule cannot see it.
      const localClaims = localOnly(claims);
      if (!local || findContradiction(sourceCode, tool, localClaims, local)) return undefined;
      const fromLocalEffects = findContradiction(sourceCode, tool, claims, local, label);
      if (fromLocalEffects) return fromLocalEffects;
      typed ??= createEffectsAnalyser(sourceCode, { libraries, keyNames, crossFile: createCrossFileEffects({ sourceCode, fileName, services }) });
      const effects = typed.analyseHandler(tool.handler, tool.name);
      return effects && findContradiction(sourceCode, tool, claims, effects, label);
    };
  },
});

/** The claims the syntactic rule reads too: those written in the linted file. */
function localOnly(claims: Claims): Claims {
  const keep = (claim: Claim | undefined): Claim | undefined => (claim?.source.fileName === undefined ? claim : undefined);
  return { readOnly: keep(claims.readOnly), naturallyIdempotent: keep(claims.naturallyIdempotent), withKey: keep(claims.withKey) };
}
