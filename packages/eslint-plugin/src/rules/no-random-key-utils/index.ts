export * from './keyRuleOptions.js';
