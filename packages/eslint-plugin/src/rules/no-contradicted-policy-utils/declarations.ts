import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { findPolicyProperty } from '../../tools/index.js';
import { findProperty, getStaticValueOf, hasSpread } from '../../ast/index.js';
import type { ToolDefinition } from '../../tools/index.js';

// What a tool's declaration claims about a second call, wherever the framework writes it: the
// retrysafe policy (`defineTool` fields, `declarePolicy`, `metadata.retrysafe`, `_meta.retrysafe`)
// and MCP's annotations. Each claim carries the property that states it, which is where a
// contradiction is reported and what the message quotes.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** One claim and where it is written. */
export interface Claim {
  readonly property: TSESTree.Property;
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

/** The claims of `tool`'s declared policy, or else its MCP annotations. */
export function getClaims(sourceCode: SourceCode, tool: ToolDefinition): Claims {
  const policy = tool.policy?.object;
  if (policy && tool.policy && !hasSpread(policy)) {
    const via = tool.policy.via;
    const claim = (property: TSESTree.Property | undefined, value: unknown): Claim | undefined =>
      property && getStaticValueOf(sourceCode, property.value) === value ? { property, via } : undefined;
    // A home-grown factory's config may spell the fields either way.
    const spelling = tool.framework === 'custom' && via === 'defineTool' ? undefined : via;
    const idempotent = findPolicyProperty(policy, 'idempotent', spelling);
    return {
      readOnly: claim(findPolicyProperty(policy, 'sideEffects', spelling), 'none'),
      naturallyIdempotent: claim(idempotent, true),
      withKey: claim(idempotent, 'with_key'),
    };
  }
  const annotations = tool.annotations;
  if (!annotations || hasSpread(annotations)) return { readOnly: undefined, naturallyIdempotent: undefined, withKey: undefined };
  const hint = (name: string): Claim | undefined => {
    const property = findProperty(annotations, name);
    return property && getStaticValueOf(sourceCode, property.value) === true ? { property, via: 'annotations' } : undefined;
  };
  const readOnly = hint('readOnlyHint');
  // The MCP spec gives idempotentHint meaning only when readOnlyHint is false.
  return { readOnly, naturallyIdempotent: readOnly ? undefined : hint('idempotentHint'), withKey: undefined };
}

/** The claim as written, for messages: `` `idempotent: true` ``. */
export function quoteClaim(sourceCode: SourceCode, claim: Claim): string {
  return `\`${sourceCode.getText(claim.property).replace(/\s+/g, ' ')}\``;
}
