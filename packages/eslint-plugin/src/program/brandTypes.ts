import type ts from 'typescript';

import { isInSpecPackage } from './declaringPackage.js';
import { typescript } from './typescript.js';

// Brand recognition by type, for the type-aware rules. A brand of @retrysafe/spec is a property keyed
// by a module-private `unique symbol` that the package declares:
//   declare const deterministicKeyBrand: unique symbol;
//   type DeterministicKey = string & { readonly [deterministicKeyBrand]: 'DeterministicKey' };
// Recognising the symbol's declaring package, never a type's name, is what makes an alias in
// another module (`type OrderKey = DeterministicKey`), a generic or an intersection count alike.

// How far into members, type arguments, index signatures and return types a cast's target is searched.
const MAX_DEPTH = 5;

/**
 * The brands a type carries itself (not in its members): the names of its properties keyed by a
 * `unique symbol` declared in `@retrysafe/spec`. `DeterministicKey` gives `['DeterministicKey']`,
 * `Durable<string>` gives `['Durable']`, `string` and `{ key: DeterministicKey }` give `[]`.
 */
export function getOwnBrands(checker: ts.TypeChecker, type: ts.Type): string[] {
  const brands: string[] = [];
  for (const property of checker.getPropertiesOfType(getConstraint(checker, type))) {
    const brand = getBrandOfProperty(checker, property);
    if (brand !== undefined) brands.push(brand);
  }
  return brands;
}

/**
 * The brand a property stands for, if it is a brand property of `@retrysafe/spec`: its string literal
 * value (`'DeterministicKey'`), else the name of the type declaring it, else the symbol's name.
 */
function getBrandOfProperty(checker: ts.TypeChecker, property: ts.Symbol): string | undefined {
  for (const declaration of property.declarations ?? []) {
    const name = typescript.getNameOfDeclaration(declaration);
    if (!name || !typescript.isComputedPropertyName(name)) continue;
    const keyType = checker.getTypeAtLocation(name.expression);
    if (!(keyType.flags & typescript.TypeFlags.UniqueESSymbol)) continue;
    const keySymbol = keyType.getSymbol();
    const keyDeclaration = keySymbol?.declarations?.[0];
    if (!keySymbol || !keyDeclaration || !isInSpecPackage(keyDeclaration.getSourceFile().fileName)) continue;
    const value = checker.getTypeOfSymbol(property);
    if (value.isStringLiteral()) return value.value;
    return getDeclaringTypeName(declaration) ?? keySymbol.getName();
  }
  return undefined;
}

function getDeclaringTypeName(node: ts.Node): string | undefined {
  for (let current: ts.Node | undefined = node; current; current = current.parent) {
    if (typescript.isTypeAliasDeclaration(current) || typescript.isInterfaceDeclaration(current)) return current.name.text;
  }
  return undefined;
}

/**
 * Whether every value of `source` already carries `brand`, nullish values aside: a cast from
 * `OrderKey | undefined` to `DeterministicKey` forges nothing. `any`, `unknown` and a missing
 * source (a member the source does not have) carry nothing.
 */
export function carriesBrand(checker: ts.TypeChecker, source: ts.Type | undefined, brand: string): boolean {
  if (!source) return false;
  const parts = getUnionParts(source).filter((part) => !isNullish(part));
  return parts.length > 0 && parts.every((part) => getOwnBrands(checker, part).includes(brand));
}

/** What a forge search needs besides the types. */
export interface BrandSearch {
  readonly checker: ts.TypeChecker;
  readonly program: ts.Program;
}

/**
 * The first brand that `target` carries, anywhere in it, where `source` does not already carry it at
 * the same place: `string as DeterministicKey`, `{ key: string } as { key: OrderKey }` and
 * `string[] as Durable<string>[]` give a brand; `OrderKey as DeterministicKey` (a no-op) gives none.
 * Searched: union members, properties of types declared outside the standard and external libraries,
 * type arguments (`Promise<...>`, `Map<...>`), index signatures and call signatures' return types.
 */
export function findForgedBrand(search: BrandSearch, target: ts.Type, source: ts.Type | undefined): string | undefined {
  return findForgedBrandAt(search, target, source, 0, new Map());
}

function findForgedBrandAt(
  search: BrandSearch,
  target: ts.Type,
  source: ts.Type | undefined,
  depth: number,
  seen: Map<ts.Type, Set<ts.Type | undefined>>,
): string | undefined {
  const sourcesSeen = seen.get(target) ?? new Set();
  if (depth > MAX_DEPTH || sourcesSeen.has(source)) return undefined;
  seen.set(target, sourcesSeen.add(source));
  // Inside a value, `never` is where nothing is supplied: the element of `[] as OrderKey[]`.
  if (depth > 0 && source && source.flags & typescript.TypeFlags.Never) return undefined;
  for (const part of getUnionParts(target)) {
    if (isNullish(part) || part.flags & (typescript.TypeFlags.Any | typescript.TypeFlags.Unknown | typescript.TypeFlags.Never)) continue;
    const own = getOwnBrands(search.checker, part);
    if (own.length > 0) {
      const forged = own.find((brand) => !carriesBrand(search.checker, source, brand));
      if (forged !== undefined) return forged;
      continue;
    }
    for (const [member, sourceMember] of getMemberPairs(search, getConstraint(search.checker, part), source)) {
      const forged = findForgedBrandAt(search, member, sourceMember, depth + 1, seen);
      if (forged !== undefined) return forged;
    }
  }
  return undefined;
}

type MemberPair = [target: ts.Type, source: ts.Type | undefined];

/**
 * The types one level inside `target`, each paired with the type at the same place in `source`:
 * `undefined` where anything could be there (the source is `any`, or lacks a required property).
 * A place the source leaves empty is skipped when the target allows it to be empty (an optional
 * property, an index signature), so `{} as Partial<RefundRequest>` forges nothing.
 */
function getMemberPairs(search: BrandSearch, target: ts.Type, source: ts.Type | undefined): MemberPair[] {
  if (!(target.flags & (typescript.TypeFlags.Object | typescript.TypeFlags.Intersection))) return [];
  const { checker } = search;
  const known = source && !(source.flags & (typescript.TypeFlags.Any | typescript.TypeFlags.Unknown))
    ? getConstraint(checker, checker.getNonNullableType(source))
    : undefined;
  const pairs: MemberPair[] = [];
  if (isTypeReference(target)) {
    const sourceArguments = known && isTypeReference(known) ? checker.getTypeArguments(known) : [];
    checker.getTypeArguments(target).forEach((argument, index) => pairs.push([argument, sourceArguments[index]]));
  }
  if (!isDeclaredInUserCode(search.program, target)) return pairs;
  for (const property of checker.getPropertiesOfType(target)) {
    const sourceProperty = known && checker.getPropertyOfType(known, property.getName());
    if (known && !sourceProperty && property.flags & typescript.SymbolFlags.Optional) continue;
    pairs.push([checker.getTypeOfSymbol(property), sourceProperty && checker.getTypeOfSymbol(sourceProperty)]);
  }
  for (const index of checker.getIndexInfosOfType(target)) pairs.push(...getIndexPairs(checker, index, known));
  const sourceSignature = known?.getCallSignatures()[0];
  for (const signature of target.getCallSignatures()) {
    pairs.push([signature.getReturnType(), sourceSignature?.getReturnType()]);
  }
  return pairs;
}

/** An index signature against the source's matching one, else against each of its properties. */
function getIndexPairs(checker: ts.TypeChecker, index: ts.IndexInfo, known: ts.Type | undefined): MemberPair[] {
  if (!known) return [[index.type, undefined]];
  const sourceIndex = checker.getIndexInfosOfType(known).find((candidate) => candidate.keyType === index.keyType);
  if (sourceIndex) return [[index.type, sourceIndex.type]];
  return checker.getPropertiesOfType(known).map((property): MemberPair => [index.type, checker.getTypeOfSymbol(property)]);
}

/**
 * Whether a type's members are worth searching: declared in the project or in @retrysafe/spec, or
 * mapped (`Partial<{ key: OrderKey }>`). Types of the standard library and of other packages cannot
 * name a retrysafe brand except through their type arguments, which are searched anyway.
 */
function isDeclaredInUserCode(program: ts.Program, type: ts.Type): boolean {
  if (getObjectFlags(type) & typescript.ObjectFlags.Mapped) return true;
  const declarations = type.getSymbol()?.declarations ?? [];
  if (declarations.length === 0) return true;
  return declarations.some((declaration) => {
    const file = declaration.getSourceFile();
    if (program.isSourceFileDefaultLibrary(file)) return false;
    return !program.isSourceFileFromExternalLibrary(file) || isInSpecPackage(file.fileName);
  });
}

function isTypeReference(type: ts.Type): type is ts.TypeReference {
  return (getObjectFlags(type) & typescript.ObjectFlags.Reference) !== 0;
}

function getObjectFlags(type: ts.Type): ts.ObjectFlags {
  return type.flags & typescript.TypeFlags.Object ? (type as ts.ObjectType).objectFlags : 0;
}

function getUnionParts(type: ts.Type): readonly ts.Type[] {
  return type.isUnion() ? type.types : [type];
}

function isNullish(type: ts.Type): boolean {
  return (type.flags & (typescript.TypeFlags.Null | typescript.TypeFlags.Undefined | typescript.TypeFlags.Void)) !== 0;
}

/** A type parameter stands for its constraint: `T extends DeterministicKey` carries the brand. */
function getConstraint(checker: ts.TypeChecker, type: ts.Type): ts.Type {
  if (!(type.flags & typescript.TypeFlags.TypeParameter)) return type;
  return checker.getBaseConstraintOfType(type) ?? type;
}

/** Whether a type is `any` or `never`: a cast to either is accepted wherever a brand is expected. */
export function isEscapeHatchType(type: ts.Type): boolean {
  return (type.flags & (typescript.TypeFlags.Any | typescript.TypeFlags.Never)) !== 0;
}
