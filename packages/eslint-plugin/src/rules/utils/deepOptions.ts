import type { JSONSchema } from '@typescript-eslint/utils';
import type AjvModule from 'ajv';
import { createRequire } from 'node:module';

// ESLint compiles every enabled rule's `meta.schema` with ajv once per process, options given or
// not: on one small file that was most of what `recommended` cost over the parser alone, and most
// of it was the few large item schemas (an effect library, a keyed provider) that almost no config
// ever fills (bench/lint-fixed-cost.mjs, docs/performance.md). So a rule's `meta.schema` keeps every
// option name and its top-level shape (`additionalProperties: false` stays: a mistyped option name
// is still ESLint's own error at config time), but such an option's items are only `{ type:
// 'object' }` there; the rule checks them against the full schema itself, and only when the option
// is given non-empty: ajv (the major ESLint uses, with the same draft-04 schemas and messages) is
// loaded on the first such check, and each full schema is compiled once per process.

/** The options, of a rule's options object, whose items are checked by the rule: name to full schema. */
export type DeepOptionSchemas = Readonly<Record<string, JSONSchema.JSONSchema4>>;

/** One thing wrong in a rule's options: where, and what. */
export interface OptionProblem {
  /** Where in the options, as ESLint would show it (`options[0].libraries[0].operations`). */
  readonly path: string;
  /** What is wrong there, in ESLint's words (`Value [] should NOT have fewer than 1 items.`). */
  readonly problem: string;
}

/** A rule's options that its full schema rejects, thrown from `create`: ESLint reports it naming the rule. */
export class InvalidRuleOptionsError extends Error {
  override readonly name = 'InvalidRuleOptionsError';

  /**
   * @param ruleId the rule as configured (`@retrysafe/require-retry-policy`)
   * @param problems what the schema rejected, as ajv lists it (for a `oneOf`, each branch, then the `oneOf`)
   */
  constructor(
    readonly ruleId: string,
    readonly problems: readonly OptionProblem[],
  ) {
    super(`Invalid options for "${ruleId}":${problems.map(({ path, problem }) => `\n\t${path}: ${problem}`).join('')}`);
  }
}

/**
 * The schema `meta.schema` gives an option of {@link DeepOptionSchemas}: an array of objects, with
 * the full schema's own array-level keywords (its description, any `minItems`), without its items'
 * shape or its definitions.
 */
export function shallowArraySchema(full: JSONSchema.JSONSchema4ArraySchema): JSONSchema.JSONSchema4ArraySchema {
  const arrayLevel: JSONSchema.JSONSchema4ArraySchema = { ...full, type: 'array', items: { type: 'object' } };
  delete arrayLevel.definitions;
  delete arrayLevel.id;
  return arrayLevel;
}

/**
 * `meta.schema` for a rule whose options object is `schema` (its one options schema), with each of
 * `names` made shallow ({@link shallowArraySchema}), and the full schemas of `names`, which
 * {@link checkDeepOptions} checks.
 */
export function withDeepOptions(
  schema: JSONSchema.JSONSchema4 | readonly JSONSchema.JSONSchema4[],
  names: readonly string[],
): { readonly schema: JSONSchema.JSONSchema4[]; readonly deep: DeepOptionSchemas } {
  const [options, ...rest] = (Array.isArray(schema) ? schema : [schema]) as JSONSchema.JSONSchema4ObjectSchema[];
  const properties = { ...options?.properties };
  const deep: Record<string, JSONSchema.JSONSchema4> = {};
  for (const name of names) {
    const full = properties[name];
    if (rest.length > 0 || full?.type !== 'array') throw new Error(`deep option ${name}: not an array property of the rule's one options object`);
    deep[name] = full;
    properties[name] = shallowArraySchema(full as JSONSchema.JSONSchema4ArraySchema);
  }
  return { schema: [{ ...options, properties }], deep };
}

/**
 * Checks each option of `deep` that `options[0]` gives non-empty against its full schema.
 * @throws {InvalidRuleOptionsError} at the first value the schema rejects
 */
export function checkDeepOptions(ruleId: string, options: readonly unknown[], deep: DeepOptionSchemas): void {
  const [first] = options;
  if (typeof first !== 'object' || first === null) return;
  for (const [name, schema] of Object.entries(deep)) {
    const value: unknown = (first as Record<string, unknown>)[name];
    if (!Array.isArray(value) || value.length === 0) continue;
    const validate = validatorFor(schema);
    if (validate(value)) continue;
    const errors = validate.errors ?? [];
    const path = (dataPath = ''): string => `options[0].${name}${dataPath}`;
    throw new InvalidRuleOptionsError(ruleId, errors.length > 0 ? errors.map((error) => ({ path: path(error.dataPath), problem: describe(error) })) : [{ path: path(), problem: 'is invalid.' }]);
  }
}

type Ajv = AjvModule.Ajv;
type ValidateFunction = AjvModule.ValidateFunction;

let ajv: Ajv | undefined;
const validators = new Map<JSONSchema.JSONSchema4, ValidateFunction>();

function validatorFor(schema: JSONSchema.JSONSchema4): ValidateFunction {
  let validate = validators.get(schema);
  if (validate === undefined) {
    // Loaded here, not imported: a process whose configs give no such option never loads it.
    const Ajv = createRequire(import.meta.url)('ajv') as typeof AjvModule;
    // ESLint's own settings (lib/shared/ajv.js), but a `$ref` that does not resolve is an error at
    // compile time, not a reference that accepts anything.
    ajv ??= new Ajv({ meta: false, validateSchema: false, verbose: true, schemaId: 'auto' });
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/** The problem as ESLint words a rejected option (lib/config/config.js): the value, then ajv's message. */
function describe(error: AjvModule.ErrorObject): string {
  const problem = `Value ${JSON.stringify(error.data)} ${error.message ?? 'is invalid'}.`;
  const parent = error.parentSchema as JSONSchema.JSONSchema4ObjectSchema | undefined;
  if (error.keyword === 'additionalProperties' && 'additionalProperty' in error.params && parent?.properties) {
    const expected = Object.keys(parent.properties).map((property) => `"${property}"`).join(', ');
    return `${problem} Unexpected property "${error.params.additionalProperty}". Expected properties: ${expected}.`;
  }
  if (error.keyword === 'enum' && 'allowedValues' in error.params) return `${problem} Allowed: ${error.params.allowedValues.map((value) => JSON.stringify(value)).join(', ')}.`;
  return problem;
}
