export * from './password.js';
export * from './text.js';
export * from './user.js';
