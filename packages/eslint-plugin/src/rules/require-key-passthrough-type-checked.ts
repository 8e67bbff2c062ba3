import { ESLintUtils } from '@typescript-eslint/utils';

import type { ObjectResolver } from '../ast/index.js';
import { createImportedObjectResolver } from '../program/index.js';
import { getKeyedHandler } from '../effects/index.js';
import { createPassthroughRule } from './require-key-passthrough-utils/index.js';

export type { MessageIds, Options } from './require-key-passthrough-utils/index.js';

// The twin reads a with_key policy that another file of the program declares: a policy `const`
// imported and given to `declarePolicy(tool, KEYED)`, or spread into a policy or a `defineTool` config
// (`defineTool({ ...keyed, name, execute })`), through renames and barrels, where the checker finds
// its declaration (program/importedObjects.ts). It judges only the tools require-key-passthrough
// cannot see as with_key, so each call is reported once with both rules on.

export default createPassthroughRule({
  name: 'require-key-passthrough-type-checked',
  description: 'Require tools that are idempotent with a key through a policy of another file to pass that key to providers that accept one',
  judgesUndeclared: false,
  keyedHandlers: (context) => {
    const sourceCode = context.sourceCode;
    const services = ESLintUtils.getParserServices(context);
    let imported: ObjectResolver | undefined;
    // Created at the first tool that needs it.
    const resolve: ObjectResolver = (code, node) => (imported ??= createImportedObjectResolver(sourceCode, context.filename, services))(code, node);
    return {
      resolve,
      handlerOf: (tool) => {
        // A with_key policy this file shows is the syntactic rule's to judge.
        if (!tool.policy || getKeyedHandler(tool, sourceCode)) return undefined;
        return getKeyedHandler(tool, sourceCode, resolve);
      },
    };
  },
});
