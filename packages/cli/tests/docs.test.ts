import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { AUDIT_RULE_IDS, FORMATS, QUESTIONS, runCli } from '../src/index.js';
import { fixture } from './support.js';

// docs/audit.md cannot drift from the command: every option of --help, every format and every SARIF
// rule id is documented, and every help link the SARIF output gives lands on a heading.

const docs = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/audit.md'), 'utf8');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const anchors = new Set(
  [...docs.matchAll(/^#+ (.+)$/gm)].map((match) => (match[1] ?? '').toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-')),
);

describe('docs/audit.md', () => {
  it('documents every option --help lists', async () => {
    let help = '';
    const sink = { write: (text: string) => ((help += text), true) } as unknown as NodeJS.WritableStream;
    await runCli(['audit', '--help'], { stdout: sink, stderr: sink, env: {}, cwd: fixture('tools') });
    const options = [...help.matchAll(/^\s+(?:-\w, )?(--[\w-]+)/gm)].map((match) => match[1]);
    expect(options.length).toBeGreaterThan(8);
    for (const option of options) expect(docs, option).toContain(option);
  });

  it('has a section with an example for every format', () => {
    for (const format of FORMATS) expect(docs).toMatch(new RegExp(`^### \`${format}\``, 'm'));
  });

  it("lands every SARIF help link on a heading, and lists every question's rule id", async () => {
    const { formatSarif } = await import('../src/format/sarif.js');
    const { auditFixture } = await import('./support.js');
    const log = JSON.parse(formatSarif(await auditFixture('tools')));
    const links = log.runs[0].tool.driver.rules.map((rule: { helpUri: string }) => rule.helpUri).filter((uri: string) => uri.includes('docs/audit.md#'));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(anchors).toContain(link.split('#')[1]);
    for (const id of QUESTIONS) expect(docs).toContain(`\`${AUDIT_RULE_IDS[id]}\``);
  });
});
