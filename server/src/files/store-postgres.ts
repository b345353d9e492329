import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { one } from '../db/query.js';
import type { FileStore } from './store.js';

/** A `bytea`: a Buffer through node-postgres, a Uint8Array through PGlite (a Buffer is one too). */
const blobRow = z.object({ bytes: z.instanceof(Uint8Array) });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const checkId = (id: string) => {
  if (!UUID.test(id)) throw new Error(`invalid file id: ${id}`);
  return id;
};

/**
 * PDFs as rows of `file_blobs` (docs/decisions/operations.md): every instance sees them without a
 * shared disk, and a database backup carries them. Same SQL on PGlite and PostgreSQL.
 */
export function createPostgresStore(db: Db): FileStore {
  return {
    async put(id, bytes) {
      await db.execute(sql`
        INSERT INTO file_blobs (id, bytes) VALUES (${checkId(id)}::uuid, ${bytes})
        ON CONFLICT (id) DO UPDATE SET bytes = EXCLUDED.bytes`);
    },
    async get(id) {
      const row = await one(db, blobRow, sql`SELECT bytes FROM file_blobs WHERE id = ${checkId(id)}::uuid`);
      if (!row) return null;
      // node-postgres gives a Buffer, PGlite a Uint8Array: one shape for callers.
      return Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
    },
    async delete(id) {
      await db.execute(sql`DELETE FROM file_blobs WHERE id = ${checkId(id)}::uuid`);
    },
  };
}
