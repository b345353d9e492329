import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where PDF bytes live, by file id (docs/product.md#design-3 Files: never a user-given name). Kept small on
 * purpose: an S3 or PostgreSQL store only has to implement these three calls.
 */
export interface FileStore {
  put(id: string, bytes: Buffer): Promise<void>;
  /** Null when no such file is stored. */
  get(id: string): Promise<Buffer | null>;
  delete(id: string): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `${dir}/<id>.pdf`; writes go through a temporary file and a rename, so a reader never sees half a PDF. */
export function createDiskStore(dir: string): FileStore {
  const fileOf = (id: string) => {
    if (!UUID.test(id)) throw new Error(`invalid file id: ${id}`);
    return path.join(dir, `${id}.pdf`);
  };
  let ready: Promise<unknown> | undefined;
  return {
    async put(id, bytes) {
      const target = fileOf(id);
      await (ready ??= mkdir(dir, { recursive: true }));
      const tmp = path.join(dir, `.${randomUUID()}.tmp`);
      await writeFile(tmp, bytes);
      await rename(tmp, target);
    },
    async get(id) {
      try {
        return await readFile(fileOf(id));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async delete(id) {
      await rm(fileOf(id), { force: true });
    },
  };
}

/** The store of a running app: `${dataDir}/pdfs/<id>.pdf`. */
export function createFileStore(config: { dataDir: string }): FileStore {
  return createDiskStore(path.join(config.dataDir, 'pdfs'));
}
