// A codebase's own name for its keys. The alias hides the brand from a look at the cast's text,
// so only type information shows that `as OrderKey` forges a `DeterministicKey`.
import type { DeterministicKey } from '@retrysafe/spec';

/** The key of an order-level operation (refund, cancellation). */
export type OrderKey = DeterministicKey;
