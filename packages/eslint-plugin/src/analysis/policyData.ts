import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { getPropertyKeyName, getStaticValueOf, resolveConst, resolveReference, skipWrappers } from '../ast/index.js';
import { findUnknownPolicyProperty, formatPolicyValue, isSpecPolicy, type ListedPolicyField, POLICY_FIELDS, type PolicyDeclaration, type ToolDefinition } from '../tools/index.js';
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
  /**
   * A stated value that is not one of `@retrysafe/spec`'s values for its field (`sideEffects:
   * 'moneyout'`), as `no-unsafe-retry-policy` reports it: the spec rejects such a policy, so it is
   * not a declaration a loop can act on. Only for a policy the spec reads (not a home-grown
   * factory's own config fields).
   */
  readonly unknownValue?: PolicyUnknownValue;
}

/** A policy value `@retrysafe/spec` does not know, for {@link PolicyData}. */
export interface PolicyUnknownValue {
  /** The property as written, on one line: `sideEffects: 'moneyout'`. */
  readonly text: string;
  readonly line: number;
  /** The field as the code spells it: `sideEffects`, `side_effects`. */
  readonly field: string;
  /** The field in the seed's words, whichever spelling the code used: `side_effects`, `idempotent`, `retry`. */
  readonly seedField: (typeof POLICY_FIELDS)[ListedPolicyField]['snakeCase'];
  /** The spec's values for the field, as code: `'none'`, `true`. */
  readonly known: readonly string[];
  /** The one known value the stated one is a near miss of, as code: `'money_out'`. */
  readonly nearMiss?: string;
}

/**
 * The policy a recognised tool declares, as seed data: its policy declaration (`defineTool` fields,
 * `declarePolicy`, `metadata.retrysafe`, `_meta`), or for an MCP tool with annotations only, what its
 * hints state in the seed's words, and nothing more: `readOnlyHint: true` is a tool without side
 * effects (`side_effects: 'none'`); `idempotentHint` is the class (`true` naturally idempotent,
 * `false` not safely repeatable). Neither states a `retry` or `max_attempts` (hints are not a retry
 * policy), nor the other fields, which stay `null`; the hints themselves are {@link readMcpHints}.
 * `undefined` when nothing is declared: no policy, and no hint that states one of those (MCP's
 * defaults for hints left out, `destructiveHint: true` and `idempotentHint: false`, are defaults,
 * not a declaration).
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
      ...readUnknownValue(sourceCode, tool),
    };
  }
  const hints = described.annotations;
  if (!hints || !tool.annotationsNode) return undefined;
  const node = tool.annotationsNode;
  const readOnly = hints.readOnlyHint === true;
  if (!readOnly && hints.idempotentHint === undefined) return undefined;
  return { side_effects: readOnly ? 'none' : null, idempotent: hints.idempotentHint ?? null, retry: null, max_attempts: null, via: 'annotations', node };
}

/** The MCP hints a tool's annotations state, by name (the protocol's `ToolAnnotations` hints). */
export interface McpHints {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/**
 * The hints an MCP tool's annotations state with a static value, as written (no MCP default filled
 * in); `undefined` when the tool has no visible annotations object or it states none. Annotations
 * written through spreads are read layer by layer with {@link readPolicyLayers}.
 */
export function readMcpHints(sourceCode: SourceCode, tool: ToolDefinition): McpHints | undefined {
  if (!tool.annotationsNode) return undefined;
  const annotations = describeTool(sourceCode, tool).annotations;
  if (!annotations?.visible) return undefined;
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = annotations;
  const hints = { readOnlyHint, destructiveHint, idempotentHint, openWorldHint };
  const stated = Object.fromEntries(Object.entries(hints).filter(([, value]) => value !== undefined));
  return Object.keys(stated).length > 0 ? stated : undefined;
}

/**
 * One layer of a policy (or MCP annotations) written through spreads and `const`s, in source order,
 * the later winning as at run time: the fields an object literal states (seed spelling:
 * `side_effects`, `idempotent`, `retry`, `max_attempts`, and the hints `readOnlyHint`,
 * `idempotentHint`); an import from a relative module (`from` as written, `name` its export), which
 * a reader that sees the other file follows; or something not followed (`opaque`: with `field`, it
 * sets that field to a value not known statically; without, it may set any field).
 */
export type PolicyLayer =
  | { readonly k: 'fields'; readonly fields: Readonly<Record<string, string | number | boolean>> }
  /** `members`: the static member reads after the imported binding (`policies.moneyOut`, `p.policies['moneyOut']`). */
  | { readonly k: 'import'; readonly from: string; readonly name: string; readonly members?: readonly string[] }
  | { readonly k: 'opaque'; readonly field?: string };

/**
 * An exported `const` as {@link readExportedPolicyConsts} reads it: the layers its object states
 * (policy or hint fields, spreads; empty when it states none), and its members that are objects (or
 * imports) themselves, by key, for a member read across files (`policies.moneyOut`). A member is
 * listed only where the object shows its value: no spread, and no computed key that is not known,
 * after it.
 */
export interface PolicyConst {
  readonly layers: readonly PolicyLayer[];
  readonly members?: Readonly<Record<string, PolicyConst>>;
}

/** The keys read, in either spelling, to the seed's spelling; and the MCP hints that state a policy. */
const LAYER_FIELDS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.values(POLICY_FIELDS).flatMap(({ camelCase, snakeCase }) => [[camelCase, snakeCase], [snakeCase, snakeCase]])),
  readOnlyHint: 'readOnlyHint',
  destructiveHint: 'destructiveHint',
  idempotentHint: 'idempotentHint',
  openWorldHint: 'openWorldHint',
};

/** How deep spreads of spreads are followed. */
const MAX_LAYER_DEPTH = 6;

/**
 * The layers of a policy or annotations node (`PolicyData.node`, `ToolDefinition.annotationsNode`)
 * written through spreads and `const`s: `{ ...WRITE_WITH_KEY }`, `READ_ONLY`, `{ ...READ_ONLY_HINTS,
 * title }`. Same-file `const`s (and static member reads of them) are followed to their object
 * literals, through `as const` and `satisfies`; a key is read as {@link getPropertyKeyName} reads it
 * (a computed literal key, or one whose value is static, is that key; a computed key whose value is
 * not known is an opaque layer: it may set any field); a value is read as a static value. For
 * `retrysafe audit`, which follows the imports to other files' {@link readExportedPolicyConsts}.
 *
 * @returns the layers, in source order; `undefined` when the node is an object literal with no
 *   spread (`readPolicyData` has read it whole).
 */
export function readPolicyLayers(sourceCode: SourceCode, node: TSESTree.Node): PolicyLayer[] | undefined {
  const bare = skipWrappers(node);
  if (bare.type === AST_NODE_TYPES.ObjectExpression && !bare.properties.some((property) => property.type === AST_NODE_TYPES.SpreadElement)) return undefined;
  return layersOf(sourceCode, bare, 0);
}

/**
 * Each exported `const` of the file whose value is an object literal (through `as const`,
 * `satisfies`) stating a policy or hint field (a shared policy: `export const READ_ONLY = {
 * side_effects: 'none', ... } as const`), or holding such objects as members (`export const policies
 * = { moneyOut: { ... } as const }`), by export name; see {@link readPolicyLayers}. A `let`, a
 * function call's result or any other value is not listed: a reader that does not find a name here
 * knows nothing of its fields.
 */
export function readExportedPolicyConsts(sourceCode: SourceCode): Record<string, PolicyConst> {
  const found: Record<string, PolicyConst> = {};
  for (const statement of sourceCode.ast.body) {
    if (statement.type !== AST_NODE_TYPES.ExportNamedDeclaration || statement.declaration?.type !== AST_NODE_TYPES.VariableDeclaration || statement.declaration.kind !== 'const') continue;
    for (const declarator of statement.declaration.declarations) {
      if (declarator.id.type !== AST_NODE_TYPES.Identifier || !declarator.init) continue;
      const init = skipWrappers(declarator.init);
      if (init.type !== AST_NODE_TYPES.ObjectExpression) continue;
      const read = readPolicyConst(sourceCode, init, 0);
      if (read) found[declarator.id.name] = read;
    }
  }
  return found;
}

/** How deep members of members are read (`policies.payments.refund`). */
const MAX_MEMBER_DEPTH = 4;

/** An object literal as a {@link PolicyConst}; `undefined` when it states no field and has no such member. */
function readPolicyConst(sourceCode: SourceCode, object: TSESTree.ObjectExpression, depth: number): PolicyConst | undefined {
  const layers = layersOf(sourceCode, object, 0);
  const states = layers.some((layer) => layer.k !== 'fields' || Object.keys(layer.fields).length > 0);
  const members = depth < MAX_MEMBER_DEPTH ? readMembers(sourceCode, object, depth) : undefined;
  if (!states && !members) return undefined;
  return { layers: states ? layers : [], ...(members ? { members } : {}) };
}

/**
 * The members of an object literal whose value is visible: read from the last property back, up to
 * the first spread or computed key that is not known (either may replace any member before it).
 */
function readMembers(sourceCode: SourceCode, object: TSESTree.ObjectExpression, depth: number): Record<string, PolicyConst> | undefined {
  const members: Record<string, PolicyConst> = {};
  const seen = new Set<string>();
  for (let index = object.properties.length - 1; index >= 0; index--) {
    const property = object.properties[index]!;
    if (property.type === AST_NODE_TYPES.SpreadElement) break;
    const name = getPropertyKeyName(property, sourceCode);
    if (name === undefined) break;
    if (seen.has(name)) continue;
    seen.add(name);
    // A getter or a method may return anything: not listed.
    if (property.kind !== 'init' || property.method) continue;
    const value = resolveConst(sourceCode, property.value);
    if (value.type === AST_NODE_TYPES.ObjectExpression) {
      const read = readPolicyConst(sourceCode, value, depth + 1);
      if (read) members[name] = read;
      continue;
    }
    const layers = layersOf(sourceCode, value, 0);
    if (layers.length === 1 && layers[0]?.k === 'import') members[name] = { layers };
  }
  return Object.keys(members).length > 0 ? members : undefined;
}

function layersOf(sourceCode: SourceCode, expression: TSESTree.Node, depth: number): PolicyLayer[] {
  if (depth > MAX_LAYER_DEPTH) return [{ k: 'opaque' }];
  const node = resolveConst(sourceCode, expression);
  if (node.type !== AST_NODE_TYPES.ObjectExpression) {
    // An import of a relative module's export: the reader that links files follows it.
    // A static member read below the import (`policies.moneyOut`, a namespace's `p.policies.moneyOut`)
    // is kept, for the reader to look up in that file's members.
    const reference = resolveReference(sourceCode, node);
    const [name, ...members] = reference?.path ?? [];
    if (!reference?.source.startsWith('.') || name === undefined) return [{ k: 'opaque' }];
    return [{ k: 'import', from: reference.source, name, ...(members.length > 0 ? { members } : {}) }];
  }
  const layers: PolicyLayer[] = [];
  let fields: Record<string, string | number | boolean> = {};
  const flush = (): void => {
    if (Object.keys(fields).length > 0) layers.push({ k: 'fields', fields });
    fields = {};
  };
  for (const property of node.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      flush();
      layers.push(...layersOf(sourceCode, property.argument, depth + 1));
      continue;
    }
    const name = getPropertyKeyName(property, sourceCode);
    if (name === undefined) {
      // A computed key whose value is not known may set any field.
      flush();
      layers.push({ k: 'opaque' });
      continue;
    }
    const field = LAYER_FIELDS[name];
    if (!field) continue;
    const value = getStaticValueOf(sourceCode, property.value);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[field] = value;
    else {
      flush();
      layers.push({ k: 'opaque', field });
    }
  }
  flush();
  if (layers.length === 0) layers.push({ k: 'fields', fields: {} });
  return layers;
}

/** The first stated value of the tool's policy that the spec does not know, as {@link PolicyData} holds it. */
function readUnknownValue(sourceCode: SourceCode, tool: ToolDefinition): { unknownValue?: PolicyUnknownValue } {
  const object = tool.policy?.object;
  const found = object && isSpecPolicy(tool) ? findUnknownPolicyProperty(sourceCode, object) : undefined;
  if (!found) return {};
  const { unknown, property } = found;
  return {
    unknownValue: {
      text: sourceCode.getText(property).replace(/\s+/g, ' '),
      line: property.loc.start.line,
      field: getPropertyKeyName(property) ?? unknown.field,
      seedField: POLICY_FIELDS[unknown.field].snakeCase,
      known: unknown.known.map(formatPolicyValue),
      ...(unknown.nearMiss === undefined ? {} : { nearMiss: formatPolicyValue(unknown.nearMiss) }),
    },
  };
}
