/** The tables, one file per area under schema/ (decision 145). */
export * from './schema/index.js';
