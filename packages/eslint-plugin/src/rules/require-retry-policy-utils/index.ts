export * from './policyJudgement.js';
export * from './policyRule.js';
