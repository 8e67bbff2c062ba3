export * from './keyedHandlers.js';
export * from './keyOrigin.js';
