export * from './castRule.js';
