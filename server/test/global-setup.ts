import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../src/db/client.js';

/**
 * Migrates once per run (decision 7: a cold PGlite costs seconds). On PGlite the migrated
 * database is snapshotted to a tarball each test file loads; on PostgreSQL (TEST_DATABASE_URL)
 * a template database is migrated, each test file clones it, and all are dropped at the end.
 */
export default async function setup() {
  const dir = path.join(os.tmpdir(), `olympe-test-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  process.env.OLYMPE_TEST_DIR = dir;
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = `olympe_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    const url = withDatabase(serverUrl, template);
    const database = await openDatabase({ databaseUrl: url });
    await database.migrate();
    await database.close();
    process.env.OLYMPE_TEST_TEMPLATE = template;
    return async () => {
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE 'olympe_t%_${process.pid}%' OR datname = $1`,
        [template],
      );
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await admin.end();
    };
  }
  const client = await PGlite.create();
  const database = await openDatabase({ pglite: client });
  await database.migrate();
  const dump = await client.dumpDataDir('none');
  writeFileSync(path.join(dir, 'snapshot.tar'), Buffer.from(await dump.arrayBuffer()));
  await client.close();
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
