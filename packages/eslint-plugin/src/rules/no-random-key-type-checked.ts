import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ESLintUtils } from '@typescript-eslint/utils';

import {
  codeSpan,
  describeNode,
  findVariableOf,
  getConstantInitializer,
  GLOBAL_SOURCE,
  resolveLocalFunction,
  resolveReference,
  skipWrappers,
} from '../ast/index.js';
import { type ConstantFallback, createKeyJudge, findConstantFallback, type KeyPosition, mayHaveKeyPositions } from '../keys/index.js';
import {
  createCrossFileFollower,
  type CrossFileFollower,
  displayFileName,
  isImportReference,
  type KeyParameter,
  type ProgramSource,
  programMentionsKeys,
} from '../program/index.js';
import { createHandlerToolFinder, createKeyAdvice, createKeyRule, describeFallbackPlace, fallbackAdvice, MESSAGE_ID_BY_SOURCE_KIND } from './no-random-key-utils/index.js';

export type { KeyRuleOptionList as Options } from './no-random-key-utils/index.js';

export type MessageIds = 'clockKey' | 'constantFallbackArgument' | 'counterKey' | 'keyArgument' | 'mintedPerToolCallKey' | 'perAttemptKey' | 'randomKey';

const FROM = '{{source}} in {{file}} line {{line}}, reached through {{through}}';

/** A report waiting for the end of the file, when every report of the syntactic rule is known. */
interface Candidate {
  readonly sink: TSESTree.Node;
  readonly source: ProgramSource;
  readonly report: () => void;
}

export default createKeyRule<MessageIds>({
  name: 'no-random-key-type-checked',
  description:
    'Disallow idempotency and deduplication keys built from random, clock or per-attempt values in another file',
  sourceAt: FROM,
  messages: {
    keyArgument:
      'Idempotency key built from {{source}} in {{file}} line {{line}}: it is passed as {{parameter}} to {{callee}}, ' +
      `which {{role}} ({{roleFile}} line {{roleLine}}). A retry gets a new key. {{advice}}`,
    constantFallbackArgument:
      'Idempotency key falls back to the constant {{fallback}}{{value}} when {{primary}} is missing{{at}}: it is passed as {{parameter}} to {{callee}}, ' +
      "which {{role}} ({{roleFile}} line {{roleLine}}). Every call without it sends that one key, so a later, different call gets the first one's result " +
      '(or the provider rejects the reused key). {{advice}}',
  },
  create(context, [options]) {
    const services = ESLintUtils.getParserServices(context);
    const sourceCode = context.sourceCode;
    const fileName = context.filename;
    const keyNames = options.keyNames ?? [];
    const allowedSources = options.allowedSources ?? [];
    // Gated like no-random-key: a file that spells no key name holds no key position, and where no
    // file of the program spells one either, no parameter anywhere is a key (docs/performance.md).
    if (!mayHaveKeyPositions(sourceCode, keyNames) && !programMentionsKeys(services.program, keyNames)) return {};
    // What no-random-key sees in this file, judged the same way: those reports are its own.
    const judge = createKeyJudge(sourceCode, options);
    const adviceAt = createKeyAdvice(sourceCode);
    const toolAt = createHandlerToolFinder(sourceCode);
    const tracer = judge.tracer;
    // Created at the first boundary: most files never cross one at a key position.
    let follower: CrossFileFollower | undefined;
    const getFollower = (): CrossFileFollower =>
      (follower ??= createCrossFileFollower({ sourceCode, fileName, services, tracer }, { allowedSources, keyNames }));

    /** What `no-random-key` reports in this file: source node → the sinks it reports it at. */
    const syntacticSinks = new Map<TSESTree.Node, TSESTree.Node[]>();
    const positionValues = new Set<TSESTree.Node>();
    const calls: TSESTree.CallExpression[] = [];
    const candidates: Candidate[] = [];

    function checkPosition(position: KeyPosition): void {
      positionValues.add(position.value);
      const local = judge.judge(position.value);
      if (local === 'persisted' || local === 'mintedOnce') return;
      if (local) {
        syntacticSinks.set(local.node, [...(syntacticSinks.get(local.node) ?? []), position.value]);
        return;
      }
      if (!getFollower().readsAcrossFiles(position.value, false)) return;
      const found = getFollower().findSource(position.value);
      if (!found) return;
      const { source, through } = found;
      candidates.push({
        sink: position.value,
        source,
        report: () =>
          context.report({
            node: position.value,
            messageId: MESSAGE_ID_BY_SOURCE_KIND[source.kind],
            data: { ...describeSource(source), through: codeSpan(describeNode(through, sourceCode)), advice: adviceAt(position.value) },
          }),
      });
    }

    /**
     * An argument for a parameter declared elsewhere as a key (by brand type, or by its use there).
     * The checker is asked about the callee only when an argument is worth it: it has a source in this
     * file (any callee), or it comes from an import and the callee is an import too (one symbol lookup,
     * no receiver type to compute).
     */
    function checkCall(call: TSESTree.CallExpression): void {
      // Only an argument for a key parameter is reported: a callee that cannot have one (by its
      // name or declaring file, see program/keyReach.ts) is not looked at further.
      if (!getFollower().mayHaveKeyParameters(call, false)) return;
      // Helpers of this file are the syntactic rule's to follow; methods of arrays, maps and sets
      // made in this file are the standard library's.
      if (resolveLocalFunction(call.callee, sourceCode) || hasBuiltInReceiver(sourceCode, call.callee)) return;
      const calleeIsImport = isImportReference(sourceCode, call.callee);
      const interesting = call.arguments.flatMap((argument, index) => {
        if (argument.type === AST_NODE_TYPES.SpreadElement || positionValues.has(argument)) return [];
        const local = judge.judge(argument);
        if (local === 'persisted' || local === 'mintedOnce') return [];
        // A constant fallback (`key ?? ''`) for a key parameter: one key for every call without the real one.
        const fallback = local ? undefined : findConstantFallback(argument, sourceCode);
        const crosses = !local && !fallback && calleeIsImport && getFollower().readsAcrossFiles(argument, true);
        return local || fallback || crosses ? [{ argument, index, local, fallback }] : [];
      });
      if (interesting.length === 0) return;
      // Arguments that merely come from another module are many: their callees are searched quickly.
      const quick = interesting.every(({ local, fallback }) => !local && !fallback);
      if (quick && !getFollower().mayHaveKeyParameters(call, true)) return;
      const keyParameters = getFollower().getKeyParameters(call, quick);
      for (const { argument, index, local, fallback } of interesting) {
        const parameter = keyParameters.find((candidate) => candidate.index === index || (candidate.rest && index > candidate.index));
        if (!parameter) continue;
        if (fallback) {
          // The argument itself is the key only where the parameter is (not a field of an options object).
          if (parameter.path.length === 0) candidates.push({ sink: argument, source: fallbackSource(fallback), report: () => reportFallback(call, argument, parameter, fallback) });
          continue;
        }
        const source = local && parameter.path.length === 0
          ? { ...local, fileName }
          : getFollower().findSource(argument, parameter.path)?.source;
        if (source) candidates.push({ sink: argument, source, report: () => reportArgument(call, argument, parameter, source) });
      }
    }

    function reportArgument(call: TSESTree.CallExpression, argument: TSESTree.Node, parameter: KeyParameter, source: ProgramSource): void {
      context.report({ node: argument, messageId: 'keyArgument', data: { ...describeSource(source), ...describeParameter(call, argument, parameter) } });
    }

    function reportFallback(call: TSESTree.CallExpression, argument: TSESTree.Node, parameter: KeyParameter, fallback: ConstantFallback): void {
      const data = {
        ...describeParameter(call, argument, parameter),
        fallback: codeSpan(describeNode(fallback.fallback, sourceCode)),
        primary: codeSpan(describeNode(fallback.primary, sourceCode)),
        ...describeFallbackPlace(fallback, argument),
        advice: fallbackAdvice(fallback, toolAt(argument), sourceCode),
      };
      context.report({ node: argument, messageId: 'constantFallbackArgument', data });
    }

    /** The key parameter an argument is for, and what makes it a key, for a message. */
    function describeParameter(call: TSESTree.CallExpression, argument: TSESTree.Node, parameter: KeyParameter): Record<string, string | number> {
      return {
        parameter: codeSpan(parameter.parameter),
        callee: codeSpan(describeNode(call.callee, sourceCode)),
        role: parameter.role,
        roleFile: displayFileName(parameter.fileName, fileName),
        roleLine: parameter.line,
        advice: adviceAt(argument),
      };
    }

    /** A fallback as a candidate's source, so that one fallback reaching nested sinks is reported once (its `kind` is not read: the report is the fallback's own). */
    function fallbackSource(fallback: ConstantFallback): ProgramSource {
      return { kind: 'random', description: describeNode(fallback.fallback, sourceCode), node: fallback.node, fileName };
    }

    function describeSource(source: ProgramSource): { source: string; file: string; line: number } {
      return { source: codeSpan(source.description), file: displayFileName(source.fileName, fileName), line: source.node.loc.start.line };
    }

    function check(node: TSESTree.Node): void {
      for (const position of judge.positionsAt(node)) checkPosition(position);
    }

    return {
      ...judge.listeners(check),
      CallExpression(node: TSESTree.CallExpression): void {
        check(node);
        if (node.arguments.length > 0) calls.push(node);
      },
      'Program:exit'(): void {
        for (const call of calls) checkCall(call);
        for (const candidate of selectOncePerProblem(candidates, syntacticSinks, fileName)) candidate.report();
      },
    };
  },
});

/**
 * The candidates to report, each problem once: not where `no-random-key` reports the same source at
 * a sink inside or around this one, and not twice for nested sinks of one source (the outer wins).
 */
function selectOncePerProblem(
  candidates: readonly Candidate[],
  syntacticSinks: ReadonlyMap<TSESTree.Node, readonly TSESTree.Node[]>,
  fileName: string,
): Candidate[] {
  const selected: Candidate[] = [];
  const ordered = [...candidates].sort((a, b) => a.sink.range[0] - b.sink.range[0] || b.sink.range[1] - a.sink.range[1]);
  for (const candidate of ordered) {
    if (selected.some((other) => isSameSource(other.source, candidate.source) && overlaps(other.sink, candidate.sink))) continue;
    if (isReportedBySyntacticRule(candidate, syntacticSinks, fileName)) continue;
    selected.push(candidate);
  }
  return selected;
}

function isReportedBySyntacticRule(
  candidate: Candidate,
  syntacticSinks: ReadonlyMap<TSESTree.Node, readonly TSESTree.Node[]>,
  fileName: string,
): boolean {
  if (candidate.source.fileName !== fileName) return false;
  for (const [source, sinks] of syntacticSinks) {
    if (sameRange(source, candidate.source.node) && sinks.some((sink) => overlaps(sink, candidate.sink))) return true;
  }
  return false;
}

/** `parts.push(x)` with `const parts = []`, `seen.add(x)` with `const seen = new Set()`: the standard library's. */
function hasBuiltInReceiver(sourceCode: Readonly<TSESLint.SourceCode>, callee: TSESTree.Node): boolean {
  const member = skipWrappers(callee, { optionalChains: true });
  if (member.type !== AST_NODE_TYPES.MemberExpression || member.object.type !== AST_NODE_TYPES.Identifier) return false;
  const value = getConstantInitializer(findVariableOf(member.object, sourceCode));
  const init = value && skipWrappers(value);
  if (!init) return false;
  if (init.type === AST_NODE_TYPES.ArrayExpression || init.type === AST_NODE_TYPES.ObjectExpression) return true;
  return init.type === AST_NODE_TYPES.NewExpression && resolveReference(sourceCode, init.callee)?.source === GLOBAL_SOURCE;
}

function isSameSource(a: ProgramSource, b: ProgramSource): boolean {
  return a.fileName === b.fileName && sameRange(a.node, b.node);
}

function sameRange(a: TSESTree.Node, b: TSESTree.Node): boolean {
  return a.range[0] === b.range[0] && a.range[1] === b.range[1];
}

/** One sink inside the other (or the same). */
function overlaps(a: TSESTree.Node, b: TSESTree.Node): boolean {
  return (a.range[0] <= b.range[0] && b.range[1] <= a.range[1]) || (b.range[0] <= a.range[0] && a.range[1] <= b.range[1]);
}
