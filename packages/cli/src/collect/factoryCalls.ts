import { type AllowedSource, describeFactoryArgument, describeNode, type FactoryArgument, getCalledFunction, type KeyPartOrigin, type TSESLint, type TSESTree } from './analysis.js';
import type { FactoryArgumentFact, FactoryCallFact, KeyOriginFact, ToolFact, Value } from './facts.js';

// The facts Q2 needs about a key that reads a parameter of the function (or class) that makes the
// tool: where that parameter is read, and each call (or `new`) that may make tools with what it
// passes, as the factory's parameter reads it (judge/keyOrigins.ts follows one to the other).

type SourceCode = Readonly<TSESLint.SourceCode>;

/** What {@link collectFactoryCalls} reads. */
export interface FactoryCallsInput {
  readonly sourceCode: SourceCode;
  readonly calls: readonly (TSESTree.CallExpression | TSESTree.NewExpression)[];
  readonly valueOf: (node: TSESTree.Node) => Value;
  /** The file's tools: a call of a function of the file whose parameter one of their keys reads is recorded even when it returns no tool. */
  readonly tools: readonly ToolFact[];
  readonly allowedSources: readonly AllowedSource[];
  /** Whether a value can lead to a tool (the collector's pruning of exports). */
  readonly mayLead: (value: Value) => boolean;
}

/** The calls that may make tools (a function that returns one, a factory of the file, an import from the project), with their arguments. */
export function collectFactoryCalls(input: FactoryCallsInput): FactoryCallFact[] {
  const { sourceCode } = input;
  const factoryLines = new Set(input.tools.flatMap((tool) => tool.key.parts.flatMap((part) => part.origins.flatMap((origin) => (origin.kind === 'factoryParameter' ? [origin.factoryLine] : [])))));
  const found: FactoryCallFact[] = [];
  for (const call of input.calls) {
    const value = input.valueOf(call);
    const called = getCalledFunction(sourceCode, call);
    const target = called?.k === 'local' ? (factoryLines.has(called.fn.loc.start.line) ? { k: 'local' as const, line: called.fn.loc.start.line } : null) : (called ?? null);
    if (!target && (value.k !== 'call' || !input.mayLead(value.callee))) continue;
    const args = call.arguments.map((argument) => describeFactoryArgument(sourceCode, argument, input.allowedSources));
    // Only a call that gives a factory a run, its id or a random value can settle a key either way:
    // the others (most calls of a project's functions) are not kept, and Q2 stays unknown for them.
    if (!args.some(settles)) continue;
    found.push({ line: call.loc.start.line, text: describeNode(call, sourceCode), value, target, args: args.map((argument) => argumentFact(argument, sourceCode)) });
  }
  return found;
}

function settles(argument: FactoryArgument): boolean {
  return argument.k === 'run' || argument.k === 'runId' || argument.k === 'random' || (argument.k === 'object' && Object.values(argument.props).some(settles));
}

/** A key part's origin as a fact: the factory by name (a class's constructor by its class) and line. */
export function keyOriginFact(origin: KeyPartOrigin, sourceCode: SourceCode): KeyOriginFact {
  if (origin.kind === 'openRun') return { kind: 'openRun', line: origin.call.loc.start.line, text: describeNode(origin.call, sourceCode) };
  return {
    kind: 'factoryParameter',
    text: origin.text,
    index: origin.index,
    path: origin.path ? [...origin.path] : null,
    factory: functionName(origin.factory),
    factoryLine: origin.factory.loc.start.line,
  };
}

function argumentFact(argument: FactoryArgument, sourceCode: SourceCode): FactoryArgumentFact {
  switch (argument.k) {
    case 'run':
    case 'runId':
      return { k: argument.k, line: argument.call.loc.start.line, text: describeNode(argument.call, sourceCode) };
    case 'random':
      return { k: 'random', line: argument.node.loc.start.line, text: argument.description };
    case 'object':
      return { k: 'object', props: Object.fromEntries(Object.entries(argument.props).map(([name, value]) => [name, argumentFact(value, sourceCode)])) };
    case 'literal':
    case 'other':
      return { k: argument.k, text: describeNode(argument.node, sourceCode) };
  }
}

/** A function's name: its own, the variable or property it is assigned to, or for a constructor its class's. */
function functionName(fn: TSESTree.Node): string | null {
  if ((fn.type === 'FunctionDeclaration' || fn.type === 'FunctionExpression') && fn.id) return fn.id.name;
  const parent = fn.parent;
  if (parent?.type === 'MethodDefinition' && parent.kind === 'constructor') {
    const owner = parent.parent.parent;
    return (owner.type === 'ClassDeclaration' || owner.type === 'ClassExpression') && owner.id ? owner.id.name : null;
  }
  if (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  if ((parent?.type === 'Property' || parent?.type === 'MethodDefinition') && parent.key.type === 'Identifier') return parent.key.name;
  return null;
}
