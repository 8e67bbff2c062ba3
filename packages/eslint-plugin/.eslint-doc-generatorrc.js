/** Settings for eslint-doc-generator: rule doc headers and the rule tables, checked by the tests. */
export default {
  configEmoji: [
    ['recommended', '✅'],
    ['strict', '🔒'],
    ['recommended-type-checked', '☑️'],
  ],
  pathRuleList: ['README.md', '../../README.md'],
  ruleDocTitleFormat: 'desc-parens-prefix-name',
  ruleListColumns: ['name', 'description', 'configsError', 'configsWarn', 'configsOff', 'fixable', 'hasSuggestions', 'requiresTypeChecking'],
  urlRuleDoc: (name, page) =>
    page.endsWith('README.md') && !page.includes('packages') ? `packages/eslint-plugin/docs/rules/${name}.md` : undefined,
};
