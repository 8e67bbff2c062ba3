// The brands of @retrysafe/spec (`DeterministicKey`, `Durable`) recognised from syntax: a type
// annotation that names one through its import, an alias or an interface in the same file. The
// type-aware counterpart, by the brand's `unique symbol`, is program/brandTypes. Built on ast/ only.
export * from './brands.js';
