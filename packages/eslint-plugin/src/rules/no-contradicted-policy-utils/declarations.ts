import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { POLICY_FIELDS, type PolicyField } from '../../tools/index.js';
import { codeSpan, type FoundProperty, findPropertyThroughSpreads, getStaticValueOf, type ObjectResolver, resolveVisibleObject, type VisibleObject } from '../../ast/index.js';
import type { ToolDefinition } from '../../tools/index.js';

// What a tool's declaration claims about a second call, wherever the framework writes it: the
// retrysafe policy (`defineTool` fields, `declarePolicy`, `metadata.retrysafe`, `_meta.retrysafe`)
// and MCP's annotations. Each is read through the constants it is written with (an identifier, a
// spread of a `const` object, `as const`, `satisfies`, nested spreads), so a policy shared through a
// `const` is judged as if it were written inline; the type-aware twin passes a resolver that reads an
// imported `const` where it is declared. A field behind a spread nobody can see is no claim. Each
// claim carries the property that states it, which the message quotes, and the node to report at.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** One claim and where it is written. */
export interface Claim {
  /** The property that states it, in the file `source` names. */
  readonly property: TSESTree.Property;
  /** Where the claim is reported in the linted file: the property, or the policy that brings it (a spread, a `const`'s name). */
  readonly node: TSESTree.Node;
  /** The file the property is written in, and its name when that is not the linted file. */
  readonly source: { readonly sourceCode: SourceCode; readonly fileName?: string | undefined };
  /** How the route spells it, for messages and fixes. */
  readonly via: 'annotations' | 'declarePolicy' | 'defineTool' | 'langchainMetadata' | 'mcpMeta';
}

/** The claims a tool's declaration makes; each is absent when the declaration does not make it. */
export interface Claims {
  /** `side_effects: 'none'` / `sideEffects: 'none'`, or `readOnlyHint: true`. */
  readonly readOnly: Claim | undefined;
  /** `idempotent: true`, or `idempotentHint: true` (without `readOnlyHint: true`). */
  readonly naturallyIdempotent: Claim | undefined;
  /** `idempotent: 'with_key'`. */
  readonly withKey: Claim | undefined;
}

const NO_CLAIMS: Claims = { readOnly: undefined, naturallyIdempotent: undefined, withKey: undefined };

/**
 * The claims of `tool`'s declared policy, or else its MCP annotations; `resolve` reads objects the
 * file cannot see (the type-aware twin's imported `const`s).
 */
export function getClaims(sourceCode: SourceCode, tool: ToolDefinition, resolve?: ObjectResolver): Claims {
  if (tool.policy) {
    const policy = resolveVisibleObject(sourceCode, tool.policy.node, resolve);
    if (!policy) return NO_CLAIMS;
    const via = tool.policy.via;
    // A home-grown factory's config may spell the fields either way.
    const spelling = tool.framework === 'custom' && via === 'defineTool' ? undefined : via;
    const field = (name: PolicyField): FoundProperty | undefined => findField(policy, name, spelling, resolve);
    const claim = (found: FoundProperty | undefined, value: unknown): Claim | undefined =>
      found && getStaticValueOf(found.sourceCode, found.property.value) === value ? claimOf(found, via, policy.object, tool.policy!.node) : undefined;
    const idempotent = field('idempotent');
    return { readOnly: claim(field('sideEffects'), 'none'), naturallyIdempotent: claim(idempotent, true), withKey: claim(idempotent, 'with_key') };
  }
  const annotations = resolveVisibleObject(sourceCode, tool.annotationsNode, resolve);
  if (!annotations || !tool.annotationsNode) return NO_CLAIMS;
  const annotationsNode = tool.annotationsNode;
  const hint = (name: string): Claim | undefined => {
    const found = findPropertyThroughSpreads(annotations.sourceCode, annotations.object, name, resolve, 0, annotations.fileName);
    return found && getStaticValueOf(found.sourceCode, found.property.value) === true ? claimOf(found, 'annotations', annotations.object, annotationsNode) : undefined;
  };
  const readOnly = hint('readOnlyHint');
  // The MCP spec gives idempotentHint meaning only when readOnlyHint is false.
  return { readOnly, naturallyIdempotent: readOnly ? undefined : hint('idempotentHint'), withKey: undefined };
}

/** A policy field in the spelling `via` reads (either spelling when `via` is undefined), through spreads; none when unknown. */
function findField(
  policy: VisibleObject,
  field: PolicyField,
  via: Claim['via'] | undefined,
  resolve: ObjectResolver | undefined,
): FoundProperty | undefined {
  const names = via === undefined ? [POLICY_FIELDS[field].camelCase, POLICY_FIELDS[field].snakeCase] : [via === 'defineTool' ? POLICY_FIELDS[field].camelCase : POLICY_FIELDS[field].snakeCase];
  for (const name of names) {
    const found = findPropertyThroughSpreads(policy.sourceCode, policy.object, name, resolve, 0, policy.fileName);
    // A spread nobody can see may set the field: no claim.
    if (found === null) return undefined;
    if (found) return found;
  }
  return undefined;
}

function claimOf(found: FoundProperty, via: Claim['via'], declared: TSESTree.ObjectExpression, declaration: TSESTree.Node): Claim {
  const inline = found.fileName === undefined && found.property.parent === declared && declaration.type === AST_NODE_TYPES.ObjectExpression;
  return { property: found.property, node: inline ? found.property : declaration, source: { sourceCode: found.sourceCode, fileName: found.fileName }, via };
}

/**
 * The claim as written, for messages: `` `idempotent: true` ``, with where it is written when that is
 * not in the tool's declaration: `` `side_effects: 'none'` (in `READ_ONLY`, line 3) ``, or with the
 * file (`policies.ts line 3`) when it is another file, named with `fileLabel`.
 */
export function quoteClaim(claim: Claim, fileLabel: (fileName: string) => string = (fileName) => fileName): string {
  const text = codeSpan(claim.source.sourceCode.getText(claim.property).replace(/\s+/g, ' '));
  if (claim.node === claim.property) return text;
  const constant = constantName(claim.property);
  const line = claim.property.loc.start.line;
  const where = claim.source.fileName === undefined ? `line ${line}` : `${fileLabel(claim.source.fileName)} line ${line}`;
  return constant ? `${text} (in ${codeSpan(constant)}, ${where})` : `${text} (${where})`;
}

/** The name of the `const` whose initialiser holds `node`, if any. */
function constantName(node: TSESTree.Node): string | undefined {
  for (let current: TSESTree.Node | undefined = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.VariableDeclarator) return current.id.type === AST_NODE_TYPES.Identifier ? current.id.name : undefined;
  }
  return undefined;
}
