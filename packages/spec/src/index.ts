export { vouchDurable, type Durable, type DurableInput, type DurablePrimitive } from './durable.js';
export { key, InvalidKeyError, MAX_KEY_LENGTH, type DeterministicKey, type InvalidKeyReason } from './key.js';
export type { RunContext, RunOrigin, RunOriginKind } from './run.js';
export {
  CONTRADICTIONS,
  DEFAULT_MAX_ATTEMPTS,
  declarePolicy,
  policyOf,
  ToolPolicyError,
  type Idempotency,
  type KeyedToolPolicy,
  type NaturallyIdempotentPolicy,
  type NotRepeatablePolicy,
  type PolicyDeclaration,
  type PolicyShape,
  type Retry,
  type SideEffects,
  type ToolPolicy,
} from './policy.js';
export {
  defineTool,
  type AnyKeyedTool,
  type AnyTool,
  type Contradiction,
  type ExecuteContext,
  type ExecuteContextFor,
  type KeyArguments,
  type KeyedExecuteContext,
  type KeyedTool,
  type PolicyContradictions,
  type PolicyFor,
  type Tool,
  type ToolDeclaration,
  type UnkeyedTool,
} from './tool.js';
export { validateInput, InputValidationError } from './validate.js';
