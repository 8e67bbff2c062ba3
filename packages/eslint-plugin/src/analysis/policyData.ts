import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { findProperty, getStaticValueOf } from '../ast/index.js';
import { findPolicyProperty, type PolicyDeclaration, type ToolDefinition } from '../tools/index.js';

// A tool's declared retry policy read as data, in the seed's shape: what `retrysafe audit` lists
// and exports as YAML for a loop in another language. Only what the code states statically counts;
// a field built at run time is `null`, never guessed.

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
 * The policy a recognised tool declares, as data: its policy declaration (`defineTool` fields,
 * `declarePolicy`, `metadata.retrysafe`, `_meta.retrysafe`), or for an MCP tool with annotations
 * only, the policy its hints state: `readOnlyHint: true` is a read (`none`, naturally idempotent,
 * `safe`); otherwise `idempotentHint` gives the class (`true` → naturally idempotent, `safe`;
 * `false` → not safely repeatable, `never`) and the side effects stay `null` (the hints do not say
 * which). The inverse of the spec's `annotationsFor`. `undefined` when nothing is declared.
 */
export function readPolicyData(sourceCode: SourceCode, tool: ToolDefinition): PolicyData | undefined {
  if (tool.policy) return fromPolicyObject(sourceCode, tool.policy);
  if (tool.annotationsNode) return fromAnnotations(sourceCode, tool);
  return undefined;
}

function fromPolicyObject(sourceCode: SourceCode, policy: PolicyDeclaration): PolicyData {
  const read = (field: Parameters<typeof findPolicyProperty>[1]): unknown =>
    getStaticValueOf(sourceCode, findPolicyProperty(policy.object, field)?.value);
  return {
    side_effects: asString(read('sideEffects')),
    idempotent: asIdempotency(read('idempotent')),
    retry: asString(read('retry')),
    max_attempts: asAttempts(read('maxAttempts')),
    via: policy.via,
    node: policy.node,
  };
}

function fromAnnotations(sourceCode: SourceCode, tool: ToolDefinition): PolicyData | undefined {
  const hint = (name: string): unknown => getStaticValueOf(sourceCode, findProperty(tool.annotations, name)?.value);
  const readOnly = hint('readOnlyHint');
  const idempotent = hint('idempotentHint');
  const node = tool.annotationsNode as TSESTree.Node;
  if (readOnly === true) return { side_effects: 'none', idempotent: true, retry: 'safe', max_attempts: null, via: 'annotations', node };
  if (typeof idempotent !== 'boolean') return undefined;
  return {
    side_effects: null,
    idempotent,
    retry: idempotent ? 'safe' : 'never',
    max_attempts: null,
    via: 'annotations',
    node,
  };
}

function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function asIdempotency(value: unknown): DeclaredIdempotency | null {
  return value === true || value === false || value === 'with_key' ? value : null;
}

function asAttempts(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}
