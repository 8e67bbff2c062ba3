import { codeSpan, CURRENT_CALL_SETTERS } from '../collect/analysis.js';
import type { KeyFact, PolicyFact, ToolFact } from '../collect/facts.js';
import type { Answer, Evidence, QuestionId, RuleFinding, Severity } from '../report.js';
import { judgeKeyOrigins } from './keyOrigins.js';
import type { StoreAt, UnseenStore } from '../link.js';
import type { RunnerAt, TestAt, ToolAt, ToolLinks } from './links.js';
import { describeUnread, mayHoldTests, unreadCaveat } from './unread.js';

// The verdict rules for the seed's five questions (docs/audit.md lists them). Each `yes` and `no`
// names its evidence; where the code does not show an answer the verdict is `unknown`, never a guess.

/** What a question's judgement gets: the tool, its links, and how to name a file. */
export interface JudgeContext {
  readonly at: ToolAt;
  readonly links: ToolLinks;
  readonly unresolvedTests: readonly TestAt[];
  readonly testFiles: number;
  /** The files that could not be parsed, relative to the root: an answer resting on what the scanned files lack says it may be incomplete. */
  readonly unparsed: readonly string[];
  readonly relative: (file: string) => string;
  /** The plugin's findings of the same run (Q1 names a no-contradicted-policy finding on the tool's declaration). */
  readonly findings: readonly RuleFinding[];
  /** The declaration the handler's effects contradict ({@link findEffectsContradiction}), worked out once per tool. */
  readonly contradiction: EffectsContradiction | undefined;
}

/** A declaration the handler's effects contradict: Q1's words for it and the evidence (the declaration, or the rule's finding on it). */
export interface EffectsContradiction {
  /** The declared claim, in the report's words (`` `idempotent: true` ``, `` read-only `readOnlyHint: true` ``). */
  readonly claim: string;
  /** What Q1 appends to its reason: the claim, the declaration's line and the rule's finding on it, if any. */
  readonly text: string;
  readonly evidence: Evidence;
}

const answer = (verdict: Answer['verdict'], reason: string, evidence: readonly Evidence[] = []): Answer => ({ verdict, reason, evidence });
const no = (severity: Severity, reason: string, evidence: readonly Evidence[] = []): Answer => ({ verdict: 'no', reason, severity, evidence });

/** `side_effects: 'none'`: the questions about keys, replays, records and tests do not apply. */
function declaredRead(policy: PolicyFact | null): Answer | undefined {
  if (policy?.side_effects !== 'none') return undefined;
  // Said in the declaration's own words: an MCP tool states it with its read-only hint.
  const declared = policy.via === 'annotations' ? 'declared read-only (`readOnlyHint: true`)' : "declared without side effects (`side_effects: 'none'`)";
  return answer('n/a', `${declared}; question 1 checks that against the handler`);
}

/** A declared class in the declaration's own words: an MCP tool states it with its `idempotentHint`. */
function declaredClass(policy: PolicyFact | null, value: boolean): string {
  return policy?.via === 'annotations' ? codeSpan(`idempotentHint: ${value}`) : codeSpan(`idempotent: ${value}`);
}

/** `declared not safely repeatable (`idempotent: false`)`, in the declaration's words. */
const notRepeatable = (policy: PolicyFact | null): string => `declared not safely repeatable (${declaredClass(policy, false)})`;

/**
 * Q1: what a second identical call does: replayed, where a record keyed deterministically or a guard
 * dedupes it; otherwise what the effects analysis of the handler implies (issue 10's `inferPolicy`):
 * a relative change or a create without a key runs again (no: an error against a declaration that
 * says otherwise, a warning where the tool is declared not safely repeatable); only reads and
 * absolute writes reach the same end state (yes); anything else is unknown.
 */
export function judgeCalledTwiceEffect(context: JudgeContext): Answer {
  const { tool } = context.at;
  const here = (line: number, text: string): Evidence => ({ file: context.relative(context.at.file), line, text });
  // A guard keys every call itself; a server with enableIdempotency dedupes only calls that carry a key.
  // A guard dedupes consequential calls only: a naturally idempotent tool runs again (docs/frameworks.md).
  const refused = refusingGuardOf(context);
  if (refused) return answer('unknown', `${refusedReason(refused)}; until then the guard dedupes nothing for it`, [plain(refused)]);
  const dedup = tool.policy?.idempotent === true ? undefined : guardOf(context);
  if (dedup) return answer('yes', `a repeat is answered from the record (${codeSpan(dedup.via)}, ${dedup.file}:${dedup.line}), so the handler runs once`, [plain(dedup)]);
  if (tool.framework === 'retrysafe' && tool.policy?.idempotent === 'with_key' && tool.key.status === 'deterministic') {
    const site = tool.replay.site ?? { line: tool.line, text: 'defineTool(…)' };
    const replays = 'the runner replays the first result for a repeat with the same key';
    // Question 2's judgement, as it is: a key whose parts read a factory's parameter is only as stable as what the factory is given.
    const key = judgeKey(context);
    if (key.verdict === 'yes') return answer('yes', `${replays} (a deterministic key, question 2), so the handler runs once`, [here(site.line, site.text)]);
    // One key for every call: a repeat carries it too, and is replayed (different calls sharing it is question 2's fault).
    if (key.verdict === 'no' && key.severity === 'error' && isOneKeyForEveryCall(context)) return answer('yes', `${replays} (a repeat carries the same key, as every other call of the tool does: question 2), so the handler runs once`, [here(site.line, site.text)]);
    if (key.verdict === 'no' && key.severity === 'error') return no('error', `a second call runs the handler again: ${replays}, but the key is not the same on a repeat (question 2: ${key.reason})`, [here(site.line, site.text), ...key.evidence]);
    return answer('unknown', `${replays}, but whether the key is the same on a repeat is not known (question 2: ${key.reason})`, [here(site.line, site.text), ...key.evidence]);
  }
  const effects = tool.effects;
  if (!effects) return answer('unknown', 'the handler is not in this file, so what it does is not visible');
  const inferred = inferredPolicyOf(context);
  const evidence = effects.operations
    .slice(0, 5)
    .map((operation) => ({ file: context.relative(operation.file ?? context.at.file), line: operation.line, column: operation.column, text: operation.text }));
  const { contradiction } = context;
  const withClaim = contradiction ? [...evidence, contradiction.evidence] : evidence;
  if (inferred && !inferred.idempotent) {
    const honest = tool.policy?.idempotent === false;
    return no(honest ? 'warning' : 'error', `a second call runs it again: ${inferred.reason}${honest ? ' (as declared: not safely repeatable)' : ''}${contradiction?.text ?? ''}`, withClaim);
  }
  if (inferred?.idempotent) {
    // Only a read-only claim is contradicted by effects that repeat safely (writes). The repeat is
    // harmless, the declaration is not: a client that trusts it runs the tool without asking and
    // retries it freely, so it is a `no`, not a green `yes` beside "(contradicted)"; the reason
    // leads with that, not with the harmless repeat.
    if (contradiction) {
      return no(
        'error',
        `the declaration is not true: ${inferred.reason}${contradiction.text}; a client or loop that trusts it runs the tool without asking and retries it freely (a second call itself reaches the same end state)`,
        withClaim,
      );
    }
    return answer('yes', `a second call reaches the same end state: ${inferred.reason}`, withClaim);
  }
  const keyed = judgeKeyedCreates(context, evidence);
  if (keyed) return keyed;
  if (effects.operations.length === 0 && effects.complete) {
    // Every call the handler makes is known and none is an effect (a computation, a lookup in memory).
    const site = tool.replay.site ?? { line: tool.line, text: tool.name ?? 'the tool' };
    // Declared not safely repeatable: absence from the catalogue is no evidence against the author's
    // word (an in-memory ledger, a client the analysis does not know), so the declaration answers,
    // as question 2 does (new-user trial 6: Q1 yes beside Q2 "every repeat runs the effect again").
    if (tool.policy?.idempotent === false) {
      return no('warning', `a second call runs it again, as ${notRepeatable(tool.policy)}: the handler reaches no effect the effects analysis knows, which does not show it has none`, [here(site.line, site.text)]);
    }
    return answer('yes', 'a second call does what the first did and nothing more: the handler reaches no effect (every call it makes is known, and none is one)', [here(site.line, site.text)]);
  }
  return answer('unknown', effects.complete ? 'the handler\'s effects do not settle it (a write whose kind is not known)' : 'not every call the handler makes is known to the effects analysis', evidence);
}

const WRITES = new Set(['absolute', 'create', 'relative', 'write']);
const SAME_END_STATE = new Set(['read', 'absolute']);

/**
 * Q1 for a handler whose creates pass an idempotency key to the provider (Stripe's
 * `idempotencyKey`, the IETF draft's `Idempotency-Key` header): the provider answers a repeat with
 * the same key from its own record, so a second call runs the create once if and only if the key
 * is the same on a repeat. That is question 2's judgement ({@link judgeKey}), taken as it is so
 * that the two cannot disagree: "no" where Q2 finds the key new on every attempt; "yes" only where
 * Q2 says yes, every call is known, every create is keyed and the rest are reads or absolute
 * writes; otherwise "unknown", with Q2's reason. Undefined where the handler has no keyed create,
 * or another effect decides.
 */
function judgeKeyedCreates(context: JudgeContext, evidence: readonly Evidence[]): Answer | undefined {
  const { effects } = context.at.tool;
  if (!effects) return undefined;
  const creates = effects.operations.filter((operation) => operation.kind === 'create');
  const keyed = creates.filter((operation) => operation.keyPassed === 'yes');
  const [first] = keyed;
  if (!first) return undefined;
  const passed = `${codeSpan(first.text)} (line ${first.line}) passes the provider an idempotency key`;
  const key = judgeKey(context);
  const withKey = [...evidence, ...key.evidence];
  // A key new on every attempt makes the provider see a new request: the create runs again,
  // whatever else the handler does.
  // A constant fallback is the same key on a repeat: its fault (one key for different calls) is
  // question 2's, not a second create.
  if (key.verdict === 'no' && key.severity === 'error' && !isOneKeyForEveryCall(context)) {
    return no('error', `a second call runs the create again: ${passed}, but the key is not the same on a repeat (question 2: ${key.reason})`, withKey);
  }
  if (!effects.complete || keyed.length !== creates.length) return undefined;
  if (!effects.operations.every((operation) => operation.kind === 'create' || SAME_END_STATE.has(operation.kind))) return undefined;
  // One key for every call is the same on a repeat too: the provider answers the repeat (its fault is question 2's).
  const sameOnRepeat = key.verdict === 'yes' || isOneKeyForEveryCall(context);
  const keyIs = key.verdict === 'yes' ? 'derived from the work (question 2)' : 'the same on a repeat, one key for every call (question 2)';
  if (sameOnRepeat) {
    // A generic HTTP endpoint is sent the key; whether it dedupes by it is its choice (the IETF
    // draft), so a yes would claim more than the code shows: a warning naming what it does show.
    const sent = keyed.find((operation) => operation.sentKey !== undefined && operation.sentKey.honouredBy === undefined);
    if (sent?.sentKey) {
      return no(
        'warning',
        `a second call sends the request again, with the same key: ${sentKeyText(sent)}, ${keyIs}; whether that server answers a repeat from a record of the key is the server's choice (the IETF Idempotency-Key draft leaves it to the server), which the code does not show (question 4), so the create may run again (a provider known to honour its key, Stripe's \`idempotencyKey\` or one configured in \`providers\`, would be a yes)`,
        evidence,
      );
    }
    const honoured = first.sentKey?.honouredBy;
    const named = honoured && first.sentKey ? `${sentKeyText(first)} (${honoured} documents deduplicating by it on that API)` : passed;
    return answer('yes', `the provider answers a repeat from its own record: ${named}, ${keyIs}, so the create runs once`, evidence);
  }
  return answer('unknown', `${passed}, but whether it is the same on a repeat is not known (question 2: ${key.reason})`, withKey);
}

/** `` `fetch (POST)` (line 9) sends the key in its `Idempotency-Key` header to `https://…` ``: what the code shows of a key sent to a generic HTTP endpoint. */
function sentKeyText(operation: NonNullable<ToolFact['effects']>['operations'][number]): string {
  const to = operation.sentKey?.url ? ` to ${codeSpan(operation.sentKey.url)}` : '';
  return `${codeSpan(operation.text)} (line ${operation.line}) sends the key in its ${codeSpan(operation.sentKey?.header ?? 'Idempotency-Key')} header${to}`;
}

/** The policy the effects analysis infers for the handler; its reason names an operation in another file with its file. */
function inferredPolicyOf(context: Pick<JudgeContext, 'at' | 'relative'>): NonNullable<ToolFact['effects']>['inferred'] | undefined {
  const found = context.at.tool.effects?.inferred;
  return found?.at ? { ...found, reason: found.reason.replace(`line ${found.at.line}`, `${context.relative(found.at.file)}:${found.at.line}`) } : found;
}

/**
 * The declaration the handler's effects contradict, as `no-contradicted-policy` judges it: declared
 * read-only (`side_effects: 'none'`, MCP `readOnlyHint: true`) while the handler writes, or declared
 * naturally idempotent (`idempotent: true`) while a second call runs its effect again (and the
 * handler looks no deduplication key up). The rule's finding on the declaration, when the run has
 * one, is named with its line.
 */
export function findEffectsContradiction(context: Omit<JudgeContext, 'contradiction'>): EffectsContradiction | undefined {
  const { tool } = context.at;
  const inferred = inferredPolicyOf(context);
  const { policy, effects } = tool;
  if (!policy || !effects) return undefined;
  let claim: string | undefined;
  if (policy.side_effects === 'none' && effects.operations.some((operation) => WRITES.has(operation.kind))) {
    claim = `read-only ${policy.via === 'annotations' ? '`readOnlyHint: true`' : "`side_effects: 'none'`"}`;
  } else if (policy.idempotent === true && inferred && !inferred.idempotent && effects.keyLookupLine === null) {
    claim = declaredClass(policy, true);
  }
  if (!claim) return undefined;
  const file = context.relative(context.at.file);
  const finding = context.findings.find(
    (candidate) => /\/no-contradicted-policy(-type-checked)?$/.test(candidate.ruleId) && candidate.file === file && candidate.line >= policy.line && candidate.line <= policy.endLine,
  );
  // The claim's own line where the rule points at it (the policy's first line is the call's: a
  // second, different line beside it read as a disagreement in new-user trial 6).
  const reported = finding ? `, where ${codeSpan(finding.ruleId)} reports it` : '';
  return {
    claim,
    text: `, which contradicts the declared ${claim} (line ${finding?.line ?? policy.line}${reported})`,
    evidence: { file, line: finding?.line ?? policy.line, text: policy.text },
  };
}

/** A rule message's first sentence (what it found, without its advice). */
function firstSentence(message: string): string {
  const end = message.search(/\.\s/);
  return end === -1 ? message.replace(/\.$/, '') : message.slice(0, end);
}

/** The rules whose finding on a key says it is new on every attempt. */
const RANDOM_KEY_RULES = /\/no-random-key(-type-checked)?$/;

/**
 * A finding of `no-random-key` (or its type-aware twin) of the same run on a part of the tool's key
 * that the key tracer could not follow (`key.status` unknown: a call of a helper in another file),
 * with that part; `undefined` when there is none.
 */
function randomKeyFinding(context: JudgeContext): { readonly finding: RuleFinding; readonly part: { readonly line: number; readonly text: string } } | undefined {
  const { key } = context.at.tool;
  if (key.status !== 'unknown') return undefined;
  const file = context.relative(context.at.file);
  for (const part of key.parts) {
    // The rule's finding on a constant fallback says one key for every call, not a new one per attempt.
    if (part.derived || part.fallback) continue;
    const finding = context.findings.find((candidate) => RANDOM_KEY_RULES.test(candidate.ruleId) && candidate.file === file && candidate.line === part.line);
    if (finding) return { finding, part };
  }
  return undefined;
}

/** The first part of the tool's key that falls back to a constant (`currentCall()?.key ?? ''`), if any. */
function constantFallbackPart(context: Pick<JudgeContext, 'at'>): KeyFact['parts'][number] | undefined {
  return context.at.tool.key.parts.find((part) => part.fallback);
}

/**
 * Whether question 2's `no` is one key for every call (a constant fallback, or a key that is a
 * constant): a repeat then carries the same key, so questions 1 and 4 do not read it as a key new
 * on every attempt; its fault, different calls sharing one key, is question 2's.
 */
function isOneKeyForEveryCall(context: Pick<JudgeContext, 'at'>): boolean {
  return context.at.tool.key.parts.some((part) => part.fallback || part.constant);
}

/** Code as written at a line of the tool's file. */
type Written = { readonly line: number; readonly text: string };

/** Q2: the key tracer's verdict on every key position in the tool's definition and handler. */
export function judgeKey(context: JudgeContext): Answer {
  const { tool } = context.at;
  const here = (line: number, text: string): Evidence => ({ file: context.relative(context.at.file), line, text });
  const { key, policy } = tool;
  if (key.status === 'nondeterministic') {
    const [first] = key.sources;
    const described = key.sources.map((source) => `${codeSpan(source.text)} (line ${source.line})`).join(', ');
    return no('error', `the key is built from ${described}, which is new on every attempt: a retry gets a new key and runs the effect again`, first ? key.sources.map((s) => here(s.line, s.text)) : []);
  }
  // One constant for every call that lacks the real key: the fallback alone is the evidence,
  // whatever the primary is (a guard's key, an input field), as no-random-key reports it.
  // One key for every call (or every call without the real one): the key and the constant, each where it is.
  const oneKey = (part: Written, constant: Written & { readonly key: string | number }, what: string, calls: string): Answer =>
    no(
      'error',
      `the key ${codeSpan(part.text)} (line ${part.line}) ${what}: ${calls} sends the same key, ${JSON.stringify(constant.key)}, so a later, different call gets the first one's result instead of its own effect (or the provider rejects the reused key)`,
      [here(part.line, part.text), ...(constant.line === part.line ? [] : [here(constant.line, constant.text)])],
    );
  const fallback = constantFallbackPart(context);
  if (fallback?.fallback) {
    const { fallback: constant } = fallback;
    return oneKey(fallback, constant, `falls back to the constant ${codeSpan(constant.text)} when ${codeSpan(constant.primary)} is missing (line ${constant.line})`, 'every call without it');
  }
  // A key that is a constant outright: one key for every call, as require-key-passthrough reports it in a with_key handler.
  const constantPart = key.parts.find((part) => part.constant);
  if (constantPart?.constant) {
    const { constant } = constantPart;
    return oneKey(constantPart, constant, `is ${constant.text === constantPart.text ? 'a constant' : `the constant ${codeSpan(constant.text)} (line ${constant.line})`}`, 'every call');
  }
  const read = declaredRead(policy);
  if (read && key.status === 'none') return read;
  if (key.status === 'deterministic') {
    const shown = keyPartsShown(key);
    const parts = shown.map((part) => codeSpan(part.text)).join(', ');
    const partEvidence = shown.map((part) => here(part.line, part.text));
    // A part that reads a factory's parameter (or a run `openRun` opens) is as durable as what it is given.
    const origins = judgeKeyOrigins(context, shown);
    if (origins?.verdict === 'no') return no('error', `the key comes from ${parts}: ${origins.reason}`, [...partEvidence, ...origins.evidence]);
    if (origins?.verdict === 'unknown') return answer('unknown', `the key comes from ${parts}: ${origins.reason}`, [...partEvidence, ...origins.evidence]);
    const suffix = origins?.verdict === 'yes' ? origins.text : '';
    const caveat = runnerKeyCaveat(context, shown);
    // The guard's key with no guard or server running the tool in the scanned code: the key is
    // `undefined` there, so not a yes (new-user trial 6: "yes … the key is undefined").
    if (caveat.unset) return answer('unknown', `the key comes from ${parts}, the key of the call a guard runs${caveat.text}`, [...partEvidence, ...(origins?.evidence ?? [])]);
    return answer('yes', `derived from ${parts}: the same on every attempt, resume and redelivery${suffix}${caveat.text}`, [...partEvidence, ...(origins?.evidence ?? [])]);
  }
  if (key.status === 'unknown') {
    // The type-aware rule follows a helper into another file, which the audit's key tracer does not:
    // its finding on a part of the key is the evidence that the key is new on every attempt.
    const random = randomKeyFinding(context);
    if (random) {
      return no('error', `the key comes from ${codeSpan(random.part.text)} (line ${random.part.line}), which ${codeSpan(random.finding.ruleId)} traces to a value new on every attempt (${firstSentence(random.finding.message)}), so a retry runs the effect again`, [here(random.part.line, random.part.text)]);
    }
    const hidden = key.parts.filter((part) => !part.derived);
    const named = hidden.map((part) => `${codeSpan(part.text)} (line ${part.line})`).join(', ');
    return answer(
      'unknown',
      `the key comes from ${named}, which is not visibly derived from the work (a literal, a parameter or a field of one, \`vouchDurable(…)\`, or a \`const\` of those): whether it is the same on a retry is not in the code the audit can follow`,
      hidden.map((part) => here(part.line, part.text)),
    );
  }
  if (policy?.idempotent === true) return answer('n/a', `declared naturally idempotent (${declaredClass(policy, true)}): a repeat needs no key`);
  const refused = refusingGuardOf(context);
  if (refused) return answer('unknown', `${refusedReason(refused)}; until then no call of it is keyed`, [plain(refused)]);
  const guard = guardOf(context);
  if (guard) return answer('yes', `guarded by ${codeSpan(guard.via)} (${guard.file}:${guard.line}), which keys each call by the durable run, the tool and the canonical arguments (\`callKey\`)`, [plain(guard)]);
  const wire = wireOf(context);
  if (wire) {
    return answer('unknown', `its server takes the key from the caller (\`_meta["io.github.retrysafe/idempotencyKey"]\`, \`enableIdempotency\` at ${wire.file}:${wire.line}): whether the client derives it from the work is not in this code`, [wire]);
  }
  if (policy?.idempotent === false) return no('warning', `${notRepeatable(tool.policy)}: it takes no key, so every repeat runs the effect again`);
  if (policy?.idempotent === 'with_key') return answer('unknown', "declared `idempotent: 'with_key'`, but no key position in its definition or handler is visible");
  return undeclaredWithoutKey(context) ?? answer('unknown', 'no declared policy, and no key in its definition or handler');
}

/**
 * `currentCall()?.key` is the guard's key for the call: `currentCall()` is set only inside a call a
 * guard or an MCP server's `enableIdempotency` runs (`CURRENT_CALL_SETTERS`, the same data that
 * recognises them), and is `undefined` anywhere else, so a tool run without one passes no key at
 * all. Said in Q2's reason, with the guard or the server when one is linked.
 */
function runnerKeyCaveat(context: JudgeContext, parts: readonly { readonly text: string }[]): { readonly text: string; readonly unset?: true } {
  if (!parts.some((part) => /^currentCall\(\)/.test(part.text))) return { text: '' };
  const guard = anyGuardOf(context);
  if (guard) return { text: `; \`currentCall()\` is set by the guard (${codeSpan(guard.via)}, ${guard.file}:${guard.line}) for each call it runs` };
  const wire = wireOf(context);
  if (wire) return { text: `; \`currentCall()\` is set by its server's \`enableIdempotency\` (${wire.file}:${wire.line}) for each call it runs` };
  const setters = CURRENT_CALL_SETTERS.map((name) => codeSpan(name)).join(', ');
  return { text: `; but \`currentCall()\` is set only inside a call one of ${setters} runs, and none of them runs this tool in the scanned code: called outside one, the key is \`undefined\` and the provider gets none`, unset: true };
}

/** The parts question 2 judges: a `key` function's are the key (the handler then only passes it on, or passes its own), else all of them. */
function keyPartsShown(key: KeyFact): KeyFact['parts'] {
  const fromKeyFunction = key.parts.filter((part) => part.inKeyFunction);
  return fromKeyFunction.length > 0 ? fromKeyFunction : key.parts;
}

/**
 * The part of a deterministic key that is `currentCall()?.key` where nothing scanned sets it
 * ({@link runnerKeyCaveat}'s `unset`: question 2's unknown, "the key is `undefined`"), for a key
 * without a constant fallback (one key for every call is question 2's no, and is never undefined).
 */
function unsetRunnerKey(context: JudgeContext): KeyFact['parts'][number] | undefined {
  const { key } = context.at.tool;
  if (key.status !== 'deterministic' || key.parts.some((part) => part.fallback || part.constant)) return undefined;
  const shown = keyPartsShown(key);
  // Question 2 answers from the key's origins first (a factory's parameter): only its caveat's unknown is this one.
  const origins = judgeKeyOrigins(context, shown)?.verdict;
  if (origins === 'no' || origins === 'unknown' || !runnerKeyCaveat(context, shown).unset) return undefined;
  return shown.find((part) => /^currentCall\(\)/.test(part.text));
}

/** Q3: the runner's `replayed`, or a replay flag in what the handler returns. */
export function judgeReplayFlag(context: JudgeContext): Answer {
  const { tool } = context.at;
  const read = declaredRead(tool.policy);
  if (read) return read;
  const idempotent = tool.policy?.idempotent;
  if (idempotent === true) return answer('n/a', `declared naturally idempotent (${declaredClass(tool.policy, true)}): a repeat reaches the same end state, so there is nothing to tell apart`);
  const site = tool.replay.site;
  const evidence = site ? [{ file: context.relative(context.at.file), line: site.line, text: site.text }] : [];
  const refused = refusingGuardOf(context);
  if (refused) return answer('unknown', `${refusedReason(refused)}; until then no result of it is flagged \`replayed\``, [plain(refused)]);
  const guard = guardOf(context);
  if (guard) return answer('yes', `guarded by ${codeSpan(guard.via)} (${guard.file}:${guard.line}): a repeat in the run gets the first result, flagged \`replayed: true\``, [plain(guard)]);
  const wire = wireOf(context);
  if (wire) return answer('yes', `its server deduplicates keyed calls (\`enableIdempotency\`, ${wire.file}:${wire.line}): a repeat with the same key gets the first result with \`_meta["io.github.retrysafe/replayed"]: true\``, [wire]);
  if (idempotent === false) return no('warning', `${notRepeatable(tool.policy)}: nothing records the first call, so a repeat cannot answer "already done"`, evidence);
  switch (tool.replay.kind) {
    case 'runner':
      return answer('yes', 'a `defineTool` tool: the runner (and every adapter) answers `{ result, replayed }`, with `replayed: true` for a repeat with the same key', evidence);
    case 'flag':
      return answer('yes', `the handler returns a replay flag (${codeSpan(site?.text ?? 'replayed')}, line ${site?.line ?? '?'})`, evidence);
    case 'none':
      return no('warning', 'nothing the handler returns flags a replay (`replayed: true`): after a repeat the model cannot tell "did it" from "already done"', evidence);
    case 'unknown':
      return answer('unknown', 'the handler is not defined in the same file, so what it returns is not visible');
  }
}

/**
 * The guard (`guardAiSdkTools(tools, { runner })` ...) a framework tool is handed to, if any. A guard
 * protects declared tools only: one that declares no policy makes it throw (see {@link refusingGuardOf}).
 */
function guardOf(context: JudgeContext): GuardAt | undefined {
  if (context.at.tool.policy === null) return undefined;
  return anyGuardOf(context);
}

/** A guard call: where it is, the call as written (the evidence's text) and the guard's name (`via`, the reasons' words). */
type GuardAt = Evidence & { readonly via: string };

/** The evidence of a guard call: the call as written, at its line. */
const plain = ({ file, line, text }: GuardAt): Evidence => ({ file, line, text });

/** The guard call a tool is handed to, if any. */
function anyGuardOf(context: JudgeContext): GuardAt | undefined {
  const found = context.links.uses.find(({ use }) => use.collection);
  return found && { file: context.relative(found.file), line: found.use.line, text: found.use.text, via: found.use.via };
}

/**
 * The guard an undeclared tool is handed to: the spec's guards read each tool's declared policy and
 * throw a TypeError for a tool that declares none (guardShared's `declaredPolicyOf`), so the guard
 * dedupes nothing for it, it refuses the whole set at run time.
 */
function refusingGuardOf(context: JudgeContext): GuardAt | undefined {
  return context.at.tool.policy === null ? anyGuardOf(context) : undefined;
}

function refusedReason(guard: GuardAt): string {
  return `it is passed to ${codeSpan(guard.via)} (${guard.file}:${guard.line}), which protects declared tools only: for a tool that declares no policy it throws a TypeError at run time. Declare a policy (\`declarePolicy\`)`;
}

/** The `enableIdempotency(server, { runner })` of the MCP server a tool is registered on, if any. */
function wireOf(context: JudgeContext): Evidence | undefined {
  const found = context.links.uses.find(({ use }) => use.via === 'enableIdempotency');
  return found && { file: context.relative(found.file), line: found.use.line, text: found.use.text };
}

/** Q4: the store of the runner that runs the tool, or the keyed provider that dedupes it. */
export function judgeDurableRecord(context: JudgeContext): Answer {
  const { tool } = context.at;
  const read = declaredRead(tool.policy);
  if (read) return read;
  if (tool.policy?.idempotent === true) return answer('n/a', `declared naturally idempotent (${declaredClass(tool.policy, true)}): no dedup record is needed`);
  const refused = refusingGuardOf(context);
  if (refused) return answer('unknown', `${refusedReason(refused)}; until then the guard's runner keeps no record of it`, [plain(refused)]);
  // A guard, and a server that deduplicates keyed calls, keep a not-safely-repeatable call's result too.
  const kept = guardOf(context) ?? wireOf(context);
  if (tool.policy?.idempotent === false && !kept) return no('warning', `${notRepeatable(tool.policy)}: there is no dedup record`);
  const runners = context.links.uses.flatMap((use) => use.runners);
  if (runners.length > 0) return withUses(judgeRunners(runners, context), context);
  if (context.links.uses.length > 0) {
    const use = context.links.uses.find((candidate) => candidate.use.runnerConditional !== undefined) ?? context.links.uses[0];
    const where = use ? `${context.relative(use.file)}:${use.use.line}` : '';
    const conditional = use?.use.runnerConditional;
    const why = conditional
      ? `its options are chosen by a conditional (${codeSpan(conditional)}) whose branches do not name the same runner binding`
      : 'its runner is not one the audit can follow to its construction (a parameter, or a value from outside the scanned code)';
    return answer('unknown', `a runner call of it exists (${codeSpan(use?.use.via ?? 'a runner')}, ${where}), but ${why}, so its store cannot be seen`, use ? [{ file: context.relative(use.file), line: use.use.line, text: use.use.text }] : []);
  }
  return judgeProviderRecord(tool, context);
}

/**
 * Question 4's answer from the runners, with the calls that hand the tool to them as evidence after
 * the stores: the guard (`guardAiSdkTools({ … }, { runner })`, its line), the adapter or the
 * `runner.call`, each where it is in the code, so that the evidence is the call the tool goes
 * through. A guarded tool's reason says it is guarded first (new-user trial 4: a guarded AI SDK
 * tool's answer named only the store).
 */
function withUses(found: Answer, context: JudgeContext): Answer {
  // One per line where the tool is handed on, at most three.
  const byLine = new Map<string, Evidence>();
  for (const { file, use, runners } of context.links.uses) {
    const evidence = { file: context.relative(file), line: use.line, text: use.text };
    if (runners.length > 0 && !byLine.has(`${evidence.file}:${evidence.line}`)) byLine.set(`${evidence.file}:${evidence.line}`, evidence);
  }
  const uses = [...byLine.values()].slice(0, 3);
  const guard = guardOf(context);
  const reason = guard ? `guarded by ${codeSpan(guard.via)} (${guard.file}:${guard.line}): ${found.reason}` : found.reason;
  return { ...found, reason, evidence: [...found.evidence, ...uses] };
}

/**
 * Q4 over every runner that runs the tool: each is judged, and the answer is the weakest one's (a
 * yes only when every runner's store is durable), named with its file and line; the others are
 * counted after it. Weakest first: a store that does not outlive the process (no); a Redis whose
 * persistence check is off (`allowVolatile`), whose records outlive a restart only if the server
 * keeps them; a store that is not visible; a durable store.
 */
function judgeRunners(runners: readonly RunnerAt[], context: JudgeContext): Answer {
  const seen = new Set<string>();
  const judged = runners
    .filter(({ file, runner }) => !seen.has(`${file}:${runner.line}`) && seen.add(`${file}:${runner.line}`))
    .map((at) => judgeRunner(at, context))
    .sort((a, b) => a.rank - b.rank);
  const [weakest] = judged;
  if (!weakest) return answer('unknown', 'no runner of it is visible');
  const evidence = judged.flatMap(({ evidence }) => evidence);
  const durable = judged.filter(({ rank }) => rank === RANK.durable);
  if (weakest.rank === RANK.durable) {
    const stores = [...new Set(durable.map(({ store }) => store))].join(', ');
    const where = judged.length > 1 ? `its ${judged.length} runners (${durable.map(({ at }) => at).join(', ')}) all keep records in durable stores (${stores}) that outlive` : `its runner keeps records in a durable store (${stores}) that outlives`;
    return answer('yes', `${where} the run`, evidence);
  }
  const others = judged.length > 1 ? ` (${judged.length} runners in all; ${durable.length > 0 ? `${durable.length} with a durable store: ${durable.map(({ store, at }) => `${store} at ${at}`).join(', ')}` : 'none with a store seen to be durable'})` : '';
  const weakestReason = weakest.reason + others;
  return weakest.rank === RANK.volatile ? no('error', weakestReason, evidence) : answer('unknown', weakestReason, evidence);
}

const RANK = { volatile: 0, unchecked: 1, hidden: 2, durable: 3 } as const;

interface RunnerJudged {
  readonly rank: (typeof RANK)[keyof typeof RANK];
  /** The runner's file and line. */
  readonly at: string;
  /** The store's backend by name, for a durable one. */
  readonly store: string;
  readonly reason: string;
  /** The store it keeps records in; for a store chosen at run time, the weakest choice first, then the others. */
  readonly evidence: readonly Evidence[];
}

function judgeRunner({ file, runner, storeFile, storeChoices, unseenStores = [] }: RunnerAt, context: JudgeContext): RunnerJudged {
  const at = `${context.relative(file)}:${runner.line}`;
  if (storeChoices && storeChoices.length + unseenStores.length > 1) return judgeStoreChoices(at, runner.storeText ?? 'its store', storeChoices, unseenStores, context);
  const { store } = runner;
  const evidence = [{ file: context.relative(store ? (storeFile ?? file) : file), line: store?.line ?? runner.line, text: store?.text ?? runner.text }];
  if (!store) return { rank: RANK.hidden, at, store: '', reason: `its runner (${at}) takes its store from ${codeSpan(runner.storeText ?? 'elsewhere')}, which is not visible`, evidence };
  const made = storeFile ? ` (made at ${context.relative(storeFile)}:${store.line})` : '';
  return judgeStore(at, { ...store, file: storeFile ?? file }, `${codeSpan(store.text)}${made}`, context);
}

/**
 * A runner whose `store` can be any of several stores, chosen at run time: a function with several
 * returns, a conditional (`flag ? a : b`, `??`, `||`). Each is judged, and the weakest answers, said
 * plainly with every choice and its line, and cited in the evidence weakest first (new-user trial 4:
 * `makeStore()` returning the memory store under `NODE_ENV === 'test'` and SQLite otherwise was "not
 * visible"; trial 5: `process.env.X ? createSqliteStore(…) : createNonDurableMemoryStore()` was too).
 * A branch whose store is not visible is one of them: it is never read as durable.
 */
function judgeStoreChoices(at: string, storeText: string, stores: readonly StoreAt[], unseen: readonly UnseenStore[], context: JudgeContext): RunnerJudged {
  const place = (site: { readonly file: string; readonly line: number }): string => `${context.relative(site.file)}:${site.line}`;
  const judged = [
    ...stores.map((store) => ({ text: store.text, site: place(store), judged: judgeStore(at, store, `${codeSpan(store.text)} (${place(store)})`, context) })),
    ...unseen.map((branch) => ({ text: branch.text, site: place(branch), judged: judgeUnseen(at, branch, place(branch), context) })),
  ].sort((a, b) => a.judged.rank - b.judged.rank);
  const [weakest] = judged;
  if (!weakest) throw new Error('unreachable: several stores were given');
  const all = judged.map(({ text, site }) => `${codeSpan(text)} at ${site}`).join(', ');
  const chosen = `its runner (${at}) takes its store from ${codeSpan(storeText)}, which is one of ${judged.length} stores, ${howChosen([...stores, ...unseen], all, context)}: the weakest answers`;
  const evidence = judged.flatMap(({ judged: choice }) => choice.evidence);
  if (weakest.judged.rank === RANK.durable) return { ...weakest.judged, reason: `${chosen}, and every one is durable`, evidence };
  return { ...weakest.judged, reason: `${chosen}; ${weakest.judged.reason.replace(/^its runner \([^)]*\) /, 'it ')}`, evidence };
}

/**
 * How a runner's stores are chosen, with every choice (`all`): the function's returns, the branches
 * of conditionals (each conditional named with its line), or both.
 */
function howChosen(choices: readonly { readonly chosenBy?: { readonly file: string; readonly line: number; readonly text: string } }[], all: string, context: JudgeContext): string {
  const conditionals = new Map<string, string>();
  for (const { chosenBy } of choices) if (chosenBy) conditionals.set(`${chosenBy.file}:${chosenBy.line}:${chosenBy.text}`, `${codeSpan(chosenBy.text)} (${context.relative(chosenBy.file)}:${chosenBy.line})`);
  const by = [...conditionals.values()].join(' and ');
  if (conditionals.size === 0) return `each returned by a return of the function it comes from (${all}) and chosen at run time`;
  if (choices.every(({ chosenBy }) => chosenBy)) return `chosen at run time by ${by}, one for each branch (${all})`;
  return `chosen at run time by the returns of the function it comes from and by ${by} (${all})`;
}

/** A conditional's branch whose store is not visible: not known. */
function judgeUnseen(at: string, branch: UnseenStore, place: string, context: JudgeContext): RunnerJudged {
  return {
    rank: RANK.hidden,
    at,
    store: '',
    reason: `its runner (${at}) takes its store from ${codeSpan(branch.text)} (${place}), which is not visible`,
    evidence: [{ file: context.relative(branch.file), line: branch.line, text: branch.text }],
  };
}

/** One store of a runner, named as `named` (its code, where it is made). */
function judgeStore(at: string, store: StoreAt, named: string, context: JudgeContext): RunnerJudged {
  const evidence = [{ file: context.relative(store.file), line: store.line, text: store.text }];
  const name = STORE_NAMES[store.kind] ?? store.kind;
  if (!store.durable) {
    return { rank: RANK.volatile, at, store: name, reason: `its runner (${at}) keeps records in ${named}, which does not outlive the process: a resumed run or a redelivered job repeats the effect`, evidence };
  }
  if (store.allowVolatile === true) {
    return { rank: RANK.unchecked, at, store: name, reason: `its runner (${at}) keeps records in ${named} with \`allowVolatile: true\`, which accepts a Redis that keeps nothing on disk (the store's persistence check is off): whether the records outlive a Redis restart is the server's configuration, not in this code`, evidence };
  }
  if (store.allowVolatile === 'unknown') {
    const shown = store.allowVolatileAt;
    const given = shown ? (shown.text === 'allowVolatile' ? ` (line ${shown.line}, a variable)` : ` (${codeSpan(shown.text)}, line ${shown.line})`) : '';
    return {
      rank: RANK.unchecked,
      at,
      store: name,
      reason: `its runner (${at}) keeps records in ${named}, whose \`allowVolatile\`${given} is not a static value: if it is \`true\` at run time, a Redis that keeps nothing on disk is accepted, so whether the records outlive a restart is not known`,
      evidence: shown ? [{ file: context.relative(store.file), line: shown.line, text: shown.text }] : evidence,
    };
  }
  return { rank: RANK.durable, at, store: name, reason: '', evidence };
}

const STORE_NAMES: Readonly<Record<string, string>> = { sqlite: 'SQLite', postgres: 'PostgreSQL', redis: 'Redis', memory: 'memory' };

/**
 * The providers that keep a record of the key they are given, with how long: Stripe, and a provider
 * the project configured in `providers` as taking a key. fetch, axios and undici are absent: the
 * server they call is not known to read the header.
 */
const KEEPS_KEYS: Readonly<Partial<Record<ToolFact['providerKeys'][number]['provider'], string>>> = {
  stripe: 'Stripe keeps keys for at least 24 hours',
  custom: 'a provider configured in `providers` as taking a key; how long it keeps keys is that provider\'s',
};

function judgeProviderRecord(tool: ToolFact, context: JudgeContext): Answer {
  const here = (line: number, text: string): Evidence => ({ file: context.relative(context.at.file), line, text });
  const passing = tool.providerKeys.filter((call) => call.passed === 'passed');
  // A key that is not the tool's (`idempotencyKey: orderId`): the provider keeps a record of that
  // key, which does not answer for this tool's call (require-key-passthrough reports it).
  const foreign = passing.filter((call) => call.foreignKey !== undefined);
  if (foreign.length > 0) {
    const calls = foreign.map((call) => `${codeSpan(call.text)} (line ${call.line}) passes ${codeSpan(call.foreignKey ?? '')}`).join(', ');
    return answer(
      'unknown',
      `${calls}, which is not the tool's key: the provider keeps a record of that key, not of this tool's call (require-key-passthrough); ${tool.framework === 'retrysafe' ? 'and no runner call of this tool in the scanned source files, so its own store is not visible' : 'and no runner runs it'}`,
      foreign.map((call) => here(call.line, call.text)),
    );
  }
  if (passing.length > 0) {
    const calls = passing.map((call) => `${codeSpan(call.text)} (line ${call.line})`).join(', ');
    // A request to a provider's API host documented to dedupe by the header (Stripe's) keeps a record as its SDK does.
    const sentBy = (call: (typeof passing)[number]) => tool.effects?.operations.find((operation) => operation.sentKey && operation.line === call.line && operation.file === undefined);
    const retentionOf = (call: (typeof passing)[number]): string | undefined => KEEPS_KEYS[call.provider] ?? (sentBy(call)?.sentKey?.honouredBy === 'Stripe' ? KEEPS_KEYS.stripe : undefined);
    // The provider's record answers only a repeat that carries the same key: a key new on every
    // attempt (question 2) never matches it.
    if (tool.key.status === 'nondeterministic' || randomKeyFinding(context)) {
      // Whether a generic endpoint keeps a record at all is not known (below); a record it might keep matches no repeat either way.
      const record = passing.every((call) => retentionOf(call) !== undefined) ? 'a key the provider keeps a record of' : 'a key (whether the server keeps a record of it is not in the code)';
      return no('error', `${calls} passes ${record}, but the key is new on every attempt (question 2): a repeat carries a different key, so no record of it matches the repeat`, passing.map((call) => here(call.line, call.text)));
    }
    // Only a provider known to dedupe by the key keeps a record of it: a generic HTTP endpoint may
    // not read an `Idempotency-Key` header at all (require-key-passthrough's doc).
    const keeping = passing.filter((call) => retentionOf(call) !== undefined);
    if (keeping.length > 0) {
      const kept = keeping.map((call) => `${codeSpan(call.text)} (line ${call.line})`).join(', ');
      const retention = [...new Set(keeping.map(retentionOf))].join('; ');
      // `currentCall()?.key` with nothing scanned running the tool (question 2's unknown): called
      // outside a guard the key is `undefined`, so the provider gets none and keeps no record of it.
      const unset = unsetRunnerKey(context);
      if (unset) {
        return answer(
          'unknown',
          `${kept} passes the key to a provider that keeps a record of the key it is given (${retention}), but the key is ${codeSpan(unset.text)} (line ${unset.line}), which is \`undefined\` outside a call a guard or \`enableIdempotency\` runs, and none runs this tool in the scanned code (question 2): without a key the provider keeps no record, so whether a repeat is answered from one is not known`,
          [...keeping.map((call) => here(call.line, call.text)), here(unset.line, unset.text)],
        );
      }
      return answer('yes', `the provider keeps its own record of the key: ${kept} passes it (${retention})`, keeping.map((call) => here(call.line, call.text)));
    }
    // In question 1's words where the effects analysis saw the request (the header and the URL).
    const sent = passing.map(sentBy);
    const shown = passing.map((call, index) => {
      const operation = sent[index];
      return operation ? sentKeyText(operation) : `${codeSpan(call.text)} (line ${call.line}) passes the key in an \`Idempotency-Key\` header`;
    }).join(', ');
    return answer('unknown', `${shown}; whether that server keeps a record of it is not in the code (the IETF Idempotency-Key draft leaves deduplication to the server; question 1)`, passing.map((call) => here(call.line, call.text)));
  }
  const [testUse] = context.links.testUses;
  // A `defineTool` tool runs only through a runner: where no source file runs it, the runner calls in files read as tests are what is known.
  if (testUse && tool.framework === 'retrysafe') {
    const where = `${context.relative(testUse.file)}:${testUse.use.line}`;
    return answer(
      'unknown',
      `it is run through ${codeSpan(testUse.use.text)} (${where}${context.links.testUses.length > 1 ? ` and ${context.links.testUses.length - 1} more` : ''}), but only in files the audit reads as tests (named like a test, or importing a test runner or \`@retrysafe/spec/testing\`), whose runners are not the deployed one: the deployed runner's store is not visible`,
      context.links.testUses.map(({ file, use }) => ({ file: context.relative(file), line: use.line, text: use.text })),
    );
  }
  const caveat = unreadCaveat(context, 'a runner call of it');
  if (tool.framework === 'retrysafe') return answer('unknown', `no runner call of this tool in the scanned source files, so its store is not visible${caveat}`);
  return answer('unknown', `no dedup record is visible: no runner runs it and no keyed provider call passes its key${caveat}`);
}

/** Q5: a test that calls the tool twice and asserts one effect. */
export function judgeCalledTwiceTest(context: JudgeContext): Answer {
  const { tool } = context.at;
  const read = declaredRead(tool.policy);
  if (read) return read;
  const at = (test: TestAt): Evidence => ({ file: context.relative(test.file), line: test.test.line, text: test.test.text });
  const tests = context.links.calledTwice;
  // A skipped test never runs, a conditional one is not known to run, and one whose catch swallows
  // its assertion's failure cannot fail: none of them shows a single effect.
  // `expectSingleEffect` without `effects` runs a naturally idempotent tool twice and compares the
  // results only (@retrysafe/spec/testing): it passes whatever the second call did to the state.
  const blind = (test: TestAt): boolean => test.test.withoutEffects === true && tool.policy?.idempotent === true;
  const asserted = tests.filter((test) => test.test.assertionLine !== null && test.test.reach === undefined && !blind(test));
  const [first] = asserted;
  // Declared not safely repeatable and run by nothing that dedupes it: a test that asserts a single
  // effect of two calls fails (`expectSingleEffect` refuses such a tool; two runner calls run it
  // twice), so it shows nothing until the tool is made idempotent (new-user trial 6: Q5 read yes
  // beside vitest's failure).
  const unsafe = tool.policy?.idempotent === false && !guardOf(context) && !wireOf(context);
  if (first && unsafe) {
    return no('warning', `${describeTests(asserted, context)} calls it twice and asserts a single effect, but it is ${notRepeatable(tool.policy)}: that test cannot pass until the tool is made idempotent (an absolute write, or a key)`, asserted.map(at));
  }
  if (first) {
    // The assertion is the evidence of the single effect: named with its line, next to the test's.
    const assertion = first.test.assertionLine !== null && first.test.assertionLine !== first.test.line
      ? { file: context.relative(first.file), line: first.test.assertionLine, text: first.test.assertionText ?? '' }
      : undefined;
    const named = assertion ? ` (${codeSpan(assertion.text)}, line ${assertion.line})` : '';
    return answer('yes', `${describeTests(asserted, context)} calls it twice and asserts a single effect${named}`, [at(first), ...(assertion ? [assertion] : []), ...asserted.slice(1).map(at)]);
  }
  const conditional = tests.filter((test) => test.test.assertionLine !== null && test.test.reach?.kind === 'conditional');
  const [runsIf] = conditional;
  if (runsIf) return answer('unknown', `${reachReason(runsIf, conditional, context)}: whether it runs is not in the code`, conditional.flatMap((test) => reachEvidence(test, context)));
  const resultsOnly = tests.filter((test) => test.test.reach === undefined && blind(test));
  if (resultsOnly.length > 0) {
    return no(
      'warning',
      `${describeTests(resultsOnly, context)} calls it through \`expectSingleEffect\` without \`effects\`: for a tool declared naturally idempotent that compares the two results only, so a second effect passes; give \`effects: () => <count of what it changes>\``,
      resultsOnly.map(at),
    );
  }
  const unasserted = tests.filter((test) => test.test.assertionLine === null && test.test.reach?.kind !== 'skipped');
  if (unasserted.length > 0) return no('warning', `${describeTests(unasserted, context)} calls it twice but asserts no single effect (a count of 1, or \`expectSingleEffect\`)`, unasserted.map(at));
  const [inert] = tests;
  if (inert) return no('warning', `${reachReason(inert, tests, context)}: no test that runs and can fail calls it twice and asserts a single effect`, tests.flatMap((test) => reachEvidence(test, context)));
  if (context.testFiles === 0) {
    const unread = describeUnread(context);
    return answer('unknown', unread ? `no test files among the files read; ${unread}, so a called-twice test there would not be seen` : 'no test files among the scanned files');
  }
  const candidates = context.unresolvedTests.filter((test) => mayBe(test, tool));
  if (candidates.length > 0) return answer('unknown', `${describeTests(candidates, context)} calls ${codeSpan(candidates[0]?.test.text ?? '')} twice, which may be this tool (its target was not followed)`, candidates.map(at));
  if (unsafe) return no('warning', `${notRepeatable(tool.policy)}: no called-twice test can pass until it is made idempotent (an absolute write, or a key)`);
  const referenced = context.links.referencedBy.map(context.relative);
  const missing = referenced.length > 0
    ? `${referenced.join(', ')} imports it, but no test calls it twice and asserts a single effect`
    : `no test calls it twice and asserts a single effect (${context.testFiles} test file${context.testFiles === 1 ? '' : 's'} scanned)`;
  // A file named like a test that did not parse may hold the test: then the absence is not known.
  const caveat = unreadCaveat(context, 'a called-twice test');
  return mayHoldTests(context) ? answer('unknown', `${missing}${caveat}`) : no('warning', `${missing}${caveat}`);
}

/**
 * Why a called-twice test shows no single effect, naming it and what stops it:
 * `` tests/refund.test.ts:12 calls it twice in a skipped test (`it.skip`, line 11), which never runs ``.
 */
function reachReason(test: TestAt, all: readonly TestAt[], context: JudgeContext): string {
  const where = describeTests([test, ...all.filter((other) => other !== test)], context);
  const { reach } = test.test;
  if (!reach) return `${where} calls it twice`;
  switch (reach.kind) {
    case 'skipped':
      return `${where} calls it twice in a skipped test (${codeSpan(reach.text)}, line ${reach.line}), which never runs`;
    case 'conditional':
      return `${where} calls it twice in a test that runs only under a condition (${codeSpan(reach.text)}, line ${reach.line})`;
    case 'swallowed': {
      const assertion = test.test.assertionText ? `${codeSpan(test.test.assertionText)}, line ${test.test.assertionLine ?? test.test.line}` : `line ${test.test.assertionLine ?? test.test.line}`;
      return `${where} calls it twice, but its assertion (${assertion}) sits in a \`try\` whose ${codeSpan(reach.text)} (line ${reach.line}) swallows the failure (it neither rethrows nor fails the test), so the test cannot fail`;
    }
  }
}

/** The test, and the skip, condition or catch that stops it. */
function reachEvidence(test: TestAt, context: JudgeContext): Evidence[] {
  const file = context.relative(test.file);
  const own = { file, line: test.test.line, text: test.test.text };
  const { reach } = test.test;
  return reach ? [own, { file, line: reach.line, text: reach.text }] : [own];
}

function describeTests(tests: readonly TestAt[], context: JudgeContext): string {
  const first = tests[0];
  const where = first ? `${context.relative(first.file)}:${first.test.line}` : '';
  return tests.length > 1 ? `${where} (and ${tests.length - 1} more)` : where;
}

/** Whether an unfollowed called-twice target is named like this tool (`issueRefund` for `issue_refund`). */
function mayBe(test: TestAt, tool: ToolFact): boolean {
  const target = normalise(lastName(test.test.target));
  const names = [tool.name ?? '', ...tool.aliases].map(normalise).filter((name) => name.length > 0);
  return target.length > 0 && names.includes(target);
}

/** The name a value is last read by: `tools.issueRefund` → `issueRefund`. */
function lastName(value: TestAt['test']['target']): string {
  switch (value.k) {
    case 'opaque':
      return value.text.split('.').at(-1) ?? '';
    case 'member':
    case 'import':
      return value.name;
    case 'call':
      return lastName(value.callee);
    default:
      return '';
  }
}

function normalise(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '').replace(/tool$/, '');
}

/**
 * The seed asks questions 3 to 5 "for each tool with a side effect". A tool that declares no policy
 * may be a read, so a missing replay flag, record or test is not held against it: its `no` becomes
 * `unknown`, with the reason kept (require-retry-policy already reports the missing declaration).
 * Where question 1 proved from its handler an effect a second call runs again (a relative change, a
 * create without a key), it has a side effect and the `no` stands, naming that effect; where its
 * writes reach the same end state on a repeat (absolute), the reason says so instead.
 */
function forSideEffects(judge: (context: JudgeContext) => Answer): (context: JudgeContext) => Answer {
  return (context) => {
    const found = judge(context);
    if (found.verdict !== 'no' || context.at.tool.policy !== null) return found;
    const proven = provenSideEffect(context);
    if (proven?.repeats) return { ...found, reason: `${found.reason} (it declares no policy, but its handler has a side effect a second call runs again: ${proven.reason}, question 1)`, evidence: [...found.evidence, proven.evidence] };
    if (proven) return answer('unknown', `${found.reason}; but it declares no policy, and its handler's writes reach the same end state on a repeat (${proven.reason}, question 1), as a tool declared naturally idempotent does, for which this question does not apply`, [...found.evidence, proven.evidence]);
    // Every call known and none a write: question 1's "only reads".
    const inferred = inferredPolicyOf(context);
    const effects = context.at.tool.effects;
    if (effects && effects.complete && effects.operations.length === 0) {
      return answer('unknown', `${found.reason}; but it declares no policy, and its handler reaches no effect (every call it makes is known, and none is one, question 1), as a tool declared without side effects, for which this question does not apply`, found.evidence);
    }
    if (inferred?.idempotent && effects?.operations.every((operation) => !WRITES.has(operation.kind))) {
      return answer('unknown', `${found.reason}; but it declares no policy, and its handler has no side effect the effects analysis sees (${inferred.reason}, question 1), as a tool declared without side effects, for which this question does not apply`, found.evidence);
    }
    return answer('unknown', `${found.reason}; but it declares no policy, so whether it has a side effect is not known`, found.evidence);
  };
}

/**
 * A write the effects analysis found in the tool's handler, in question 1's words (its inferred
 * policy's reason): the evidence that an undeclared tool has a side effect, and whether a second
 * call runs it again. For a tool whose handler is not followed to an inferred policy, or shows no
 * write, undefined.
 */
function provenSideEffect(context: JudgeContext): { readonly reason: string; readonly evidence: Evidence; readonly repeats: boolean } | undefined {
  const inferred = inferredPolicyOf(context);
  const operations = context.at.tool.effects?.operations ?? [];
  if (!inferred || !operations.some((operation) => WRITES.has(operation.kind))) return undefined;
  const repeats = !inferred.idempotent;
  // The operation question 1's reason is about: one a repeat runs again, else the first write.
  const named = (repeats ? operations.find((operation) => operation.kind === 'relative' || (operation.kind === 'create' && operation.keyPassed !== 'yes')) : undefined)
    ?? operations.find((operation) => WRITES.has(operation.kind));
  if (!named) return undefined;
  const evidence = { file: context.relative(named.file ?? context.at.file), line: named.line, column: named.column, text: named.text };
  return { reason: inferred.reason, evidence, repeats };
}

/**
 * Q2 for a tool that declares no policy and shows no key, whose handler question 1 proves not
 * safely repeatable (a relative change, a create without a key): no key, so a repeat runs that
 * effect again. Undefined otherwise.
 */
function undeclaredWithoutKey(context: JudgeContext): Answer | undefined {
  const proven = provenSideEffect(context);
  if (!proven?.repeats) return undefined;
  return no('warning', `no declared policy and no key in its definition or handler, while a second call runs its effect again: ${proven.reason} (question 1)`, [proven.evidence]);
}

/** What a tool whose declaration question 1 refuted lacks, per question. */
const REFUTED_TAIL: Readonly<Record<Exclude<QuestionId, 'q1'>, string>> = {
  q2: 'nothing keys that effect',
  q3: 'nothing flags a repeat of it as already done',
  q4: 'nothing records the first call',
  q5: 'no test is looked for that would show a single effect',
};

/**
 * Questions 2 to 5 do not apply to a tool as declared (naturally idempotent, read-only), but
 * question 1 proved the declaration false: its handler runs an effect a second call repeats (a
 * relative change, a create without a key), which the declaration contradicts. The `n/a` then
 * rests on what the seed says not to trust ("read the implementation; don't infer from the name"),
 * so it becomes a `no` (error) naming that effect: the tool has no key, record, flag or test for an
 * effect it has (new-user trial 2: `idempotent: true` on `SET units = units + ?` read Q2-Q4 n/a).
 * It is one fault, question 1's, so the answer says it follows from question 1 (`followsFrom`):
 * the summary counts it once and the SARIF log gives it no alert of its own (new-user trial 3: one
 * refuted `readOnlyHint` was six alerts, the rule's and one per question).
 */
function forRefutedDeclaration(id: Exclude<QuestionId, 'q1'>, judge: (context: JudgeContext) => Answer): (context: JudgeContext) => Answer {
  return (context) => {
    const found = judge(context);
    const { contradiction } = context;
    if (found.verdict !== 'n/a' || contradiction === undefined) return found;
    const proven = provenSideEffect(context);
    if (!proven?.repeats) return found;
    const reason = `follows from question 1: the declared ${contradiction.claim} (line ${contradiction.evidence.line}) that would make this question not apply is not true (${proven.reason}), and ${REFUTED_TAIL[id]}`;
    return { ...no('error', reason, [...found.evidence, proven.evidence, contradiction.evidence]), followsFrom: 'q1' };
  };
}

/** The judgement of each question, in the seed's order. */
export const JUDGES: Readonly<Record<QuestionId, (context: JudgeContext) => Answer>> = {
  q1: judgeCalledTwiceEffect,
  q2: forRefutedDeclaration('q2', judgeKey),
  q3: forRefutedDeclaration('q3', forSideEffects(judgeReplayFlag)),
  q4: forRefutedDeclaration('q4', forSideEffects(judgeDurableRecord)),
  q5: forRefutedDeclaration('q5', forSideEffects(judgeCalledTwiceTest)),
};
