/** Settings for eslint-doc-generator: rule doc headers and the rule tables, checked by the tests. */
export default {
  configEmoji: [
    ['recommended', '✅'],
    ['recommended-type-checked', '☑️'],
  ],
  // It only turns rules off (for files without type information): a column of it says nothing.
  ignoreConfig: ['disable-type-checked'],
  pathRuleList: ['README.md', '../../README.md'],
  ruleDocSectionOptions: false,
  ruleDocTitleFormat: 'desc-parens-prefix-name',
  ruleListColumns: ['name', 'description', 'configsError', 'configsWarn', 'configsOff', 'fixable', 'hasSuggestions', 'requiresTypeChecking'],
  // The repository README sits two folders up: its links must start from the repository root.
  urlRuleDoc: (name, page) => (page.startsWith('../../') ? `packages/eslint-plugin/docs/rules/${name}.md` : undefined),
};
