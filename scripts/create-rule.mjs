// Scaffolds a new rule of @retrysafe/eslint-plugin from its id: the rule, its test and its doc, and
// registers it in src/rules/index.ts (sorted by id). docs/contributing.md ("Add a rule") says what to
// write in each and how to finish (build, regenerate the doc headers and rule tables, run the tests).
//
//   node scripts/create-rule.mjs <rule-id> [--description "Disallow ..."] [--dry-run] [--root DIR]
//
// --description  the rule's one line (starts with Enforce, Require or Disallow); a TODO by default
// --dry-run      print the files it would write and the registration, write nothing
// --root DIR     the repository to write into (default: this script's repository)
//
// The test and the doc it writes hold a TODO case that fails until the rule reports it: a new rule
// starts with a failing test. Type-aware rules come in twin pairs built from one factory
// (createTwinRule); the scaffold writes a rule that needs no types.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const RULE_ID = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const DESCRIPTION = /^(Enforce|Require|Disallow) /;

/** `no-random-key` → `noRandomKey`. */
export function camelCase(id) {
  return id.replace(/-([a-z0-9])/g, (_, letter) => letter.toUpperCase());
}

/** The files of a new rule, by path relative to the plugin package, and its registered `src/rules/index.ts`. */
export function scaffold(id, description, rulesIndex) {
  if (!RULE_ID.test(id)) throw new Error(`A rule id is kebab-case (no-random-key): ${JSON.stringify(id)}`);
  if (id.endsWith('-type-checked')) {
    throw new Error('A type-aware rule is the twin of a rule that needs no types: write both with createTwinRule (docs/contributing.md).');
  }
  if (!DESCRIPTION.test(description)) throw new Error(`A rule's description starts with Enforce, Require or Disallow: ${JSON.stringify(description)}`);
  const messageId = camelCase(id.replace(/^(no|require|prefer)-/, ''));
  return {
    files: {
      [`src/rules/${id}.ts`]: ruleSource(id, description, messageId),
      [`tests/rules/${id}.test.ts`]: testSource(id, messageId),
      [`docs/rules/${id}.md`]: docSource(id, description),
    },
    rulesIndex: register(rulesIndex, id),
  };
}

function ruleSource(id, description, messageId) {
  return `import type { TSESTree } from '@typescript-eslint/utils';

import { createRule } from './utils/index.js';

export type Options = [];
export type MessageIds = '${messageId}';

export default createRule<Options, MessageIds>({
  name: '${id}',
  meta: {
    type: 'problem',
    docs: {
      description: '${description.replaceAll("'", "\\'")}',
      // Every rule meets the recommended bar: run it over real code (scripts/evaluate-real-code.mjs)
      // and judge every finding before it is merged.
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    messages: {
      // Name the problem and its source (the call, the line), and what to do instead.
      ${messageId}: 'TODO: what is wrong with \`{{name}}\` (line {{line}}), and what to write instead.',
    },
    schema: [],
    defaultOptions: [],
  },
  create(context) {
    // Return no listeners for a file that cannot hold what this rule judges, as the other rules do
    // with the shared analysis (createToolRecogniser(...).mayDefineTools, mayHaveKeyPositions): most
    // files of a large code base have nothing to judge (docs/performance.md).
    return {
      CallExpression(node: TSESTree.CallExpression): void {
        // TODO: judge \`node\` with the shared analysis (src/tools, src/keys, src/effects) and report
        // only with evidence you can name.
        void context;
        void node;
      },
    };
  },
});
`;
}

function testSource(id, messageId) {
  return `import { RuleTester } from '@typescript-eslint/rule-tester';

import rule from '../../src/rules/${id}.js';

// Sources are flush left so that the line and column of each case read straight off the code.
const ruleTester = new RuleTester();

ruleTester.run('${id}', rule, {
  valid: [
    {
      name: 'TODO: a look-alike the rule must not report',
      code: \`const refund = await payments.refund(orderId);\`,
    },
  ],
  invalid: [
    {
      // Fails until the rule reports it: write the case the rule exists for, with its line and column.
      name: 'TODO: the case the rule exists for',
      code: \`todo();\`,
      errors: [{ messageId: '${messageId}', line: 1, column: 1 }],
    },
  ],
});
`;
}

function docSource(id, description) {
  return `# ${description} (\`@retrysafe/${id}\`)

<!-- end auto-generated rule header -->

TODO: why it matters, in two or three sentences tied to the seed's five sources of repetition
(transport retries, loop retries, the model asking again, a resumed run, a redelivered job).

## Examples

### ❌ Incorrect

\`\`\`ts
todo();
\`\`\`

### ✅ Correct

\`\`\`ts
const refund = await payments.refund(orderId);
\`\`\`

## Options

This rule takes no options.

## When Not To Use It

TODO

## Further Reading

- [Concepts](../../../../docs/concepts.md)
`;
}

/** \`rulesIndex\` with the rule imported and listed, both sorted by id as the file keeps them. */
export function register(rulesIndex, id) {
  const name = camelCase(id);
  const lines = rulesIndex.split('\n');
  const imports = lines.filter((line) => line.startsWith('import '));
  if (imports.some((line) => line.endsWith(`'./${id}.js';`))) throw new Error(`${id} is registered already`);
  const byId = (line) => /'\.\/([^']+)\.js'/.exec(line)?.[1] ?? '';
  const sortedImports = [...imports, `import ${name} from './${id}.js';`].sort((a, b) => byId(a).localeCompare(byId(b)));
  const start = lines.findIndex((line) => line.startsWith('export const rules = {'));
  const end = lines.findIndex((line, index) => index > start && line === '};');
  const entries = [...lines.slice(start + 1, end), `  '${id}': ${name},`].sort((a, b) => (/'([^']+)'/.exec(a)?.[1] ?? '').localeCompare(/'([^']+)'/.exec(b)?.[1] ?? ''));
  const head = lines.slice(0, lines.indexOf(imports[0]));
  return [...head, ...sortedImports, ...lines.slice(lines.indexOf(imports.at(-1)) + 1, start + 1), ...entries, ...lines.slice(end)].join('\n');
}

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { description: { type: 'string' }, 'dry-run': { type: 'boolean' }, root: { type: 'string' } },
  });
  const [id] = positionals;
  if (!id || positionals.length > 1) {
    console.error('usage: node scripts/create-rule.mjs <rule-id> [--description "Disallow ..."] [--dry-run] [--root DIR]');
    process.exit(2);
  }
  const root = path.resolve(values.root ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const pluginDir = path.join(root, 'packages/eslint-plugin');
  const indexPath = path.join(pluginDir, 'src/rules/index.ts');
  const { files, rulesIndex } = scaffold(id, values.description ?? `Disallow TODO (describe what ${id} reports)`, readFileSync(indexPath, 'utf8'));
  for (const file of Object.keys(files)) {
    if (existsSync(path.join(pluginDir, file))) throw new Error(`packages/eslint-plugin/${file} exists already`);
  }
  if (values['dry-run']) {
    for (const [file, text] of Object.entries(files)) console.log(`--- would write packages/eslint-plugin/${file}\n${text}`);
    console.log(`--- would register ${id} in packages/eslint-plugin/src/rules/index.ts\n${rulesIndex}`);
    return;
  }
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(pluginDir, file)), { recursive: true });
    writeFileSync(path.join(pluginDir, file), text);
    console.log(`wrote packages/eslint-plugin/${file}`);
  }
  writeFileSync(indexPath, rulesIndex);
  console.log(`registered ${id} in packages/eslint-plugin/src/rules/index.ts`);
  console.log('next: write the rule and its cases, then `pnpm --filter @retrysafe/eslint-plugin build && pnpm --filter @retrysafe/eslint-plugin docs` (doc header, README rule tables) and run its test (docs/contributing.md)');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
