import type { TSESLint } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { walk } from '../ast/index.js';
import { createEffectsAnalyser, type CrossFileResolver, type EffectLibrary, type HandlerEffects } from '../effects/index.js';
import { createToolRecogniser, type ToolFactory } from '../tools/index.js';

/** One recognised tool and what its handler does, for the audit command's first question. */
export interface ToolEffects {
  readonly name: string | undefined;
  readonly line: number;
  /** `undefined` when the handler is not visible in this file. */
  readonly effects: HandlerEffects | undefined;
}

/**
 * Every tool of a file with the effects its handler reaches (docs/effects.md); with `crossFile`
 * (`createCrossFileEffects` on a typed parse), also what it reaches in other files of the program.
 */
export function analyseToolEffects(
  sourceCode: Readonly<TSESLint.SourceCode>,
  options: {
    readonly libraries?: readonly EffectLibrary[];
    readonly toolFactories?: readonly ToolFactory[];
    readonly crossFile?: CrossFileResolver;
  } = {},
): readonly ToolEffects[] {
  const recogniser = createToolRecogniser(sourceCode, { toolFactories: options.toolFactories ?? [] });
  if (!recogniser.mayDefineTools) return [];
  const analyser = createEffectsAnalyser(sourceCode, { libraries: options.libraries ?? [], crossFile: options.crossFile });
  const found: ToolEffects[] = [];
  walk(sourceCode.ast, sourceCode, (node) => {
    if (
      node.type === AST_NODE_TYPES.CallExpression ||
      node.type === AST_NODE_TYPES.NewExpression ||
      node.type === AST_NODE_TYPES.ClassDeclaration ||
      node.type === AST_NODE_TYPES.ClassExpression
    ) {
      for (const tool of recogniser.definitionsAt(node)) {
        found.push({ name: tool.name, line: tool.node.loc.start.line, effects: tool.handler && analyser.analyseHandler(tool.handler, tool.name) });
      }
    }
    return true;
  });
  return found;
}
