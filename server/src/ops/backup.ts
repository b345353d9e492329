import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../db/client.js';
import { column, rows } from '../db/query.js';
import type { FileStore } from '../files/store.js';

/**
 * A backup is a folder (docs/operations.md "Backups"):
 *   manifest.json        format, date, migrations applied, row count per table, file count
 *   db/<table>.jsonl.gz  one row per line, as PostgreSQL's row_to_json prints it
 *   files/<id>.pdf       the bytes of every row of `files`, read through the configured store
 * Rows are read through cursors in one REPEATABLE READ transaction (a consistent snapshot while the cup runs);
 * PDFs are written once and never changed, so copying those the snapshot names after it is safe.
 * The same code runs on PGlite and PostgreSQL, and a backup taken from one store restores into any.
 */
export const BACKUP_FORMAT = 'olympe-backup';
const VERSION = 1;
const PAGE = 2000;
/** Bytes of files travel in files/, not in the dump, whatever the store. */
// Derived by triggers, rebuilt by the restore of their source: institution_words from institutions, and
// current_answers, answer_counts and chapter_pupils from answers (decision 116).
const DERIVED = ['institution_words', 'current_answers', 'answer_counts', 'chapter_pupils'];
const NOT_DUMPED = new Set(['file_blobs', ...DERIVED]);
const UUID_PDF = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.pdf$/;

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  migrations: string[];
  tables: Record<string, number>;
  files: number;
  missingFiles: string[];
}

async function appliedMigrations(db: Tx): Promise<string[]> {
  const applied = await rows(
    db,
    z.object({ hash: z.string() }),
    sql`SELECT hash FROM drizzle.__drizzle_migrations ORDER BY created_at, id`,
  );
  return applied.map((r) => r.hash);
}

async function publicTables(db: Tx): Promise<string[]> {
  const found = await rows(
    db,
    z.object({ tablename: z.string() }),
    sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
  );
  return found.map((r) => r.tablename).filter((t) => !NOT_DUMPED.has(t));
}

/** Tables ordered so that every table comes after those its foreign keys point at. */
async function insertOrder(db: Tx, tables: string[]): Promise<string[]> {
  const edges = await rows(
    db,
    z.object({ child: z.string(), parent: z.string() }),
    sql`
    SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
    FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
    WHERE c.contype = 'f' AND n.nspname = 'public'`,
  );
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const e of edges) {
    const child = e.child.replace(/"/g, '');
    const parent = e.parent.replace(/"/g, '');
    if (child !== parent && parents.has(child) && parents.has(parent)) parents.get(child)!.add(parent);
  }
  const ordered: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string, stack: Set<string>) => {
    if (seen.has(t)) return;
    if (stack.has(t)) throw new Error(`foreign key cycle through ${t}`);
    stack.add(t);
    for (const p of parents.get(t) ?? []) visit(p, stack);
    stack.delete(t);
    seen.add(t);
    ordered.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return ordered;
}

/** Writes a consistent snapshot into `outDir` (which must not exist yet); returns its manifest. */
export async function createBackup(deps: { db: Db; store: FileStore }, outDir: string): Promise<Manifest> {
  if (await exists(outDir)) throw new Error(`Le dossier ${outDir} existe déjà : choisissez un nouveau dossier.`);
  // Written beside the target and renamed at the end: a folder with the final name is complete.
  const work = `${outDir}.partial`;
  await rm(work, { recursive: true, force: true });
  await mkdir(path.join(work, 'db'), { recursive: true });
  await mkdir(path.join(work, 'files'), { recursive: true });

  const { tables, fileIds, migrations } = await deps.db.transaction(async (tx) => {
    await tx.execute(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`);
    const counts: Record<string, number> = {};
    for (const table of await publicTables(tx)) counts[table] = await dumpTable(tx, table, path.join(work, 'db', `${table}.jsonl.gz`));
    const ids = (await rows(tx, z.object({ id: z.string() }), sql`SELECT id FROM files ORDER BY id`)).map((r) => r.id);
    return { tables: counts, fileIds: ids, migrations: await appliedMigrations(tx) };
  });

  const missingFiles: string[] = [];
  for (const id of fileIds) {
    const bytes = await deps.store.get(id);
    if (bytes) await writeFile(path.join(work, 'files', `${id}.pdf`), bytes);
    else missingFiles.push(id);
  }
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    version: VERSION,
    createdAt: new Date().toISOString(),
    migrations,
    tables,
    files: fileIds.length - missingFiles.length,
    missingFiles,
  };
  await writeFile(path.join(work, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(work, outDir);
  return manifest;
}

/** Streams a table through a cursor (one sequential scan inside the snapshot) into gzip'd JSON lines. */
async function dumpTable(tx: Tx, table: string, file: string): Promise<number> {
  let count = 0;
  const cursor = sql.identifier(`dump_${table}`);
  await tx.execute(sql`DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM ${sql.identifier(table)} t`);
  const lines = async function* () {
    for (;;) {
      const page = await rows(tx, z.object({ j: z.string() }), sql`FETCH ${sql.raw(`${PAGE}`)} FROM ${cursor}`);
      for (const r of page) {
        count++;
        yield `${r.j}\n`;
      }
      if (page.length < PAGE) return;
    }
  };
  await pipeline(Readable.from(lines()), createGzip(), createWriteStream(file));
  await tx.execute(sql`CLOSE ${cursor}`);
  return count;
}

/**
 * Brings a backup back into an empty instance (migrated to the same level, no user yet): PDFs are
 * put into the configured store first, then every table is filled in one transaction.
 */
export async function restoreBackup(deps: { db: Db; store: FileStore }, fromDir: string): Promise<Manifest> {
  const manifest = JSON.parse(await readFile(path.join(fromDir, 'manifest.json'), 'utf8')) as Manifest;
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== VERSION)
    throw new Error(`${fromDir} n’est pas une sauvegarde Olympe lisible.`);
  const migrations = await appliedMigrations(deps.db);
  if (migrations.join() !== manifest.migrations.join()) {
    throw new Error(
      `La sauvegarde a ${manifest.migrations.length} migrations, cette instance ${migrations.length} : ` +
        'restaurez avec la version d’Olympe qui a fait la sauvegarde, puis mettez à jour.',
    );
  }
  const [{ n }] = await rows(deps.db, z.object({ n: column.number }), sql`SELECT count(*)::int AS n FROM users`);
  if (n > 0) throw new Error('Cette instance contient déjà des comptes : la restauration se fait dans une instance vide.');
  const existing = new Set(await publicTables(deps.db));
  const tables = Object.keys(manifest.tables);
  const unknown = tables.filter((t) => !existing.has(t));
  if (unknown.length) throw new Error(`Tables inconnues de cette instance : ${unknown.join(', ')}.`);

  for (const name of await readdir(path.join(fromDir, 'files'))) {
    if (UUID_PDF.test(name)) await deps.store.put(name.slice(0, -4), await readFile(path.join(fromDir, 'files', name)));
  }

  await deps.db.transaction(async (tx) => {
    // Rows seeded by migrations (role groups, home schooling) come back from the backup itself.
    // The derived tables are emptied too: restoring the schools and the answers fills them again by their triggers.
    await tx.execute(
      sql`TRUNCATE ${sql.join(
        [...tables, ...DERIVED].map((t) => sql.identifier(t)),
        sql`, `,
      )}`,
    );
    for (const table of await insertOrder(tx, tables)) {
      let batch: string[] = [];
      const flush = async () => {
        if (!batch.length) return;
        await tx.execute(sql`
          INSERT INTO ${sql.identifier(table)}
          SELECT * FROM json_populate_recordset(NULL::${sql.identifier(table)}, ${`[${batch.join(',')}]`}::json)`);
        batch = [];
      };
      const lines = createInterface({
        input: createReadStream(path.join(fromDir, 'db', `${table}.jsonl.gz`)).pipe(createGunzip()),
        crlfDelay: Infinity,
      });
      for await (const line of lines) {
        if (!line) continue;
        batch.push(line);
        if (batch.length >= PAGE) await flush();
      }
      await flush();
    }
    // Serial ids continue after the restored rows.
    const serials = await rows(
      tx,
      z.object({ table_name: z.string(), column_name: z.string(), seq: z.string().nullable() }),
      sql`
      SELECT table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name) AS seq
      FROM information_schema.columns WHERE table_schema = 'public' AND column_default LIKE 'nextval(%'`,
    );
    for (const s of serials) {
      if (!s.seq || !tables.includes(s.table_name)) continue;
      await tx.execute(sql`
        SELECT setval(${s.seq}::regclass,
          coalesce((SELECT max(${sql.identifier(s.column_name)}) FROM ${sql.identifier(s.table_name)}), 0) + 1, false)`);
    }
  });
  return manifest;
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}
