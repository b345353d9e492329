export * from './password.js';
export * from './user.js';
