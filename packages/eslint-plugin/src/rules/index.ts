// Rules are registered here, sorted by id. Each lives in its own file with its test and its doc.
import noContradictedPolicy from './no-contradicted-policy.js';
import noContradictedPolicyTypeChecked from './no-contradicted-policy-type-checked.js';
import noKeyCast from './no-key-cast.js';
import noKeyCastTypeChecked from './no-key-cast-type-checked.js';
import noMisleadingIdempotentHint from './no-misleading-idempotent-hint.js';
import noRandomKey from './no-random-key.js';
import noRandomKeyTypeChecked from './no-random-key-type-checked.js';
import noUnsafeRetryPolicy from './no-unsafe-retry-policy.js';
import requireKeyPassthrough from './require-key-passthrough.js';
import requireKeyPassthroughTypeChecked from './require-key-passthrough-type-checked.js';
import requireRetryPolicy from './require-retry-policy.js';
import requireRetryPolicyTypeChecked from './require-retry-policy-type-checked.js';

export const rules = {
  'no-contradicted-policy': noContradictedPolicy,
  'no-contradicted-policy-type-checked': noContradictedPolicyTypeChecked,
  'no-key-cast': noKeyCast,
  'no-key-cast-type-checked': noKeyCastTypeChecked,
  'no-misleading-idempotent-hint': noMisleadingIdempotentHint,
  'no-random-key': noRandomKey,
  'no-random-key-type-checked': noRandomKeyTypeChecked,
  'no-unsafe-retry-policy': noUnsafeRetryPolicy,
  'require-key-passthrough': requireKeyPassthrough,
  'require-key-passthrough-type-checked': requireKeyPassthroughTypeChecked,
  'require-retry-policy': requireRetryPolicy,
  'require-retry-policy-type-checked': requireRetryPolicyTypeChecked,
};
