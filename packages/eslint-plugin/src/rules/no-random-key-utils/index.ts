export * from './keyRule.js';
