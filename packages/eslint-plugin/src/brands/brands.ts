import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { getChildNodes, getMemberChain, isSpecModule, resolveReference } from '../ast/index.js';

// Brand recognition from the syntax alone (imports and local type declarations). The type-level
// counterpart is `program/brandTypes.ts`, kept apart so that rules without type information never load
// TypeScript.

/** The brand types `@retrysafe/spec` exports, by exported name. */
export type BrandName = 'DeterministicKey' | 'Durable';

const BRAND_NAMES: ReadonlySet<string> = new Set<BrandName>(['DeterministicKey', 'Durable']);

type TypeDeclaration = TSESTree.TSInterfaceDeclaration | TSESTree.TSTypeAliasDeclaration;

/**
 * The first brand of `@retrysafe/spec` that a type annotation spells, anywhere inside it:
 * `DeterministicKey`, `rs.DeterministicKey`, `K` from `import { DeterministicKey as K }`,
 * `import('@retrysafe/spec').Durable<string>`, and type aliases and interfaces declared in the same
 * file (`type K = DeterministicKey`, interfaces and what they extend), inside composites such as
 * `{ key: K }`, `K[]` or `Partial<...>`.
 * A brand is recognised by its import from `@retrysafe/spec`, so a type of the user's own that is also
 * called `DeterministicKey` is not one.
 */
export function findBrandInTypeNode(
  sourceCode: Readonly<TSESLint.SourceCode>,
  typeNode: TSESTree.Node,
  seen: Set<TypeDeclaration> = new Set(),
): BrandName | undefined {
  if (
    typeNode.type === AST_NODE_TYPES.TSTypeReference ||
    typeNode.type === AST_NODE_TYPES.TSImportType ||
    typeNode.type === AST_NODE_TYPES.TSInterfaceHeritage
  ) {
    const brand = getReferencedBrand(sourceCode, typeNode, seen);
    if (brand) return brand;
  }
  for (const child of getChildNodes(typeNode, sourceCode)) {
    const brand = findBrandInTypeNode(sourceCode, child, seen);
    if (brand) return brand;
  }
  return undefined;
}

/**
 * The brand a type reference (or an interface's `extends` entry) names, directly or through a type
 * declared in the same file.
 */
function getReferencedBrand(
  sourceCode: Readonly<TSESLint.SourceCode>,
  node: TSESTree.TSImportType | TSESTree.TSInterfaceHeritage | TSESTree.TSTypeReference,
  seen: Set<TypeDeclaration>,
): BrandName | undefined {
  if (node.type === AST_NODE_TYPES.TSImportType) {
    const chain = node.qualifier ? getEntityNameChain(node.qualifier) : undefined;
    const exported = chain?.length === 1 && chain[0].type === AST_NODE_TYPES.Identifier ? chain[0].name : undefined;
    return isSpecModule(node.source.value) ? asBrandName(exported) : undefined;
  }
  const chain =
    node.type === AST_NODE_TYPES.TSTypeReference ? getEntityNameChain(node.typeName) : getMemberChain(node.expression);
  const [root, ...members] = chain ?? [];
  if (root?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const origin = resolveReference(sourceCode, root);
  if (origin) {
    const exported = [...origin.path, ...members];
    return isSpecModule(origin.source) && exported.length === 1 ? asBrandName(exported[0]) : undefined;
  }
  const declaration = members.length === 0 ? getLocalTypeDeclaration(sourceCode, root) : undefined;
  if (!declaration || seen.has(declaration)) return undefined;
  seen.add(declaration);
  return findBrandInTypeNode(sourceCode, declaration, seen);
}

function asBrandName(name: string | undefined): BrandName | undefined {
  return name !== undefined && BRAND_NAMES.has(name) ? (name as BrandName) : undefined;
}

/** `a.b.C` → `[a, 'b', 'C']`; `this`-rooted names have no chain. */
function getEntityNameChain(
  name: TSESTree.EntityName,
): [TSESTree.Identifier | TSESTree.ThisExpression, ...string[]] | undefined {
  if (name.type !== AST_NODE_TYPES.TSQualifiedName) return [name];
  const left = getEntityNameChain(name.left);
  return left ? [...left, name.right.name] : undefined;
}

/** The type alias or interface a name refers to, when it is declared in this file. */
function getLocalTypeDeclaration(
  sourceCode: Readonly<TSESLint.SourceCode>,
  identifier: TSESTree.Identifier,
): TypeDeclaration | undefined {
  const variable = ASTUtils.findVariable(sourceCode.getScope(identifier), identifier.name);
  for (const definition of variable?.defs ?? []) {
    const node = definition.node;
    if (node.type === AST_NODE_TYPES.TSTypeAliasDeclaration || node.type === AST_NODE_TYPES.TSInterfaceDeclaration) {
      return node;
    }
  }
  return undefined;
}
