import { ESLintUtils } from '@typescript-eslint/utils';

import { createEffectsAnalyser, type EffectsAnalyser } from '../effects/index.js';
import { createCrossFileEffects, displayFileName } from '../program/index.js';
import { createContradictionRule, findContradiction } from './no-contradicted-policy-utils/index.js';

export type { ContradictionId as MessageIds, ContradictionRuleOptionList as Options } from './no-contradicted-policy-utils/index.js';

// The twin follows a tool's handler into the other files of the program: an imported helper, a
// client another module constructs (`export const db = new Pool()`), re-exports. It reports only
// where `no-contradicted-policy` finds nothing in the linted file, so a tool is reported once with
// both rules on; the operation it names carries the other file and line. The checker is asked only
// for a tool that makes a claim, at an import its handler reaches.

export default createContradictionRule({
  name: 'no-contradicted-policy-type-checked',
  description: 'Disallow retry policies and MCP hints that the tool’s handler contradicts through code in other files',
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
      if (!local || findContradiction(sourceCode, tool, claims, local)) return undefined;
      typed ??= createEffectsAnalyser(sourceCode, { libraries, keyNames, crossFile: createCrossFileEffects({ sourceCode, fileName, services }) });
      const effects = typed.analyseHandler(tool.handler, tool.name);
      return effects && findContradiction(sourceCode, tool, claims, effects, (other) => displayFileName(other, fileName));
    };
  },
});
