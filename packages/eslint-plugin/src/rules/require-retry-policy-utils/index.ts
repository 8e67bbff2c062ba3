export * from './policyJudgement.js';
