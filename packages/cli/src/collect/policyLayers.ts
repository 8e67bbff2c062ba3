import type { TSESLint, TSESTree } from './analysis.js';
import type { PolicyLayer } from './facts.js';

// A policy (or MCP annotations) written through `const`s: `{ ...WRITE_WITH_KEY }`, `READ_ONLY`,
// `{ ...READ_ONLY_HINTS }`. Read here as layers in source order, the later winning as at run time:
// the fields an object literal states, a same-file `const` followed to its literal, and an import
// from a relative module, which the linker follows to that module's exported `const`. Anything else
// (a parameter, a call's result, a package's value) is an opaque layer: the fields it may set are
// not known, and the audit does not guess them.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The fields read: the policy's (either spelling) and the MCP hints that state one. */
const FIELDS: Readonly<Record<string, string>> = {
  side_effects: 'side_effects',
  sideEffects: 'side_effects',
  idempotent: 'idempotent',
  retry: 'retry',
  max_attempts: 'max_attempts',
  maxAttempts: 'max_attempts',
  readOnlyHint: 'readOnlyHint',
  idempotentHint: 'idempotentHint',
};

const MAX_DEPTH = 6;

/** The layers of a policy or annotations node; `undefined` when it is a plain literal with no spread (the plugin read it already). */
export function policyLayers(sourceCode: SourceCode, node: TSESTree.Node): PolicyLayer[] | undefined {
  const bare = unwrap(node);
  if (bare.type === 'ObjectExpression' && !bare.properties.some((property) => property.type === 'SpreadElement')) return undefined;
  return layersOf(sourceCode, bare, 0);
}

/** The layers of each exported `const` of the file whose value is an object (a shared policy), by export name. */
export function exportedPolicyConsts(sourceCode: SourceCode): Record<string, PolicyLayer[]> {
  const found: Record<string, PolicyLayer[]> = {};
  for (const statement of sourceCode.ast.body) {
    if (statement.type !== 'ExportNamedDeclaration' || statement.declaration?.type !== 'VariableDeclaration' || statement.declaration.kind !== 'const') continue;
    for (const declarator of statement.declaration.declarations) {
      if (declarator.id.type !== 'Identifier' || !declarator.init) continue;
      const init = unwrap(declarator.init);
      if (init.type !== 'ObjectExpression') continue;
      const layers = layersOf(sourceCode, init, 0);
      if (layers.some((layer) => layer.k !== 'fields' || Object.keys(layer.fields).length > 0)) found[declarator.id.name] = layers;
    }
  }
  return found;
}

function layersOf(sourceCode: SourceCode, expression: TSESTree.Node, depth: number): PolicyLayer[] {
  const node = unwrap(expression);
  if (depth > MAX_DEPTH) return [{ k: 'opaque' }];
  if (node.type === 'ObjectExpression') {
    const layers: PolicyLayer[] = [];
    let fields: Record<string, string | number | boolean> = {};
    for (const property of node.properties) {
      if (property.type === 'SpreadElement') {
        if (Object.keys(fields).length > 0) layers.push({ k: 'fields', fields });
        fields = {};
        layers.push(...layersOf(sourceCode, property.argument, depth + 1));
        continue;
      }
      const name = property.computed ? undefined : property.key.type === 'Identifier' ? property.key.name : property.key.type === 'Literal' ? String(property.key.value) : undefined;
      if (name === undefined) {
        // A computed key may set any field.
        if (Object.keys(fields).length > 0) layers.push({ k: 'fields', fields });
        fields = {};
        layers.push({ k: 'opaque' });
        continue;
      }
      const field = FIELDS[name];
      if (!field) continue;
      const value = unwrap(property.value);
      if (value.type === 'Literal' && (typeof value.value === 'string' || typeof value.value === 'number' || typeof value.value === 'boolean')) fields[field] = value.value;
      else {
        if (Object.keys(fields).length > 0) layers.push({ k: 'fields', fields });
        fields = {};
        layers.push({ k: 'opaque', field });
      }
    }
    if (Object.keys(fields).length > 0 || layers.length === 0) layers.push({ k: 'fields', fields });
    return layers;
  }
  if (node.type === 'Identifier') {
    const definition = findDefinition(sourceCode, node);
    if (definition?.type === 'Variable' && definition.node.type === 'VariableDeclarator' && definition.parent?.type === 'VariableDeclaration' && definition.parent.kind === 'const' && definition.node.init) {
      return layersOf(sourceCode, definition.node.init, depth + 1);
    }
    if (definition?.type === 'ImportBinding' && definition.parent?.type === 'ImportDeclaration' && definition.parent.source.value.startsWith('.') && definition.node.type === 'ImportSpecifier') {
      const imported = definition.node.imported;
      return [{ k: 'import', from: definition.parent.source.value, name: imported.type === 'Identifier' ? imported.name : String(imported.value) }];
    }
  }
  return [{ k: 'opaque' }];
}

type Definition = { type: string; node: TSESTree.Node; parent?: TSESTree.Node | null };

function findDefinition(sourceCode: SourceCode, identifier: TSESTree.Identifier): Definition | undefined {
  for (let scope: ReturnType<SourceCode['getScope']> | null = sourceCode.getScope(identifier); scope; scope = scope.upper) {
    const variable = scope.set.get(identifier.name);
    if (variable) return variable.defs.length === 1 ? (variable.defs[0] as unknown as Definition) : undefined;
  }
  return undefined;
}

function unwrap(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (current.type === 'TSAsExpression' || current.type === 'TSSatisfiesExpression' || current.type === 'TSNonNullExpression' || current.type === 'TSTypeAssertion') current = current.expression;
  return current;
}
