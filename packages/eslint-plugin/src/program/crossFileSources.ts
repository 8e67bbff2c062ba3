import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type ts from 'typescript';

import {
  describeNode,
  type FunctionNode,
  getReturnedExpressions,
  type ParameterReference,
  type PropertyPath,
} from '../ast/index.js';
import {
  type AllowedSource,
  createValueTracer,
  isGeneratorFactoryCall,
  type SourceKind,
  type ValueTracer,
} from '../keys/index.js';
import { ValueWalk } from './crossFileWalk.js';
import { getCalleeSymbol, getFunctionTarget, getReadSymbol, getVariableTarget } from './declarationTargets.js';
import type { ProgramFile } from './programFiles.js';

// Following a value into other files of the program: where the file's own tracer stops at an imported
// function, an imported value or a method declared elsewhere, the checker names the declaration, and
// the declaring file is read with the same tracer. A function's result is summarised once per program:
// the source its return value comes from, or the parameters it passes through to it.

/** A non-deterministic source found in some file of the program. */
export interface ProgramSource {
  readonly kind: SourceKind;
  /** Short code, e.g. `randomUUID()`. */
  readonly description: string;
  /** Where the value is produced, in that file's ESTree. */
  readonly node: TSESTree.Node;
  readonly fileName: string;
}

/** A source, and (in the linted file) the boundary it was reached through. */
export interface FoundSource {
  readonly source: ProgramSource;
  /** The call or import read in the walked file through which the source was reached. */
  readonly through?: TSESTree.Node;
}

/** What a function's return value is made of, as far as the analysis sees. */
interface FunctionSummary {
  readonly source: ProgramSource | undefined;
  /** Parameters whose arguments flow into the return value. */
  readonly parameters: readonly ParameterReference[];
}

/** Options shared by every analysis of one program. */
export interface ProgramAnalysisOptions {
  readonly allowedSources: readonly AllowedSource[];
}

/** How many function summaries may be computed inside one another (roughly: files deep). */
const MAX_NESTING = 4;
const EMPTY_SUMMARY: FunctionSummary = { source: undefined, parameters: [] };

/**
 * The cross-file analysis of one program: summaries of the functions and values it was asked about,
 * kept for as long as the program lives. Get it with {@link getProgramAnalysis}.
 */
export class ProgramAnalysis {
  readonly checker: ts.TypeChecker;
  private readonly tracers = new Map<ProgramFile, ValueTracer>();
  private readonly summaries = new Map<FunctionNode, Map<string, FunctionSummary>>();
  private readonly values = new Map<TSESTree.Node, Map<string, FoundSource | null>>();
  private readonly inProgress = new Set<TSESTree.Node>();
  private nesting = 0;
  /** Bumped when a summary is cut short (cycle, nesting): summaries computed meanwhile are not kept. */
  private truncations = 0;

  constructor(
    readonly program: ts.Program,
    readonly options: ProgramAnalysisOptions,
  ) {
    this.checker = program.getTypeChecker();
  }

  /** The file's own tracer (the syntactic rule's), created once per file. */
  tracerOf(file: ProgramFile): ValueTracer {
    let tracer = this.tracers.get(file);
    if (!tracer) {
      tracer = createValueTracer(file.sourceCode, { allowedSources: this.options.allowedSources });
      this.tracers.set(file, tracer);
    }
    return tracer;
  }

  /** A source the file's own tracer finds in `node`. */
  traceInFile(file: ProgramFile, node: TSESTree.Node): FoundSource | undefined {
    const found = this.tracerOf(file).findSource(node);
    return found && { source: { ...found, fileName: file.fileName } };
  }

  /**
   * Follows a call that `walk` could not resolve in its file: to the declaration's return value in
   * another file, and back to this call's arguments for the parameters that flow into it.
   * With `skipFile`, a declaration in that file is left alone (the syntactic rule reads it).
   */
  followCall(
    walk: ValueWalk<FoundSource>,
    call: TSESTree.CallExpression,
    path: PropertyPath,
    skipFile?: string,
  ): FoundSource | undefined {
    const symbol = getCalleeSymbol(this.checker, walk.file, call);
    if (!symbol) return undefined;
    const generated = this.getGeneratorSource(symbol, skipFile);
    if (generated) return generated;
    const target = getFunctionTarget(this.program, symbol);
    if (!target || target.file.fileName === skipFile) return undefined;
    const summary = this.summarise(target.file, target.fn, path);
    if (summary.source) return { source: summary.source };
    for (const parameter of summary.parameters) {
      const found = parameter.rest
        ? call.arguments.slice(parameter.index).map((argument) => walk.argument(argument, [])).find(Boolean)
        : walk.argument(call.arguments[parameter.index], parameter.path);
      if (found) return found;
    }
    return undefined;
  }

  /** Follows a read of an imported binding to the `const` or `let` that another file exports. */
  followImport(walk: ValueWalk<FoundSource>, identifier: TSESTree.Identifier, path: PropertyPath): FoundSource | undefined {
    const read = getReadSymbol(this.checker, walk.file, identifier, path);
    const target = read && getVariableTarget(this.program, read.symbol);
    if (!read || !target) return undefined;
    const key = read.path.join('\0');
    const cached = this.values.get(target.declarator)?.get(key);
    if (cached !== undefined) return cached ?? undefined;
    return this.withinNesting(target.declarator, undefined, (keep) => {
      const found = this.walkInFile(target.file).enter(target.declarator.id, read.path);
      if (keep()) this.cacheValue(target.declarator, key, found);
      return found;
    });
  }

  /** A walk of `file` that crosses into other files and finds sources with each file's tracer. */
  walkInFile(file: ProgramFile, onParameter?: (parameter: ParameterReference) => void): ValueWalk<FoundSource> {
    return new ValueWalk<FoundSource>(file, {
      value: (_walk, node) => this.traceInFile(file, node),
      call: (walk, node, path) => this.followCall(walk, node, path),
      imported: (walk, node, path) => this.followImport(walk, node, path),
      parameter: (_walk, parameter) => {
        onParameter?.(parameter);
        return undefined;
      },
    });
  }

  /** What `fn`'s return value (read at `path`) is made of; cached per program. */
  private summarise(file: ProgramFile, fn: FunctionNode, path: PropertyPath): FunctionSummary {
    const key = path.join('\0');
    const cached = this.summaries.get(fn)?.get(key);
    if (cached) return cached;
    return this.withinNesting(fn, EMPTY_SUMMARY, (keep) => {
      const parameters: ParameterReference[] = [];
      const walk = this.walkInFile(file, (parameter) => {
        if (parameter.fn === fn) parameters.push(parameter);
      });
      let source: ProgramSource | undefined;
      for (const returned of getReturnedExpressions(fn, file.sourceCode)) {
        source = walk.enter(returned, path)?.source;
        if (source) break;
      }
      const summary: FunctionSummary = { source, parameters };
      if (keep()) {
        const byPath = this.summaries.get(fn) ?? new Map<string, FunctionSummary>();
        this.summaries.set(fn, byPath.set(key, summary));
      }
      return summary;
    });
  }

  /**
   * Runs `analyse` for `node` unless it is already being analysed (a cycle) or the nesting is too
   * deep; `keep()` tells whether the result is complete enough to cache.
   */
  withinNesting<R>(node: TSESTree.Node, cutShort: R, analyse: (keep: () => boolean) => R): R {
    if (this.inProgress.has(node) || this.nesting >= MAX_NESTING) {
      this.truncations += 1;
      return cutShort;
    }
    const truncationsBefore = this.truncations;
    this.inProgress.add(node);
    this.nesting += 1;
    try {
      return analyse(() => this.truncations === truncationsBefore);
    } finally {
      this.nesting -= 1;
      this.inProgress.delete(node);
    }
  }

  private cacheValue(declarator: TSESTree.Node, key: string, found: FoundSource | undefined): void {
    const byPath = this.values.get(declarator) ?? new Map<string, FoundSource | null>();
    this.values.set(declarator, byPath.set(key, found ?? null));
  }

  /** `newId()` with `export const newId = customAlphabet(...)` in another file: a random id each call. */
  private getGeneratorSource(symbol: ts.Symbol, skipFile: string | undefined): FoundSource | undefined {
    const target = getVariableTarget(this.program, symbol);
    const init = target?.declarator.init;
    if (!target || !init || target.file.fileName === skipFile) return undefined;
    const context = { sourceCode: target.file.sourceCode, allowedSources: this.options.allowedSources };
    if (init.type !== AST_NODE_TYPES.CallExpression || !isGeneratorFactoryCall(init, context)) return undefined;
    const description = describeNode(init, target.file.sourceCode);
    return { source: { kind: 'random', description, node: init, fileName: target.file.fileName } };
  }
}

const analyses = new WeakMap<ts.Program, Map<string, ProgramAnalysis>>();

/** The analysis of `program` for these options, shared by every file linted against the program. */
export function getProgramAnalysis(program: ts.Program, options: ProgramAnalysisOptions): ProgramAnalysis {
  const key = JSON.stringify(options);
  let byOptions = analyses.get(program);
  if (!byOptions) analyses.set(program, (byOptions = new Map()));
  let analysis = byOptions.get(key);
  if (!analysis) byOptions.set(key, (analysis = new ProgramAnalysis(program, options)));
  return analysis;
}
