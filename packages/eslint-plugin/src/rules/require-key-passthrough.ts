import { getKeyedHandler } from '../effects/index.js';
import { createPassthroughRule } from './require-key-passthrough-utils/index.js';

export type { MessageIds, Options } from './require-key-passthrough-utils/index.js';

export default createPassthroughRule({
  name: 'require-key-passthrough',
  description: 'Require tools that are idempotent with a key to pass that key to providers that accept one',
  judgesUndeclared: true,
  // The with_key tools whose policy this file shows (through spreads of its own `const`s); one whose
  // policy is, or spreads, a `const` of another file is the type-aware twin's.
  keyedHandlers: (context) => ({ handlerOf: (tool) => getKeyedHandler(tool, context.sourceCode) }),
});
