import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  findProperty,
  getImportedModules,
  getPropertyKeyName,
  getStaticPropertyName,
  outermostTypeWrapper,
  resolveObject,
  resolveReference,
  staticString,
} from '../ast/index.js';
import { getDeclaredPolicy, getNestedPolicy, isDeclarePolicyPossible } from './declaredPolicies.js';
import { langchain } from './frameworks/index.js';
import type { PolicyDeclaration, ToolClassNode, ToolDefinition } from './toolDefinition.js';

// LangChain tools written as classes:
//   class RefundTool extends StructuredTool { name = 'issue_refund'; schema = z.object({...}); async _call(input) {...} }
// The superclass is recognised through its import, as the factories are, so a local class that
// happens to be called StructuredTool is not a tool. A class that extends a local subclass of
// StructuredTool is not followed: what the rules judge is in plain sight in the class itself.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** LangChain's tool classes. */
const TOOL_BASE_CLASSES: ReadonlySet<string> = new Set(langchain.classes);
const LANGCHAIN_MODULES: readonly string[] = langchain.modules;

/** Whether the file imports or requires a module LangChain's tool classes come from. */
export function importsLangChainTools(sourceCode: SourceCode): boolean {
  const modules = getImportedModules(sourceCode);
  return LANGCHAIN_MODULES.some((source) => modules.has(source));
}

/**
 * The tool a class defines when it extends one of LangChain's tool classes: its `name`,
 * `description` and `schema` fields, its `_call` method, and a policy in a `metadata` field (or
 * `this.metadata = ...` / `super({ metadata })` in its constructor), or given to an instance in the
 * same file (`declarePolicy(new RefundTool(), policy)`, `new RefundTool({ metadata })`). An
 * abstract or ambient class is a base, not a tool.
 */
export function fromToolClass(sourceCode: SourceCode, node: ToolClassNode): ToolDefinition | undefined {
  if (!node.superClass || isAbstractOrAmbient(node) || !extendsLangChainTool(sourceCode, node.superClass)) return undefined;
  return {
    framework: 'langchain',
    node,
    configNode: undefined,
    config: undefined,
    name: staticString(sourceCode, getFieldValue(node, 'name')) ?? getClassName(node),
    description: staticString(sourceCode, getFieldValue(node, 'description')),
    inputSchema: getFieldValue(node, 'schema'),
    handler: findHandler(node),
    annotationsNode: undefined,
    annotations: undefined,
    policy: getInstancePolicy(sourceCode, node) ?? getNestedPolicy(sourceCode, findMetadata(node), 'langchainMetadata'),
  };
}

function isAbstractOrAmbient(node: ToolClassNode): boolean {
  return node.type === AST_NODE_TYPES.ClassDeclaration && (node.abstract || node.declare);
}

/** `StructuredTool`, `tools.StructuredTool`, `require('@langchain/core/tools').Tool`, from a LangChain module. */
function extendsLangChainTool(sourceCode: SourceCode, superClass: TSESTree.Expression): boolean {
  const reference = resolveReference(sourceCode, superClass);
  return (
    reference !== undefined &&
    reference.path.length === 1 &&
    TOOL_BASE_CLASSES.has(reference.path[0] ?? '') &&
    LANGCHAIN_MODULES.includes(reference.source)
  );
}

/** The initialiser of the last instance field named `name` that has one (the one that wins). */
function getFieldValue(node: ToolClassNode, name: string): TSESTree.Expression | undefined {
  let value: TSESTree.Expression | undefined;
  for (const member of node.body.body) {
    if (member.type !== AST_NODE_TYPES.PropertyDefinition || member.static || !member.value) continue;
    if (getPropertyKeyName(member) === name) value = member.value;
  }
  return value;
}

/** The `_call` method's implementation (not an overload signature), or a `_call` field holding a function. */
function findHandler(node: ToolClassNode): TSESTree.Node | undefined {
  const field = getFieldValue(node, '_call');
  if (field) return field;
  for (const member of node.body.body) {
    if (member.type !== AST_NODE_TYPES.MethodDefinition || member.static || member.kind !== 'method') continue;
    if (member.value.type === AST_NODE_TYPES.FunctionExpression && getPropertyKeyName(member) === '_call') return member.value;
  }
  return undefined;
}

/** The value of a `metadata` field, else of `this.metadata = ...` or `super({ metadata })` in the constructor. */
function findMetadata(node: ToolClassNode): TSESTree.Node | undefined {
  const field = getFieldValue(node, 'metadata');
  if (field) return field;
  const constructor = node.body.body.find(
    (member): member is TSESTree.MethodDefinition => member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor',
  );
  for (const statement of constructor?.value.body?.body ?? []) {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement) continue;
    const metadata = metadataAssigned(statement.expression) ?? metadataPassedToSuper(statement.expression);
    if (metadata) return metadata;
  }
  return undefined;
}

// this.metadata = { retrysafe: ... }
function metadataAssigned(expression: TSESTree.Expression): TSESTree.Node | undefined {
  if (expression.type !== AST_NODE_TYPES.AssignmentExpression || expression.operator !== '=') return undefined;
  const { left } = expression;
  const isThisMetadata =
    left.type === AST_NODE_TYPES.MemberExpression && left.object.type === AST_NODE_TYPES.ThisExpression && getStaticPropertyName(left) === 'metadata';
  return isThisMetadata ? expression.right : undefined;
}

// super({ ...fields, metadata: { retrysafe: ... } })
function metadataPassedToSuper(expression: TSESTree.Expression): TSESTree.Node | undefined {
  if (expression.type !== AST_NODE_TYPES.CallExpression || expression.callee.type !== AST_NODE_TYPES.Super) return undefined;
  const [fields] = expression.arguments;
  return fields?.type === AST_NODE_TYPES.ObjectExpression ? findProperty(fields, 'metadata')?.value : undefined;
}

/**
 * A policy given to an instance made in this file: `declarePolicy(new RefundTool(), policy)` (or
 * through a `const`), or `new RefundTool({ metadata: { retrysafe } })`. The first instance that
 * declares one counts.
 */
function getInstancePolicy(sourceCode: SourceCode, node: ToolClassNode): PolicyDeclaration | undefined {
  const canDeclare = isDeclarePolicyPossible(sourceCode);
  for (const variable of getClassVariables(sourceCode, node)) {
    for (const reference of variable.references) {
      const instance = reference.identifier.parent;
      if (instance?.type !== AST_NODE_TYPES.NewExpression || instance.callee !== reference.identifier) continue;
      const fields = resolveObject(sourceCode, instance.arguments[0]);
      const policy =
        (canDeclare ? getDeclaredPolicy(sourceCode, instance) : undefined) ??
        getNestedPolicy(sourceCode, findProperty(fields, 'metadata')?.value, 'langchainMetadata');
      if (policy) return policy;
    }
  }
  return undefined;
}

/** The bindings a class can be instantiated through: its own name, and the `const` a class expression is assigned to. */
function getClassVariables(sourceCode: SourceCode, node: ToolClassNode): TSESLint.Scope.Variable[] {
  const variables = [...sourceCode.getDeclaredVariables(node)];
  const declarator = getAssignedDeclarator(node);
  if (declarator) variables.push(...sourceCode.getDeclaredVariables(declarator));
  return variables;
}

/** `const RefundTool = class extends StructuredTool {...}`: the declarator of a class expression. */
function getAssignedDeclarator(node: ToolClassNode): TSESTree.VariableDeclarator | undefined {
  if (node.type !== AST_NODE_TYPES.ClassExpression) return undefined;
  const outer = outermostTypeWrapper(node);
  const parent = outer.parent;
  return parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === outer ? parent : undefined;
}

/** The class's name, or the variable a class expression is assigned to. */
function getClassName(node: ToolClassNode): string | undefined {
  if (node.id) return node.id.name;
  const id = getAssignedDeclarator(node)?.id;
  return id?.type === AST_NODE_TYPES.Identifier ? id.name : undefined;
}
