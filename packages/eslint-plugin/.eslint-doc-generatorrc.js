/** Settings for eslint-doc-generator: rule doc headers and the rule tables, checked by the tests. */
export default {
  configEmoji: [
    ['recommended', '✅'],
    ['strict', '🔒'],
    ['recommended-type-checked', '☑️'],
  ],
  pathRuleList: ['README.md', '../../README.md'],
  ruleDocSectionOptions: false,
  ruleDocTitleFormat: 'desc-parens-prefix-name',
  ruleListColumns: ['name', 'description', 'configsError', 'configsWarn', 'configsOff', 'fixable', 'hasSuggestions', 'requiresTypeChecking'],
  // The repository README sits two folders up: its links must start from the repository root.
  urlRuleDoc: (name, page) => (page.startsWith('../../') ? `packages/eslint-plugin/docs/rules/${name}.md` : undefined),
};
