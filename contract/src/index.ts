export * from './password.js';
export * from './text.js';
export * from './user.js';
export * from './groups.js';
export * from './institution.js';
export * from './chapters.js';
export * from './dates.js';
export * from './sessions.js';
