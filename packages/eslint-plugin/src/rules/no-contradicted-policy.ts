import { createEffectsAnalyser } from '../effects/index.js';
import { createContradictionRule, findContradiction } from './no-contradicted-policy-utils/index.js';

export type { ContradictionId as MessageIds, ContradictionRuleOptionList as Options } from './no-contradicted-policy-utils/index.js';

export default createContradictionRule({
  name: 'no-contradicted-policy',
  description: 'Disallow retry policies and MCP hints that the tool’s own handler contradicts',
  create(context) {
    const sourceCode = context.sourceCode;
    let analyser: ReturnType<typeof createEffectsAnalyser> | undefined;
    return ({ tool, claims, libraries, keyNames }) => {
      analyser ??= createEffectsAnalyser(sourceCode, { libraries, keyNames });
      const effects = analyser.analyseHandler(tool.handler, tool.name);
      return effects && findContradiction(sourceCode, tool, claims, effects);
    };
  },
});
