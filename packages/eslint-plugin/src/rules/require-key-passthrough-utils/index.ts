export * from './keyedHandlers.js';
