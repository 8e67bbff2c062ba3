import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ESLintUtils } from '@typescript-eslint/utils';

import { findForgedBrand, isEscapeHatchType, programHasSpec } from '../program/index.js';
import {
  type Cast,
  createCastRule,
  findSpelledBrand,
  FORGED_BRAND_MESSAGES,
  type ForgedBrandMessageId,
  isConstAssertion,
  judgesCastsIn,
  reportForgedCast,
} from './no-key-cast-utils/index.js';

export type Options = [];
export type MessageIds = ForgedBrandMessageId;

export default createCastRule<MessageIds>({
  name: 'no-key-cast-type-checked',
  description:
    'Disallow type assertions that forge a `DeterministicKey` or `Durable` brand hidden behind an alias, a generic or `any`',
  messages: FORGED_BRAND_MESSAGES,
  create(context) {
    if (!judgesCastsIn(context.filename)) return {};
    const services = ESLintUtils.getParserServices(context);
    // A brand is keyed by a symbol @retrysafe/spec declares: in a program without the package's
    // files no type carries one, and no cast is worth asking the checker about (docs/performance.md).
    if (!programHasSpec(services.program)) return {};
    const checker = services.program.getTypeChecker();
    const search = { checker, program: services.program };

    /** The brand a cast forges by its own target type, or by `any`/`never` where a brand is expected. */
    function getForgedBrand(node: Cast): string | undefined {
      const target = services.getTypeAtLocation(node);
      const source = services.getTypeAtLocation(node.expression);
      if (!isEscapeHatchType(target)) return findForgedBrand(search, target, source);
      // In `x as any as T` the outer cast is the one judged.
      if (isCastOrSatisfies(node.parent)) return undefined;
      const expected = checker.getContextualType(services.esTreeNodeToTSNodeMap.get(node));
      return expected && findForgedBrand(search, expected, source);
    }

    function check(node: Cast): void {
      // `no-key-cast` (in every config this rule is in) reports the casts whose target spells a
      // brand; this rule adds those that only type information reveals, so no cast is reported twice.
      if (isConstAssertion(node) || findSpelledBrand(context.sourceCode, node)) return;
      const brand = getForgedBrand(node);
      if (brand !== undefined) reportForgedCast(context, node, brand);
    }

    return {
      TSAsExpression: check,
      TSTypeAssertion: check,
    };
  },
});

function isCastOrSatisfies(node: TSESTree.Node | undefined): boolean {
  return (
    node?.type === AST_NODE_TYPES.TSAsExpression ||
    node?.type === AST_NODE_TYPES.TSTypeAssertion ||
    node?.type === AST_NODE_TYPES.TSSatisfiesExpression
  );
}
