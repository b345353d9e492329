import { createReadStream, statSync } from 'node:fs';
import { normalizeText } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { institutions } from '../db/schema.js';
import { CsvParser } from './csv-parser.js';

/**
 * Import of the Ministry of Education's open "Annuaire de l'éducation" export (semicolon-separated,
 * UTF-8, header row). Collèges and lycées only, upserted by UAI (re-running updates, never
 * duplicates), confirmed. A bad row is reported and skipped; it never aborts the import.
 */

export const COLUMNS = {
  uai: 'Identifiant_de_l_etablissement',
  name: 'Nom_etablissement',
  type: 'Type_etablissement',
  street: 'Adresse_1',
  postalCode: 'Code_postal',
  city: 'Nom_commune',
  email: 'Mail',
  latitude: 'latitude',
  longitude: 'longitude',
} as const;
type ColumnKey = keyof typeof COLUMNS;
export type ColumnIndex = Record<ColumnKey, number>;

export interface SchoolRecord {
  uai: string;
  name: string;
  address: string;
  email: string | null;
  latitude: number;
  longitude: number;
}

export type RowOutcome =
  | { kind: 'school'; school: SchoolRecord }
  | { kind: 'ignored' }
  | { kind: 'noCoordinates'; uai: string; name: string }
  | { kind: 'bad'; reason: string };

/** Maps the header to column positions; throws (aborting the import) when the file is not the directory export. */
export function indexColumns(header: string[]): ColumnIndex {
  const names = header.map((h) => h.trim());
  const missing: string[] = [];
  const index = {} as ColumnIndex;
  for (const [key, column] of Object.entries(COLUMNS) as Array<[ColumnKey, string]>) {
    const at = names.indexOf(column);
    if (at < 0) missing.push(column);
    index[key] = at;
  }
  if (missing.length > 0) {
    throw new Error(`Ce fichier n’est pas un export de l’annuaire de l’éducation : colonnes manquantes (${missing.join(', ')}).`);
  }
  return index;
}

/** Collèges and lycées (général, professionnel, agricole...) only: écoles, services and the like are ignored. */
export function isCollegeOrLycee(type: string): boolean {
  const t = normalizeText(type);
  return t.startsWith('college') || t.startsWith('lycee');
}

/** "12 rue X, 75002 Paris": the postal address the profile filter searches. */
export function buildAddress(street: string, postalCode: string, city: string): string {
  const clean = (v: string) => v.replace(/\s+/g, ' ').trim();
  const town = [clean(postalCode), clean(city)].filter(Boolean).join(' ');
  return [clean(street), town].filter(Boolean).join(', ');
}

const UAI = /^[0-9]{7}[A-Z]$/;
const EMAIL = /^[^\s@;,]+@[^\s@;,]+\.[^\s@;,]+$/;

function parseCoordinate(raw: string): number | null | 'invalid' {
  const s = raw.trim().replace(',', '.');
  if (s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : 'invalid';
}

/** Classifies one data row: a school to upsert, ignored (not a collège/lycée), no coordinates, or bad. */
export function classifyRow(fields: string[], columns: ColumnIndex, expectedLength: number): RowOutcome {
  if (fields.length !== expectedLength) {
    return { kind: 'bad', reason: `${fields.length} colonnes au lieu de ${expectedLength}` };
  }
  const get = (k: ColumnKey) => (fields[columns[k]] ?? '').trim();
  if (!isCollegeOrLycee(get('type'))) return { kind: 'ignored' };
  const uai = get('uai').toUpperCase();
  if (!UAI.test(uai)) return { kind: 'bad', reason: `identifiant UAI invalide « ${get('uai')} »` };
  const name = get('name').replace(/\s+/g, ' ');
  if (!name) return { kind: 'bad', reason: `établissement ${uai} sans nom` };
  if (name.length > 200) return { kind: 'bad', reason: `établissement ${uai} : nom trop long` };
  const latitude = parseCoordinate(get('latitude'));
  const longitude = parseCoordinate(get('longitude'));
  if (latitude === null || longitude === null) return { kind: 'noCoordinates', uai, name };
  if (latitude === 'invalid' || longitude === 'invalid' || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    return { kind: 'bad', reason: `établissement ${uai} : coordonnées invalides` };
  }
  const rawEmail = get('email').toLowerCase();
  return {
    kind: 'school',
    school: {
      uai,
      name,
      address: buildAddress(get('street'), get('postalCode'), get('city')).slice(0, 300),
      // A malformed e-mail is not worth losing the school for: it is dropped.
      email: EMAIL.test(rawEmail) && rawEmail.length <= 254 ? rawEmail : null,
      latitude,
      longitude,
    },
  };
}

export interface UpsertResult {
  /** UAIs of the rows inserted and of the rows updated. */
  created: string[];
  updated: string[];
  failed: Array<{ uai: string; reason: string }>;
}

/** Inserts or updates by UAI in one statement; a batch the database refuses is retried row by row to isolate the culprit. */
export async function upsertSchools(db: Db, schools: SchoolRecord[]): Promise<UpsertResult> {
  const result: UpsertResult = { created: [], updated: [], failed: [] };
  if (schools.length === 0) return result;
  const collect = (rows: Array<{ uai: string | null; inserted: unknown }>) => {
    for (const r of rows) (r.inserted === true || r.inserted === 't' ? result.created : result.updated).push(r.uai!);
  };
  try {
    collect(await upsertBatch(db, schools));
  } catch {
    for (const school of schools) {
      try {
        collect(await upsertBatch(db, [school]));
      } catch (err) {
        result.failed.push({ uai: school.uai, reason: err instanceof Error ? err.message.split('\n')[0] : String(err) });
      }
    }
  }
  return result;
}

function upsertBatch(db: Db, schools: SchoolRecord[]) {
  return (
    db
      .insert(institutions)
      .values(schools.map((s) => ({ ...s, confirmed: true })))
      .onConflictDoUpdate({
        target: institutions.uai,
        set: {
          name: sql`excluded.name`,
          address: sql`excluded.address`,
          email: sql`excluded.email`,
          latitude: sql`excluded.latitude`,
          longitude: sql`excluded.longitude`,
          confirmed: sql`true`,
        },
      })
      // xmax = 0 only on a freshly inserted row version: tells created from updated (PostgreSQL and PGlite).
      .returning({ uai: institutions.uai, inserted: sql<boolean>`(xmax = 0)` })
  );
}

export interface ImportSummary {
  rows: number;
  created: number;
  updated: number;
  ignored: number;
  duplicates: number;
  noCoordinates: Array<{ line: number; uai: string; name: string }>;
  bad: Array<{ line: number; reason: string }>;
  durationMs: number;
}

export interface ImportOptions {
  batchSize?: number;
  /** Called after each batch with bytes read so far and the file size. */
  onProgress?: (read: number, total: number) => void;
}

/** Reads the file as a stream (the full directory is ~60 MB) and upserts it batch by batch. */
export async function importSchoolsFile(db: Db, file: string, opts: ImportOptions = {}): Promise<ImportSummary> {
  const started = performance.now();
  const batchSize = opts.batchSize ?? 1000;
  const total = statSync(file).size;
  const summary: ImportSummary = { rows: 0, created: 0, updated: 0, ignored: 0, duplicates: 0, noCoordinates: [], bad: [], durationMs: 0 };
  const parser = new CsvParser(';');
  let columns: ColumnIndex | undefined;
  let width = 0;
  let line = 1;
  // Keyed by UAI: a UAI twice in one batch would make PostgreSQL refuse the whole statement.
  let batch = new Map<string, { school: SchoolRecord; line: number }>();
  const done = new Set<string>();
  const seen = new Set<string>();
  const flush = async () => {
    const entries = [...batch.values()];
    batch = new Map();
    const lines = new Map(entries.map((e) => [e.school.uai, e.line]));
    const res = await upsertSchools(
      db,
      entries.map((e) => e.school),
    );
    // A UAI repeated in a later batch is a duplicate already counted, not one more update.
    for (const uai of res.created) if (!done.has(uai)) (done.add(uai), summary.created++);
    for (const uai of res.updated) if (!done.has(uai)) (done.add(uai), summary.updated++);
    for (const f of res.failed) summary.bad.push({ line: lines.get(f.uai) ?? 0, reason: `établissement ${f.uai} refusé : ${f.reason}` });
  };
  const handle = async (records: string[][]) => {
    for (const rec of records) {
      if (!columns) {
        columns = indexColumns(rec);
        width = rec.length;
        continue;
      }
      line++;
      summary.rows++;
      const outcome = classifyRow(rec, columns, width);
      if (outcome.kind === 'ignored') summary.ignored++;
      else if (outcome.kind === 'bad') summary.bad.push({ line, reason: outcome.reason });
      else if (outcome.kind === 'noCoordinates') summary.noCoordinates.push({ line, uai: outcome.uai, name: outcome.name });
      else {
        if (seen.has(outcome.school.uai)) summary.duplicates++;
        seen.add(outcome.school.uai);
        batch.set(outcome.school.uai, { school: outcome.school, line });
        if (batch.size >= batchSize) await flush();
      }
    }
  };
  let read = 0;
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    read += Buffer.byteLength(chunk as string);
    await handle(parser.push(chunk as string));
    opts.onProgress?.(read, total);
  }
  await handle(parser.end());
  if (!columns) throw new Error('Le fichier est vide.');
  await flush();
  opts.onProgress?.(total, total);
  summary.durationMs = Math.round(performance.now() - started);
  return summary;
}
