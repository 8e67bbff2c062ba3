// The audit report: what `retrysafe audit` found, as data. `--format json` writes it as it is
// (schema/audit-report.schema.json describes it; a test validates every golden report against it),
// and every other format is rendered from it.

/** The version of the JSON report's shape. A change that can break a reader bumps it. */
export const REPORT_SCHEMA_VERSION = 1;

/** Where the JSON Schema of the report is published (its `$id`). */
export const REPORT_SCHEMA_ID = 'https://github.com/retrysafe/retrysafe/blob/main/packages/cli/schema/audit-report.schema.json';

/** The framework a tool is defined with, as the plugin's recognisers name it. */
export type ToolFramework = 'ai-sdk' | 'custom' | 'langchain' | 'mcp' | 'mcp-low-level' | 'openai-agents' | 'retrysafe' | (string & {});

/** The seed's audit questions, in its order. */
export const QUESTIONS = ['q1', 'q2', 'q3', 'q4', 'q5'] as const;

/** One of the seed's five audit questions. */
export type QuestionId = (typeof QUESTIONS)[number];

/** The questions as the seed asks them ("For each tool with a side effect: ..."). */
export const QUESTION_TEXT: Record<QuestionId, string> = {
  q1: 'What happens if it is called twice with identical arguments?',
  q2: 'Is the key derived deterministically from the work?',
  q3: 'Does the response distinguish "did it" from "already done"?',
  q4: 'Is the deduplication record durable, and does it outlive the run?',
  q5: 'Is there a test that calls it twice and asserts a single effect?',
};

/** A few words per question, for tables. */
export const QUESTION_LABEL: Record<QuestionId, string> = {
  q1: 'called twice',
  q2: 'deterministic key',
  q3: 'replay flag',
  q4: 'durable record',
  q5: 'called-twice test',
};

/**
 * A verdict: `yes` and `no` each rest on evidence the report names; `unknown` when the code does not
 * show it (the audit never guesses); `n/a` when the question does not apply to the tool (a read
 * needs no key, a naturally idempotent tool no replay flag).
 */
export type Verdict = 'yes' | 'no' | 'unknown' | 'n/a';

/** How much a `no` matters: `error` fails the run by default (`--fail-on error`), `warning` with `--fail-on warn`. */
export type Severity = 'error' | 'warning';

/** A place in the code that an answer rests on. */
export interface Evidence {
  /** Path relative to the report's root, with `/` separators. */
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column, where the analysis has it (an effect's call); absent otherwise. */
  readonly column?: number;
  /** What is there, in a few words of code (`createNonDurableMemoryStore()`, `expectSingleEffect(issueRefund, ...)`). */
  readonly text: string;
}

/** The answer to one question for one tool. */
export interface Answer {
  readonly verdict: Verdict;
  /** One sentence: why, naming the evidence. */
  readonly reason: string;
  /** Present exactly when the verdict is `no`. */
  readonly severity?: Severity;
  readonly evidence: readonly Evidence[];
  /**
   * Present when this `no` is not a fault of its own but a consequence of another question's: a
   * tool declared naturally idempotent or read-only, so that questions 2 to 5 would not apply,
   * whose handler question 1 shows to repeat an effect. The summary's `errors` and `warnings` count
   * it once, under that question, and the SARIF log folds it into that question's result (one fault,
   * one alert).
   */
  readonly followsFrom?: QuestionId;
}

/** MCP tool annotation hints by name (the protocol's `ToolAnnotations`). */
export type McpHints = Readonly<Partial<Record<'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint', boolean | null>>>;

/** An idempotency class in the seed's vocabulary. */
export type Idempotency = true | false | 'with_key';

/**
 * A tool's declared retry policy in the seed's shape. A field the code does not state statically
 * (built at run time, spread from elsewhere) is `null`.
 */
export interface DeclaredPolicy {
  readonly side_effects: string | null;
  readonly idempotent: Idempotency | null;
  readonly retry: string | null;
  readonly max_attempts: number | null;
  /**
   * `max_attempts` is not declared and is the runtime's default for the retry class
   * (`@retrysafe/spec`'s `DEFAULT_MAX_ATTEMPTS`: 3 for `safe` and `safe_with_same_key`, 1 for
   * `never`), which every declaration but MCP `annotations` is given.
   */
  readonly max_attempts_default?: true;
  /**
   * Where it is declared: `defineTool` fields, `declarePolicy(tool, policy)`, MCP
   * `_meta["io.github.retrysafe/policy"]`, LangChain `metadata.retrysafe`, or MCP `annotations`
   * (what the hints state in the seed's words: `readOnlyHint: true` is `side_effects: 'none'`,
   * `idempotentHint` the class; hints state no `retry` or `max_attempts`, which are then `null`;
   * the hints themselves are the tool's `hints`).
   */
  readonly via: 'annotations' | 'declarePolicy' | 'defineTool' | 'langchainMetadata' | 'mcpMeta';
  readonly evidence: Evidence;
  /**
   * The same run shows the declaration is not true: a `no-contradicted-policy` or
   * `no-unsafe-retry-policy` finding on it, a combination `@retrysafe/spec` rejects that no finding
   * covers (the spec's table of contradictions, `findPolicyContradiction`), or question 1's handler
   * effects against it. The reason names the finding and its line. A loop must not act on such a policy.
   * `invalid`: the declaration states a value `@retrysafe/spec` does not know (`sideEffects:
   * 'moneyout'`), which the spec rejects: the questions judge the tool as one that declares nothing.
   * `field`: for an invalid declaration, the field (in the seed's words) whose value the spec rejects;
   * the policies file (`--format yaml`) leaves its value out.
   */
  readonly contradicted?: { readonly reason: string; readonly evidence: Evidence; readonly invalid?: true; readonly field?: 'side_effects' | 'idempotent' | 'retry' };
}

/** The kinds of effect the effects analysis (issue 10) tells apart. */
/** `write`: a write whose kind (absolute, create or relative) the call does not show. */
export type EffectKind = 'read' | 'absolute_write' | 'create' | 'relative' | 'write' | 'unknown';

/** One effect operation a tool's handler reaches. */
export interface Effect {
  readonly kind: EffectKind;
  /** The operation, e.g. `UPDATE customers SET points = points + $1`, `stripe.refunds.create`. */
  readonly operation: string;
  /** For a create: whether the call passes a deduplication key. */
  readonly keyed?: boolean;
  readonly evidence: Evidence;
}

/** What the effects analysis found in a tool's handler. */
export interface EffectsFinding {
  /** False when the handler was not analysed (it is not in the tool's file): `operations` is then empty and means nothing. */
  readonly available: boolean;
  readonly operations: readonly Effect[];
}

/** One tool and its audit. */
export interface ToolAudit {
  /** Stable within a report: `file:line:column`. */
  readonly id: string;
  /** The tool's name (`name`, the MCP registration's first argument, the AI SDK tool's key); null when not static. */
  readonly name: string | null;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly framework: ToolFramework;
  /** The declared policy; null when the tool declares none ("undeclared"). */
  readonly policy: DeclaredPolicy | null;
  /**
   * The MCP hints its annotations state, as written (no MCP default filled in: an unstated hint is
   * absent); `null` for a hint whose value is not static. Absent when the annotations state none.
   */
  readonly hints?: McpHints;
  readonly effects: EffectsFinding;
  readonly questions: Readonly<Record<QuestionId, Answer>>;
  /** The one-line summary: the tool, its policy and the five verdicts. */
  readonly summary: string;
}

/** A finding of one of the plugin's rules, from the same ESLint run. */
export interface RuleFinding {
  /** The rule id as ESLint reports it (`@retrysafe/no-random-key`). */
  readonly ruleId: string;
  readonly severity: Severity;
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  /** The rule's documentation (the rule's `meta.docs.url`). */
  readonly helpUri?: string;
}

/**
 * A file that could not be read or parsed; the run went on without it. `line` and `column` are
 * where the parser stopped; both are absent for an error about the whole file, which the parser
 * gives no position for (typescript-eslint's "was not found by the project service" for a file
 * outside the tsconfig's `include`).
 */
export interface FileError {
  readonly file: string;
  /** 1-based; absent for a file-level error. */
  readonly line?: number;
  /** 1-based; absent for a file-level error. */
  readonly column?: number;
  readonly message: string;
}

/** Where a file error is: `file:line:column`, or the file alone for a file-level error. */
export function fileErrorPlace(error: FileError): string {
  return error.line === undefined ? error.file : `${error.file}:${error.line}${error.column === undefined ? '' : `:${error.column}`}`;
}

/** Which ESLint configuration the run used. */
export interface ConfigUsed {
  /**
   * `project`: the project's own `eslint.config.*` (its parser, ignores and the options it gives the
   * plugin's rules apply); `file`: a config given with `--config`; `recommended`: none was found or
   * `--no-config-lookup` was given, so the plugin's `recommended` config was used.
   */
  readonly kind: 'file' | 'project' | 'recommended';
  /** The config file, relative to the root; absent for `recommended`. */
  readonly file?: string;
}

/** Counts per verdict. */
export type VerdictCounts = Readonly<Record<'yes' | 'no' | 'unknown' | 'n/a', number>>;

/** The totals of a report. */
export interface ReportSummary {
  readonly tools: number;
  readonly undeclared: number;
  readonly questions: Readonly<Record<QuestionId, VerdictCounts>>;
  /**
   * `no` answers and rule findings of severity `error`, and of `warning`; an answer that follows
   * from another question's (`Answer.followsFrom`) is not counted again.
   */
  readonly errors: number;
  readonly warnings: number;
  /**
   * Present when the run had no type information although the root has a `tsconfig.json`, and
   * question 1 is unknown for some tools because their handlers call into other files, which only a
   * type-aware config follows: how many, and the advice the table prints.
   */
  readonly withoutTypes?: { readonly tools: number; readonly hint: string };
}

/** What `retrysafe audit` returns and `--format json` prints. */
export interface AuditReport {
  readonly $schema: typeof REPORT_SCHEMA_ID;
  readonly schemaVersion: typeof REPORT_SCHEMA_VERSION;
  readonly generator: { readonly name: string; readonly version: string; readonly pluginVersion: string };
  /** The folder every path in the report is relative to (absolute, as given or the cwd). */
  readonly root: string;
  readonly config: ConfigUsed;
  readonly files: {
    readonly scanned: number;
    /** Scanned files that are tests (by name, folder or test-runner import). */
    readonly tests: number;
    readonly errors: readonly FileError[];
  };
  readonly tools: readonly ToolAudit[];
  readonly findings: readonly RuleFinding[];
  readonly summary: ReportSummary;
}

/**
 * How a tool is named in the table, the Markdown and the summary line: its static name, or, for a
 * tool without one (`addTool(process.env.NAME, ...)`), where it is registered:
 * `(registered at src/tools.ts:39)`. The JSON keeps `name: null`.
 */
export function toolLabel(tool: { readonly name: string | null; readonly file: string; readonly line: number }): string {
  return tool.name ?? `(registered at ${tool.file}:${tool.line})`;
}
