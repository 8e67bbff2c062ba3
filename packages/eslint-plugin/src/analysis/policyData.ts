import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import type { PolicyDeclaration, ToolDefinition } from '../tools/index.js';
import { describeTool } from './tools.js';

// A tool's declared retry policy in the seed's shape, field by field, for `retrysafe audit` (its
// table, and the YAML a loop in another language reads). Built on `describeTool`, so the fields are
// read exactly as `recogniseTools` reads them; MCP annotations, which `describeTool` reports apart,
// are read here as the policy they state.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** An idempotency class as declared: `true`, `false` or `'with_key'`. */
export type DeclaredIdempotency = boolean | 'with_key';

/** A declared retry policy, field by field; `null` where the code does not state the field statically. */
export interface PolicyData {
  readonly side_effects: string | null;
  readonly idempotent: DeclaredIdempotency | null;
  readonly retry: string | null;
  readonly max_attempts: number | null;
  /** Where it is declared; `annotations` for MCP hints read as a policy. */
  readonly via: PolicyDeclaration['via'] | 'annotations';
  /** The declaration: the policy object or the annotations. */
  readonly node: TSESTree.Node;
}

/**
 * The policy a recognised tool declares, as seed data: its policy declaration (`defineTool` fields,
 * `declarePolicy`, `metadata.retrysafe`, `_meta`), or for an MCP tool with annotations only, the
 * policy its hints state: `readOnlyHint: true` is a read (`none`, naturally idempotent, `safe`);
 * otherwise `idempotentHint` gives the class (`true` → naturally idempotent, `safe`; `false` → not
 * safely repeatable, `never`) and the side effects stay `null` (the hints do not say which). The
 * inverse of the spec's `annotationsFor`. `undefined` when nothing is declared.
 */
export function readPolicyData(sourceCode: SourceCode, tool: ToolDefinition): PolicyData | undefined {
  const described = describeTool(sourceCode, tool);
  const policy = described.declaredPolicy;
  if (policy && tool.policy) {
    const { fields } = policy;
    return {
      side_effects: fields.side_effects ?? null,
      idempotent: fields.idempotent ?? null,
      retry: fields.retry ?? null,
      max_attempts: fields.max_attempts !== undefined && Number.isInteger(fields.max_attempts) && fields.max_attempts > 0 ? fields.max_attempts : null,
      via: policy.via,
      node: tool.policy.node,
    };
  }
  const hints = described.annotations;
  if (!hints || !tool.annotationsNode) return undefined;
  const node = tool.annotationsNode;
  if (hints.readOnlyHint === true) return { side_effects: 'none', idempotent: true, retry: 'safe', max_attempts: null, via: 'annotations', node };
  if (hints.idempotentHint === undefined) return undefined;
  return { side_effects: null, idempotent: hints.idempotentHint, retry: hints.idempotentHint ? 'safe' : 'never', max_attempts: null, via: 'annotations', node };
}
