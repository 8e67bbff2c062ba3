import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { getStaticPropertyName } from './imports.js';
import { type FunctionNode, isFunctionNode, isIncrementTarget, walk } from './nodes.js';
import { getPropertyKeyName } from './staticValues.js';

// What `this.<name>` can hold inside a class: the value tracer follows `this.idempotencyKey`,
// `this.newId()` and `this.counter++` through this index, built once per class body. And the
// method an instance made with `new` of a class in this file runs (`new SlackClient(t).post(…)`).

type SourceCode = Readonly<TSESLint.SourceCode>;

/** What a class says about `this.<name>`: field initialisers and assignments, a getter, a method. */
export interface ClassMember {
  readonly values: TSESTree.Expression[];
  getter?: FunctionNode;
  method?: FunctionNode;
  /** A `this.<name>++` / `+= n` somewhere in the class: the member is a counter. */
  increment?: TSESTree.Node;
}

const classMembers = new WeakMap<TSESTree.ClassBody, Map<string, ClassMember>>();

/** What the class whose `this` `thisMember` reads says about `this.<name>`; `undefined` outside a class. */
export function getClassMember(thisMember: TSESTree.MemberExpression, name: string, sourceCode: SourceCode): ClassMember | undefined {
  const body = getEnclosingClassBody(thisMember);
  if (!body) return undefined;
  let members = classMembers.get(body);
  if (!members) {
    members = indexClassMembers(body, sourceCode);
    classMembers.set(body, members);
  }
  return members.get(name);
}

/**
 * The instance method `name` of the class that `instance` constructs, when that class is declared
 * in this file (`class SlackClient { post() {…} }` for `new SlackClient(token)`); `undefined` for an
 * imported or unknown class, a static method, a getter or a field.
 */
export function getInstanceMethod(instance: TSESTree.NewExpression, name: string, sourceCode: SourceCode): FunctionNode | undefined {
  if (instance.callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const declaration = ASTUtils.findVariable(sourceCode.getScope(instance.callee), instance.callee)?.defs[0]?.node;
  const body = declaration?.type === AST_NODE_TYPES.ClassDeclaration ? declaration.body : undefined;
  const method = body?.body.find(
    (member): member is TSESTree.MethodDefinition =>
      member.type === AST_NODE_TYPES.MethodDefinition && !member.static && member.kind === 'method' && getPropertyKeyName(member) === name,
  );
  return method && isFunctionNode(method.value) ? method.value : undefined;
}

function indexClassMembers(body: TSESTree.ClassBody, sourceCode: SourceCode): Map<string, ClassMember> {
  const members = new Map<string, ClassMember>();
  const memberOf = (name: string): ClassMember => {
    let member = members.get(name);
    if (!member) members.set(name, (member = { values: [] }));
    return member;
  };
  indexDeclaredMembers(body, memberOf);
  walk(body, sourceCode, (node) => {
    if (node.type !== AST_NODE_TYPES.MemberExpression || node.object.type !== AST_NODE_TYPES.ThisExpression) return true;
    const name = getStaticPropertyName(node);
    if (name === undefined) return true;
    const parent = node.parent;
    if (isIncrementTarget(node)) memberOf(name).increment ??= node;
    else if (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.left === node) memberOf(name).values.push(parent.right);
    return true;
  });
  return members;
}

/** Instance fields with an initialiser, getters and methods. */
function indexDeclaredMembers(body: TSESTree.ClassBody, memberOf: (name: string) => ClassMember): void {
  for (const element of body.body) {
    if (element.type !== AST_NODE_TYPES.PropertyDefinition && element.type !== AST_NODE_TYPES.MethodDefinition) continue;
    if (element.static) continue;
    const name = getPropertyKeyName(element);
    if (name === undefined) continue;
    if (element.type === AST_NODE_TYPES.PropertyDefinition) {
      if (element.value) memberOf(name).values.push(element.value);
    } else if (isFunctionNode(element.value) && (element.kind === 'get' || element.kind === 'method')) {
      memberOf(name)[element.kind === 'get' ? 'getter' : 'method'] = element.value;
    }
  }
}

/** The class whose `this` a `this.x` reads; arrows keep `this`, other functions (but methods) rebind it. */
function getEnclosingClassBody(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ClassBody) return current;
    if (current.type === AST_NODE_TYPES.FunctionDeclaration) return undefined;
    if (
      current.type === AST_NODE_TYPES.FunctionExpression &&
      current.parent.type !== AST_NODE_TYPES.MethodDefinition &&
      current.parent.type !== AST_NODE_TYPES.PropertyDefinition
    ) {
      return undefined;
    }
  }
  return undefined;
}
