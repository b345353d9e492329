import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { createFileStore, type FileStore } from './store.js';
import { createPostgresStore } from './store-postgres.js';
import { createS3Store } from './store-s3.js';

/** The store named by FILE_STORE (docs/operations.md): disk by default, PostgreSQL or S3 to scale out. */
export function openFileStore(deps: { config: Config; db: Db }): FileStore {
  const { config } = deps;
  if (config.fileStore === 'postgres') return createPostgresStore(deps.db);
  if (config.fileStore === 's3') {
    if (!config.s3) throw new Error('FILE_STORE=s3 needs the S3_* settings');
    return createS3Store(config.s3);
  }
  return createFileStore(config);
}
