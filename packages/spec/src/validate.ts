/**
 * Input validation through the Standard Schema interface, so that zod, valibot and arktype schemas
 * all work the same way.
 *
 * @packageDocumentation
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { RetrysafeError } from './errors.js';

/**
 * Thrown by {@link validateInput} when the raw input does not match the tool's schema. The message
 * lists every issue with its path; `issues` keeps them as the schema library reported them.
 */
export class InputValidationError extends RetrysafeError {
  override readonly name = 'InputValidationError';
  readonly code = 'input_validation';
  /** The tool whose input was rejected. */
  readonly tool: string;
  /** The issues, as reported through `~standard.validate`. */
  readonly issues: readonly StandardSchemaV1.Issue[];

  constructor(tool: string, issues: readonly StandardSchemaV1.Issue[]) {
    const lines = issues.map((issue) => `  - ${formatPath(issue.path)}${issue.message}`);
    super(`Invalid input for tool "${tool}" (${issues.length} issue${issues.length === 1 ? '' : 's'}):\n${lines.join('\n')}`);
    this.tool = tool;
    this.issues = issues;
  }
}

/**
 * Validates raw input (the model's tool call arguments) against a tool's schema with
 * `schema['~standard'].validate` (Standard Schema v1).
 *
 * @param tool - any object with a `name` and a Standard Schema `input`, such as a `defineTool` tool.
 * @param raw - the unvalidated input.
 * @returns the schema's output, which is what `execute`, `deriveKey` and the fingerprint receive.
 * @throws {@link InputValidationError} listing every issue when validation fails.
 */
export async function validateInput<T extends { readonly name: string; readonly input: StandardSchemaV1 }>(
  tool: T,
  raw: unknown,
): Promise<StandardSchemaV1.InferOutput<T['input']>> {
  return (await validateInputNow(tool, raw)) as StandardSchemaV1.InferOutput<T['input']>;
}

/**
 * {@link validateInput} without a promise when the schema answers synchronously (most do: zod,
 * valibot and arktype without async refinements), so the runner awaits only an asynchronous one:
 * the value, or a promise of it. Throws (or rejects with) {@link InputValidationError}, as
 * `validateInput` does.
 */
export function validateInputNow(tool: { readonly name: string; readonly input: StandardSchemaV1 }, raw: unknown): unknown {
  const result = tool.input['~standard'].validate(raw);
  if (result instanceof Promise) return result.then((settled) => outputOf(tool.name, settled));
  return outputOf(tool.name, result);
}

function outputOf(tool: string, result: StandardSchemaV1.Result<unknown>): unknown {
  if (result.issues !== undefined) throw new InputValidationError(tool, result.issues);
  return result.value;
}

function formatPath(path: StandardSchemaV1.Issue['path']): string {
  if (path === undefined || path.length === 0) return '';
  let text = '';
  for (const segment of path) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return `${text}: `;
}
