export * from './roles.js';
export * from './quota.js';
export * from './api.js';
export * from './tokens.js';
export * from './redemptions.js';
export * from './pricing.js';
export * from './topup.js';
export * from './channel-types.js';
