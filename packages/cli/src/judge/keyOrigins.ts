import { codeSpan } from '../collect/analysis.js';
import type { FactoryArgumentFact, KeyFact, KeyOriginFact } from '../collect/facts.js';
import type { Evidence } from '../report.js';
import type { ToolAt, ToolLinks } from './links.js';
import { unreadCaveat, type UnreadContext } from './unread.js';

// Q2 for a key whose parts are derived but rest on something outside the tool's own code: the id of
// a run `openRun(...)` opens (durable: stored for its origin), or a parameter of the function that
// makes the tool, which only that function's calls can settle (`makeRefundTool(run)` with `run`
// from `openRun`, `makeTools({ runId: run.id })`). A call the audit cannot follow, or no call at
// all, leaves the key unknown; a call that passes a random or clock value makes it new on every
// attempt.

type Part = KeyFact['parts'][number];
type FactoryParameter = Extract<KeyOriginFact, { kind: 'factoryParameter' }>;

/** What the origins add to Q2: a `yes` keeps its verdict and gets `text` and `evidence` appended; `unknown` and `no` replace it. */
export type OriginJudgement =
  | { readonly verdict: 'yes'; readonly text: string; readonly evidence: readonly Evidence[] }
  | { readonly verdict: 'no' | 'unknown'; readonly reason: string; readonly evidence: readonly Evidence[] };

interface OriginContext extends UnreadContext {
  readonly at: ToolAt;
  readonly links: ToolLinks;
  readonly relative: (file: string) => string;
}

/** Judges the origins of a deterministic key's parts; undefined when they have none. */
export function judgeKeyOrigins(context: OriginContext, parts: readonly Part[]): OriginJudgement | undefined {
  const origins = parts.flatMap((part) => part.origins);
  if (origins.length === 0) return undefined;
  const file = context.relative(context.at.file);
  const opened = unique(origins.filter((origin) => origin.kind === 'openRun').map((origin) => ({ file, line: origin.line, text: origin.text })));
  const parameters = uniqueParameters(origins.filter((origin): origin is FactoryParameter => origin.kind === 'factoryParameter'));
  const openedText = opened.length > 0 ? `; the run is the one ${codeSpan(opened[0]?.text ?? '')} opens (line ${opened.map((site) => site.line).join(', ')}), whose id is stored for its origin` : '';
  if (parameters.length === 0) return { verdict: 'yes', text: openedText, evidence: opened };
  const [first] = parameters as [FactoryParameter, ...FactoryParameter[]];
  const factory = first.factory ? codeSpan(first.factory) : 'the function';
  const reads = `${codeSpan(first.text)} reads a parameter of ${factory} (line ${first.factoryLine}), which makes the tool`;
  const calls = context.links.factoryCalls;
  if (calls.length === 0) {
    return {
      verdict: 'unknown',
      reason: `${reads}, and no call of it in the scanned source files gives it the id of a run \`openRun\` opens (or a random value): whether the key is the same on a retry depends on what its callers pass${unreadCaveat(context, 'a call of it')}`,
      evidence: [{ file, line: first.factoryLine, text: first.factory ?? first.text }],
    };
  }
  const given: { readonly call: Evidence; readonly parameter: FactoryParameter; readonly argument: FactoryArgumentFact | undefined }[] = [];
  for (const { file: callFile, call } of calls) {
    const site = { file: context.relative(callFile), line: call.line, text: call.text };
    for (const parameter of parameters) given.push({ call: site, parameter, argument: argumentAt(call.args, parameter) });
  }
  const random = given.find((entry) => entry.argument?.k === 'random');
  if (random?.argument?.k === 'random') {
    const source = random.argument;
    return {
      verdict: 'no',
      reason: `${reads}; the call at ${at(random.call)} gives it ${codeSpan(source.text)} (line ${source.line}), which is new each time the tool is made: a resumed run or a redelivered job makes it again with a new key and runs the effect again`,
      evidence: [random.call, { file: random.call.file, line: source.line, text: source.text }],
    };
  }
  const unfollowed = given.find((entry) => entry.argument?.k !== 'runId' && entry.argument?.k !== 'literal');
  if (unfollowed) {
    const what = unfollowed.argument && 'text' in unfollowed.argument ? codeSpan(unfollowed.argument.text) : 'a value whose shape the audit cannot read';
    return {
      verdict: 'unknown',
      reason: `${reads}; the call at ${at(unfollowed.call)} gives it ${what}, which the audit cannot follow to durable state (the id of a run \`openRun\` opens, or a literal)`,
      evidence: [unfollowed.call],
    };
  }
  const runs = unique(given.flatMap((entry) => (entry.argument?.k === 'runId' ? [{ file: entry.call.file, line: entry.argument.line, text: entry.argument.text }] : [])));
  const callSites = unique(given.map((entry) => entry.call));
  const what = runs.length > 0 ? `the id of the run ${codeSpan(runs[0]?.text ?? '')} opens (${runs.map(at).join(', ')}), stored for its origin` : 'a literal';
  const every = callSites.length === 1 ? `its call at ${at(callSites[0] as Evidence)} gives it` : `each of its ${callSites.length} calls (${callSites.map(at).join(', ')}) gives it`;
  return { verdict: 'yes', text: `${openedText}; ${reads}, and ${every} ${what}`, evidence: [...opened, ...callSites, ...runs] };
}

/** What a call passes where `parameter` reads it: the argument at its index, followed down its path. */
function argumentAt(args: readonly FactoryArgumentFact[], parameter: FactoryParameter): FactoryArgumentFact | undefined {
  if (parameter.path === null || parameter.index < 0) return undefined;
  let current = args[parameter.index];
  for (const name of parameter.path) {
    if (current?.k === 'object') current = current.props[name];
    else if (current?.k === 'run' && name === 'id') current = { ...current, k: 'runId' };
    else return current && { k: 'other', text: 'text' in current ? `${current.text}.${name}` : name };
  }
  // The run itself (not its id) in a key is "[object Object]" on every run.
  return current?.k === 'run' ? { k: 'other', text: current.text } : current;
}

function at(site: Evidence): string {
  return `${site.file}:${site.line}`;
}

function unique(sites: readonly Evidence[]): Evidence[] {
  const seen = new Set<string>();
  return sites.filter((site) => {
    const id = `${site.file}:${site.line}:${site.text}`;
    return !seen.has(id) && seen.add(id);
  });
}

function uniqueParameters(parameters: readonly FactoryParameter[]): FactoryParameter[] {
  const seen = new Set<string>();
  return parameters.filter((parameter) => {
    const id = `${parameter.index}:${parameter.path?.join('.') ?? '?'}`;
    return !seen.has(id) && seen.add(id);
  });
}
