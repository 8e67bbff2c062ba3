// The plugin's first import checks the `typescript` package before the parser loads it. The run on
// a real TypeScript 7 install, from the packed tarball, is in tests/tarballs.test.ts at the root.
import { describe, expect, it } from 'vitest';

import { assertSupportedTypeScript, describeUnsupportedTypeScript, TYPESCRIPT_7_GUIDE } from '../src/configs/index.js';

describe('the typescript package the parser loads', () => {
  it.each(['5.5.4', '6.0.2', '6.0.3'])('TypeScript %s is accepted', (version) => {
    expect(describeUnsupportedTypeScript(version)).toBeUndefined();
  });

  it('TypeScript 7 is refused with the side-by-side setup spelled out, for the installed version', () => {
    const message = describeUnsupportedTypeScript('7.0.2');
    expect(message).toContain('the typescript package is TypeScript 7.0.2, which has no JavaScript API');
    expect(message).toContain('"typescript": "npm:@typescript/typescript6@6.0.2"');
    expect(message).toContain('"@typescript/native": "npm:typescript@7.0.2"');
    expect(message).toContain(TYPESCRIPT_7_GUIDE);
    expect(describeUnsupportedTypeScript('7.1.0-dev.20261021.1')).toContain('"@typescript/native": "npm:typescript@7.1.0-dev.20261021.1"');
  });

  it('a missing typescript package is named, with what to install', () => {
    expect(describeUnsupportedTypeScript(undefined)).toMatch(/typescript package is not installed.*npm install --save-dev typescript@6/s);
  });

  it('the TypeScript this repository installs passes the check', () => {
    expect(() => assertSupportedTypeScript()).not.toThrow();
  });

  it('a folder from which no typescript resolves gets the missing-package error', () => {
    expect(() => assertSupportedTypeScript(new URL('file:///nonexistent-retrysafe-root/index.js'))).toThrow(/typescript package is not installed/);
  });
});
