import type { DeterministicKey } from '@retrysafe/spec';

/** The key type of the order tools: an alias, so only the type checker sees the brand behind it. */
export type OrderKey = DeterministicKey;
