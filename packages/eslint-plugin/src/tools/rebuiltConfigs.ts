import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { type FunctionNode, getPropertyKeyName, resolveObject, walk } from '../ast/index.js';
import { declaresPolicyInConfig, type ToolFramework } from './frameworks/index.js';
import { hasDeclaringProperty, isDeclaringKey, isDeclaringProperty, spreadsMayDeclare } from './policyFields.js';
import { elementOrArgument, type ParameterPath, parameterPath, readPathStrictly, type WrapperItem } from './wrapperParameters.js';

// How the config of a tool definition inside a project's own wrapper comes from the wrapper's
// parameters (issue 14, class 3): passed whole (`server.registerTool(t.name, t.config, t.handler)`,
// `tool({ ...spec })`), or rebuilt field by field from them (`{ description: t.description,
// annotations: t.hints, ...t.extra }`). A rebuilt config is read back at each call of the wrapper:
// the registered config has the element's fields under the names the wrapper gives them. Where the
// wrapper computes a field that could declare in a way that cannot be read back (a call, a nested
// object built from the parameters, a spread that is not visible), the config is opaque: the
// definition keeps the benefit of the doubt and its calls are not judged.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** A property of a config that a wrapper writes as an object literal, by where its value comes from. */
type ConfigField =
  /** Written by the wrapper without its parameters (`description: 'Refund'`): the same at every call. */
  | { readonly kind: 'own'; readonly property: TSESTree.Property }
  /** `annotations: t.hints`: the registered config's `annotations` (`name`) is the element's `hints`. */
  | { readonly kind: 'read'; readonly property: TSESTree.Property; readonly name: string; readonly from: ParameterPath }
  /** `...t.extra`: the element's `extra`, spread. */
  | { readonly kind: 'spread'; readonly from: ParameterPath };

/** A config a wrapper rebuilds from its parameters; `from` is the part whose elements or argument the call's tools are. */
export interface RebuiltConfig {
  readonly kind: 'rebuilt';
  readonly fields: readonly ConfigField[];
  readonly from: ParameterPath;
}

/**
 * Where a wrapped definition's config comes from: `passed`, the call's argument (or a part of it) is
 * the config; `rebuilt`, see {@link RebuiltConfig}; `opaque`, built from the parameters in a way that
 * cannot be read back.
 */
export type WrapperConfig = { readonly kind: 'passed'; readonly from: ParameterPath } | RebuiltConfig | { readonly kind: 'opaque' };

/**
 * How a definition's config node inside `fn` comes from `fn`'s parameters; `undefined` when it does
 * not, or when it passes its callers nothing that could declare a policy (`{ description:
 * t.description }`: every tool it registers declares nothing, which is reported at the definition,
 * where the declaration must be added).
 */
export function readWrapperConfig(sourceCode: SourceCode, configNode: TSESTree.Node, fn: FunctionNode, framework: ToolFramework): WrapperConfig | undefined {
  const direct = parameterPath(sourceCode, configNode, fn);
  if (direct) return { kind: 'passed', from: direct };
  if (configNode.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  // Where a framework's policy is declared around the call (AI SDK, OpenAI Agents), no field of the
  // config declares: only where the config can are the wrapper's own fields and spreads weighed.
  const inConfig = declaresPolicyInConfig(framework);
  const fields: ConfigField[] = [];
  // A declaring field computed from the parameters (`annotations: hintsFor(t)`): not readable at the call.
  let computed = false;
  // The wrapper's own spread that may declare (not a visible object that states nothing): the call's
  // fields are not all there is.
  let unseenSpread = false;
  for (const property of configNode.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      const from = parameterPath(sourceCode, property.argument, fn);
      if (from) fields.push({ kind: 'spread', from });
      else if (inConfig && ownSpreadMayDeclare(sourceCode, property.argument)) unseenSpread = true;
      continue;
    }
    const name = getPropertyKeyName(property, sourceCode);
    const from = name === undefined ? undefined : parameterPath(sourceCode, property.value, fn);
    if (from && name !== undefined) fields.push({ kind: 'read', property, name, from });
    else if (inConfig && isDeclaringProperty(sourceCode, property) && mentionsParameter(sourceCode, property.value, fn)) computed = true;
    else fields.push({ kind: 'own', property });
  }
  const fromParameters = fields.filter((field) => field.kind !== 'own');
  // Nothing read from the parameters: the definition is the wrapper's own (an unseen spread gets the
  // benefit of the doubt where it is judged), unless a declaring field is computed from them.
  if (fromParameters.length === 0) return computed ? { kind: 'opaque' } : undefined;
  if (computed || unseenSpread) return { kind: 'opaque' };
  const reads = fromParameters.filter((field) => field.kind === 'read');
  const spreads = fromParameters.filter((field) => field.kind === 'spread');
  if (reads.length === 0 && spreads.length === 1) return { kind: 'passed', from: spreads[0]!.from };
  // Fields read from the parameters carry a declaration only where the config can hold one.
  const carries = spreads.length > 0 || (inConfig && reads.some((field) => isDeclaringKey(field.name)));
  if (!carries) return undefined;
  // Every element read must be of the same array parameter: the call's tools are its elements.
  const each = fromParameters.filter((field) => field.from.each);
  if (each.some((field) => field.from.index !== each[0]!.from.index)) return { kind: 'opaque' };
  return { kind: 'rebuilt', fields, from: (each[0] ?? fromParameters[0]!).from };
}

/** The wrapper's own properties of a config it writes (all of them, when the config is passed through a spread). */
export function getOwnProperties(config: TSESTree.ObjectExpression, wrapperConfig: WrapperConfig | undefined): readonly TSESTree.Property[] {
  if (wrapperConfig?.kind === 'rebuilt') return wrapperConfig.fields.flatMap((field) => (field.kind === 'own' ? [field.property] : []));
  return config.properties.filter((property): property is TSESTree.Property => property.type === AST_NODE_TYPES.Property);
}

/** Whether `node` is the value of a field the wrapper reads from its parameters. */
export function isReadField(wrapperConfig: WrapperConfig, node: TSESTree.Node): boolean {
  return wrapperConfig.kind === 'rebuilt' && wrapperConfig.fields.some((field) => field.kind === 'read' && field.property.value === node);
}

/**
 * The config a call of the wrapper registers for one of its tools (`item`): the wrapper's fields in
 * its order, each read field and spread taken from the call's argument or element. A field that is
 * not there is left out; `undefined` when a field that could declare (or a spread) is not known, so
 * the tool keeps the benefit of the doubt. The wrapper's own fields are kept only when it is in the
 * call's file (`sameFile`): they are written in its file, and none of them declares.
 *
 * The object is not written anywhere as such: its nodes are the wrapper's keys and the call's
 * values, and its location is the tool's site. No fix may write into it.
 */
export function rebuildConfig(
  sourceCode: SourceCode,
  call: TSESTree.CallExpression,
  config: RebuiltConfig,
  { item, node }: WrapperItem,
  sameFile: boolean,
): TSESTree.ObjectExpression | undefined {
  const object = { type: AST_NODE_TYPES.ObjectExpression, properties: [], range: node.range, loc: node.loc, parent: node.parent } as unknown as TSESTree.ObjectExpression;
  const properties: TSESTree.ObjectLiteralElement[] = [];
  for (const field of config.fields) {
    if (field.kind === 'own') {
      if (sameFile) properties.push(field.property);
      continue;
    }
    const value = readPathStrictly(sourceCode, elementOrArgument(sourceCode, call, field.from, item), field.from.path);
    if (value === 'absent') continue;
    if (value === 'unknown') {
      if (field.kind === 'spread' || isDeclaringKey(field.name)) return undefined;
      continue;
    }
    properties.push(field.kind === 'spread' ? spreadOf(value, object) : propertyOf(field.name, value, object));
  }
  (object as { properties: TSESTree.ObjectLiteralElement[] }).properties = properties;
  return object;
}

/**
 * A property named as the wrapper names it with the call's value, located where the value is written
 * (with its own key, if any). The key is a plain name: the wrapper's key node may be of another file.
 */
function propertyOf(name: string, value: TSESTree.Node, parent: TSESTree.ObjectExpression): TSESTree.Property {
  const written = value.parent?.type === AST_NODE_TYPES.Property && value.parent.value === value ? value.parent : value;
  const key = { type: AST_NODE_TYPES.Identifier, name, range: written.range, loc: written.loc, decorators: [], optional: false, typeAnnotation: undefined };
  const property = {
    type: AST_NODE_TYPES.Property,
    key,
    value,
    computed: false,
    method: false,
    shorthand: false,
    kind: 'init',
    optional: false,
    range: written.range,
    loc: written.loc,
    parent,
  } as unknown as TSESTree.Property;
  (key as { parent?: TSESTree.Node }).parent = property;
  return property;
}

function spreadOf(argument: TSESTree.Node, parent: TSESTree.ObjectExpression): TSESTree.SpreadElement {
  return { type: AST_NODE_TYPES.SpreadElement, argument, range: argument.range, loc: argument.loc, parent } as unknown as TSESTree.SpreadElement;
}

/** Whether the wrapper's own spread may bring a declaration: anything but a visible object that states none. */
function ownSpreadMayDeclare(sourceCode: SourceCode, argument: TSESTree.Node): boolean {
  const object = resolveObject(sourceCode, argument);
  return !object || hasDeclaringProperty(sourceCode, object) || spreadsMayDeclare(sourceCode, object);
}

/** Whether an expression reads one of `fn`'s parameters (or an element of one) anywhere inside it. */
function mentionsParameter(sourceCode: SourceCode, node: TSESTree.Node, fn: FunctionNode): boolean {
  let found = node.type === AST_NODE_TYPES.Identifier && parameterPath(sourceCode, node, fn) !== undefined;
  walk(node, sourceCode, (inner) => {
    if (found) return false;
    if (inner.type === AST_NODE_TYPES.Identifier && parameterPath(sourceCode, inner, fn)) found = true;
    return !found;
  });
  return found;
}
