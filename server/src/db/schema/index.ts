/**
 * The drizzle schema (server/drizzle.config.ts reads this file), one file per area: `import * as schema` and
 * `from '../db/schema.js'` (db/schema.ts re-exports this index) see every table.
 */
export * from './institutions.js';
export * from './users.js';
export * from './auth.js';
export * from './chapters.js';
export * from './sessions.js';
export * from './files.js';
export * from './answers.js';
export * from './grading.js';
export * from './sorting.js';
export * from './centers.js';
export * from './regrade.js';
export * from './ops.js';
export * from './selections.js';
