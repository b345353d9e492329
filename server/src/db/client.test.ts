import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { openDatabase } from './client.js';

it('opens the embedded database in a data folder that does not exist yet (npm run demo empties it first)', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'olympe-db-'));
  try {
    const database = await openDatabase({ dataDir: path.join(root, 'data', 'demo') });
    const result = await database.db.execute(sql`SELECT 1 AS one`);
    expect(result.rows).toEqual([{ one: 1 }]);
    await database.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 60_000);
