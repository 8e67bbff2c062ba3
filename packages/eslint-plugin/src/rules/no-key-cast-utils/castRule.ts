import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { codeSpan } from '../../ast/index.js';
import { type BrandName, findBrandInTypeNode } from '../../brands/index.js';
import { isInSpecPackage } from '../../program/index.js';
import { createTwinRule } from '../utils/index.js';

// What `no-key-cast` and its type-aware twin `no-key-cast-type-checked` share: the messages, which
// casts are judged, what the syntactic rule reports (a cast whose target spells a brand), and the
// report. The twin adds only what types reveal (a brand behind an alias, a generic or `any`).

/** Creates `no-key-cast` and `no-key-cast-type-checked`, which take no options. */
export const createCastRule = createTwinRule<[]>({ type: 'problem', schema: [], defaultOptions: [] });

/** A type assertion: `x as T` or `<T>x`. */
export type Cast = TSESTree.TSAsExpression | TSESTree.TSTypeAssertion;

/** The messages every brand-cast report uses, so the syntactic and the type-aware rule say the same. */
export const FORGED_BRAND_MESSAGES = {
  forgedKey:
    'Cast to {{ target }} forges the `DeterministicKey` brand: a key made this way is not checked to be ' +
    'deterministic, so a loop retry or a resumed run can get a new key and repeat the effect. Build it with ' +
    'the `` key`...` `` template from durable parts (the run id, validated input fields, or values passed through ' +
    '`vouchDurable(...)`).',
  forgedDurable:
    'Cast to {{ target }} forges the `Durable` brand: a value made durable this way is not checked to ' +
    'survive a retry or a resume unchanged, so a key built from it can change between attempts. Take it from ' +
    'the run (`run.id`) or the validated input, or pass a value read back from durable storage through ' +
    '`vouchDurable(...)`.',
  forgedBrand:
    'Cast to {{ target }} forges the `{{ brand }}` brand of @retrysafe/spec, which only that package may ' +
    'construct. Use the function it exports to build the value.',
} as const;

/** A message id of {@link FORGED_BRAND_MESSAGES}. */
export type ForgedBrandMessageId = keyof typeof FORGED_BRAND_MESSAGES;

/** The message for a forged brand: the key and durable ones say how to build the value instead. */
export function getForgedBrandMessageId(brand: BrandName): Exclude<ForgedBrandMessageId, 'forgedBrand'>;
export function getForgedBrandMessageId(brand: string): ForgedBrandMessageId;
export function getForgedBrandMessageId(brand: string): ForgedBrandMessageId {
  if (brand === 'DeterministicKey') return 'forgedKey';
  if (brand === 'Durable') return 'forgedDurable';
  return 'forgedBrand';
}

/** The target of a type assertion as the report shows it: one line, at most 60 characters. */
export function getCastTargetText(sourceCode: Readonly<TSESLint.SourceCode>, typeNode: TSESTree.TypeNode): string {
  const text = sourceCode.getText(typeNode).replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 59).trimEnd()}…` : text;
}

/** `x as const` and `<const>x`: they narrow literals and never name a brand. */
export function isConstAssertion(node: TSESTree.TSAsExpression | TSESTree.TSTypeAssertion): boolean {
  const target = node.typeAnnotation;
  return (
    target.type === AST_NODE_TYPES.TSTypeReference &&
    target.typeName.type === AST_NODE_TYPES.Identifier &&
    target.typeName.name === 'const'
  );
}

/**
 * Whether the file's casts are judged at all: `@retrysafe/spec`'s own files construct its brands,
 * which is what the module-private symbols are for.
 */
export function judgesCastsIn(fileName: string): boolean {
  return !isInSpecPackage(fileName);
}

/** The brand a cast's target spells (what `no-key-cast` reports); never for `as const`. */
export function findSpelledBrand(sourceCode: Readonly<TSESLint.SourceCode>, node: Cast): BrandName | undefined {
  return isConstAssertion(node) ? undefined : findBrandInTypeNode(sourceCode, node.typeAnnotation);
}

type CastContext<MessageIds extends string> = Readonly<TSESLint.RuleContext<MessageIds, readonly unknown[]>>;

/** Reports a cast that forges `brand`: a brand of the spec by name, or any brand its symbols make. */
export function reportForgedCast(context: CastContext<Exclude<ForgedBrandMessageId, 'forgedBrand'>>, node: Cast, brand: BrandName): void;
export function reportForgedCast(context: CastContext<ForgedBrandMessageId>, node: Cast, brand: string): void;
export function reportForgedCast(context: CastContext<ForgedBrandMessageId>, node: Cast, brand: string): void {
  context.report({
    node,
    messageId: getForgedBrandMessageId(brand),
    data: { target: codeSpan(getCastTargetText(context.sourceCode, node.typeAnnotation)), brand },
  });
}
