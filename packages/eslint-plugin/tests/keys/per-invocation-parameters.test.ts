import { describe, expect, it } from 'vitest';

import { PER_INVOCATION_PARAMETERS } from '../../src/keys/index.js';
import { FRAMEWORK_BY_ID } from '../../src/tools/index.js';

// keys/ may not import tools/ (the layers, ARCHITECTURE.md), so its table of per-invocation handler
// parameters names the framework's modules and classes itself: they must be the catalogue's.
describe('PER_INVOCATION_PARAMETERS agrees with the framework catalogue', () => {
  it.each(PER_INVOCATION_PARAMETERS.map((entry) => [entry.framework, entry.handler, entry] as const))('%s %j', (framework, handler, entry) => {
    const catalogued = FRAMEWORK_BY_ID[framework as keyof typeof FRAMEWORK_BY_ID];
    expect(catalogued).toBeDefined();
    expect([...entry.modules].sort()).toEqual([...catalogued.modules].sort());
    if ('call' in handler) {
      expect(catalogued.factories).toContainEqual(expect.objectContaining({ export: handler.call, handlerArgument: handler.argument }));
    } else if ('construct' in handler) {
      expect(catalogued.factories.map((factory) => factory.export)).toContain(handler.construct);
    } else {
      expect([...handler.extendsOneOf].sort()).toEqual([...catalogued.classes].sort());
    }
  });
});
