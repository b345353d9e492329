/**
 * Shapes of the grading-table query timed side by side on the database a `KEEP=1` run of
 * measure.ts left behind (olympe_bench_grading), interleaved so that the machine's load hits every
 * variant alike. Two modes:
 *
 *   node --import tsx bench/grading/variants.ts [name...]               # client: SQL + node-postgres + Node's
 *                                                                       # work up to the users JSON text
 *   MODE=server node --import tsx bench/grading/variants.ts [name...]   # PostgreSQL alone: EXPLAIN (ANALYZE,
 *                                                                       # TIMING OFF) execution time
 *
 * RUNS=15 by default. In client mode every variant that builds the users JSON is checked against
 * the first one named (a negative size in the output means it differs). See README.md (2026-11-24).
 */
import { CELL_NONE } from '@olympe/contract';
import pg from 'pg';
import { presentTableUser } from '../../server/src/grading/presenters.js';
import type { TableRow } from '../../server/src/grading/queries.js';
import { cellsToData } from '../../server/src/grading/table-cells.js';
import { benchUrl } from './db.js';

const RUNS = Number(process.env.RUNS ?? 15);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const client = new pg.Client({ connectionString: benchUrl() });
await client.connect();
const q = async <T extends pg.QueryResultRow>(text: string) => (await client.query<T>(text)).rows;
const [{ id: chapterId }] = await q<{ id: string }>(
  `SELECT id FROM chapters WHERE title LIKE 'Bench correction %' ORDER BY created_at DESC LIMIT 1`,
);
const exercises = (
  await q<{ id: string }>(
    `SELECT id FROM exercises WHERE chapter_id = '${chapterId}' AND answer_format <> 'none' ORDER BY position, created_at, id`,
  )
).map((e) => e.id);
await q(`SET enable_hashagg = off`);
const n = exercises.length;
const range = [...Array(n).keys()];
const union = (parts: string[]) => parts.join(' UNION ALL ');

/** One exercise's current answers, in user order (answers_current_idx). */
const branch = (id: string, cols: string) =>
  `(SELECT DISTINCT ON (a.user_id) ${cols} FROM answers a WHERE a.exercise_id = '${id}'::uuid AND a.withdrawn_at IS NULL ORDER BY a.user_id, a.seq DESC, a.created_at DESC)`;
/** The cell before 2026-11-24: a function call or two per index tuple. */
const oldCell = (i: number) => `'${i}:' || coalesce(nullif(a.grade, ''), CASE WHEN btrim(a.answer) <> '' THEN '?' ELSE ' ' END)`;
/** The cell now (grading/service.ts): constants for '?' and ' ', btrim only for an answer starting with a space. */
const newCell = (i: number) =>
  `CASE WHEN a.grade <> '' THEN '${i}:' || a.grade WHEN a.answer <> '' AND (NOT starts_with(a.answer, ' ') OR btrim(a.answer) <> '') THEN '${i}:?' ELSE '${i}: ' END`;
const grouped = (cell: (i: number) => string) =>
  `SELECT user_id, string_agg(cell, E'\\x1f') AS cells FROM (${union(exercises.map((e, i) => branch(e, `a.user_id, ${cell(i)} AS cell`)))}) cur GROUP BY user_id`;
const userCols = `u.id, u.first_name, u.last_name, u.email, u.grade, u.gender, u.birth_date::text AS birth_date`;
const byName = `ORDER BY u.last_name, u.first_name, u.id`;
/** A pupil's JSON built by PostgreSQL up to `"data":` (to_json escapes; the JSON has no spaces, as JSON.stringify). */
const headJson = `to_json(u.id)::text || ':{"firstName":' || coalesce(to_json(u.first_name)::text, 'null') || ',"lastName":' || coalesce(to_json(u.last_name)::text, 'null')
   || ',"email":' || to_json(u.email)::text || ',"grade":' || coalesce(to_json(u.grade)::text, 'null') || ',"gender":' || coalesce(to_json(u.gender)::text, 'null')
   || ',"birthDate":' || coalesce(to_json(u.birth_date::text)::text, 'null') || ',"data":'`;
const jsonCell = `CASE WHEN a.grade <> '' THEN to_json(a.grade)::text WHEN a.answer <> '' AND (NOT starts_with(a.answer, ' ') OR btrim(a.answer) <> '') THEN '"?"' ELSE '" "' END`;
const unsafe = /["\\\u0000-\u001f]/;

type Row = TableRow;
const userOf = presentTableUser;

interface Variant {
  sql: string;
  /** A second statement (same round-trip count as the service would need). */
  second?: string;
  /** Node's work from the rows to the users JSON text. */
  post?: (rows: any[], rows2: any[]) => string;
}

const variants: Record<string, Variant> = {
  // As before 2026-11-24: split/slice/Number per cell, then JSON.stringify.
  old: {
    sql: `WITH agg AS (${grouped(oldCell)}) SELECT ${userCols}, agg.cells FROM agg JOIN users u ON u.id = agg.user_id ${byName}`,
    post: (rows: Row[]) => {
      const users: Record<string, unknown> = {};
      for (const row of rows) {
        const data = new Array<string>(n).fill(CELL_NONE);
        for (const cell of row.cells ? row.cells.split('\x1f') : []) {
          const colon = cell.indexOf(':');
          data[Number(cell.slice(0, colon))] = cell.slice(colon + 1);
        }
        users[row.id] = userOf(row, data);
      }
      return JSON.stringify(users);
    },
  },
  // Now: cheaper cell expression, cells read with charCodeAt (grading/table.ts).
  new: {
    sql: `WITH agg AS (${grouped(newCell)}) SELECT ${userCols}, agg.cells FROM agg JOIN users u ON u.id = agg.user_id ${byName}`,
    post: (rows: Row[]) => {
      const users: Record<string, unknown> = {};
      for (const row of rows) users[row.id] = userOf(row, cellsToData(row.cells, n));
      return JSON.stringify(users);
    },
  },
  // The old cell expression computed after DISTINCT ON (on ~111,000 kept rows instead of ~144,000 index tuples).
  cellAfterDistinct: {
    sql: `WITH agg AS (SELECT user_id, string_agg(idx || ':' || coalesce(nullif(grade, ''), CASE WHEN btrim(answer) <> '' THEN '?' ELSE ' ' END), E'\\x1f') AS cells
        FROM (${union(exercises.map((e, i) => `SELECT user_id, ${i} AS idx, grade, answer FROM ${branch(e, 'a.user_id, a.grade, a.answer')} b`))}) cur GROUP BY user_id)
      SELECT ${userCols}, agg.cells FROM agg JOIN users u ON u.id = agg.user_id ${byName}`,
    post: (rows: Row[]) => {
      const users: Record<string, unknown> = {};
      for (const row of rows) users[row.id] = userOf(row, cellsToData(row.cells, n));
      return JSON.stringify(users);
    },
  },
  // The whole users object built by PostgreSQL, one text: one column per exercise (FILTER) to fill the gaps.
  pgJson: {
    sql: `WITH agg AS (SELECT user_id, ${range.map((i) => `min(cell) FILTER (WHERE idx = ${i}) AS c${i}`).join(', ')}
        FROM (${union(exercises.map((e, i) => branch(e, `a.user_id, ${i} AS idx, ${jsonCell} AS cell`)))}) cur GROUP BY user_id)
      SELECT string_agg(${headJson} || '[' || ${range.map((i) => `coalesce(c${i}, '" "')`).join(` || ',' || `)} || ']}', ',' ${byName}) AS users
      FROM agg JOIN users u ON u.id = agg.user_id`,
    post: (rows) => `{${rows[0].users ?? ''}}`,
  },
  // PostgreSQL builds each pupil's JSON up to "data", Node fills the cells in.
  pgHead: {
    sql: `WITH agg AS (${grouped(newCell)}) SELECT ${headJson} AS head, agg.cells FROM agg JOIN users u ON u.id = agg.user_id ${byName}`,
    post: (rows: Array<{ head: string; cells: string | null }>) => {
      const parts = new Array<string>(rows.length);
      for (let k = 0; k < rows.length; k++) {
        const data = cellsToData(rows[k].cells, n);
        for (let i = 0; i < n; i++) {
          const v = data[i];
          data[i] = v === ' ' ? '" "' : v === '?' ? '"?"' : unsafe.test(v) ? JSON.stringify(v) : `"${v}"`;
        }
        parts[k] = `${rows[k].head}[${data.join(',')}]}`;
      }
      return `{${parts.join(',')}}`;
    },
  },
  // One string per exercise (user id + cell, in user order), the pupils in a second query, merged in Node.
  perExercise: {
    sql: `SELECT ${exercises.map((e, i) => `(SELECT string_agg(user_id::text || cell, E'\\x1f') FROM ${branch(e, `a.user_id, ${newCell(i).replaceAll(`'${i}:`, `'`)} AS cell`)} b) AS e${i}`).join(', ')}`,
    second: `SELECT ${userCols} FROM users u
      WHERE u.id IN (${union(exercises.map((e) => `SELECT a.user_id FROM answers a WHERE a.exercise_id = '${e}'::uuid AND a.withdrawn_at IS NULL`))}) ${byName}`,
    post: (rows, rows2: Row[]) => {
      const dataOf = new Map<string, string[]>();
      for (let i = 0; i < n; i++) {
        const s: string = rows[0][`e${i}`] ?? '';
        let p = 0;
        while (p < s.length) {
          let e = s.indexOf('\x1f', p);
          if (e < 0) e = s.length;
          const id = s.slice(p, p + 36);
          let d = dataOf.get(id);
          if (!d) dataOf.set(id, (d = new Array<string>(n).fill(CELL_NONE)));
          d[i] = s.slice(p + 36, e);
          p = e + 1;
        }
      }
      const users: Record<string, unknown> = {};
      for (const row of rows2) users[row.id] = userOf(row, dataOf.get(row.id)!);
      return JSON.stringify(users);
    },
  },
  // Experimental: pupils LEFT JOIN each exercise's current answers (one column per exercise).
  joins: {
    sql: `SELECT ${userCols}, ${range.map((i) => `b${i}.cell AS c${i}`).join(', ')} FROM users u
      ${exercises.map((e, i) => `LEFT JOIN ${branch(e, `a.user_id, ${newCell(i).replaceAll(`'${i}:`, `'`)} AS cell`)} b${i} ON b${i}.user_id = u.id`).join('\n')}
      WHERE ${range.map((i) => `b${i}.user_id IS NOT NULL`).join(' OR ')} ${byName}`,
    post: (rows: Array<Row & Record<string, string | null>>) => {
      const users: Record<string, unknown> = {};
      for (const row of rows) {
        const data = new Array<string>(n);
        for (let i = 0; i < n; i++) data[i] = row[`c${i}`] ?? CELL_NONE;
        users[row.id] = userOf(row, data);
      }
      return JSON.stringify(users);
    },
  },
  // Pieces of the new query, PostgreSQL only (use with MODE=server).
  partScans: { sql: `SELECT count(*) FROM (${union(exercises.map((e) => branch(e, 'a.user_id')))}) cur` },
  partMerge: {
    sql: `SELECT count(*) FROM (SELECT user_id FROM (${union(exercises.map((e) => branch(e, 'a.user_id')))}) cur GROUP BY user_id) g`,
  },
  partGrouped: { sql: `SELECT sum(length(cells)) FROM (${grouped(newCell)}) g` },
  partUsersSorted: { sql: `SELECT ${userCols} FROM users u ${byName}` },
};

const names = process.argv.slice(2).length ? process.argv.slice(2) : ['old', 'new', 'cellAfterDistinct', 'pgJson', 'pgHead', 'perExercise'];
const times: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
const sizes: Record<string, number> = {};
let reference: string | undefined;
for (let r = 0; r <= RUNS; r++) {
  for (const name of names) {
    const v = variants[name];
    if (!v) throw new Error(`unknown variant ${name}`);
    if (process.env.MODE === 'server') {
      let total = 0;
      for (const text of [v.sql, v.second].filter((x): x is string => !!x)) {
        const plan = await q<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, TIMING OFF) ${text}`);
        total += Number(/Execution Time: ([\d.]+)/.exec(plan.map((p) => p['QUERY PLAN']).join('\n'))![1]);
      }
      if (r > 0) times[name].push(total);
      continue;
    }
    const start = performance.now();
    const rows = await q(v.sql);
    const rows2 = v.second ? await q(v.second) : [];
    const out = v.post?.(rows, rows2);
    if (r > 0) times[name].push(performance.now() - start);
    if (out !== undefined) {
      reference ??= out;
      sizes[name] = out === reference ? out.length : -out.length;
    }
  }
}
for (const name of names) {
  const t = times[name];
  console.log(
    `${name.padEnd(18)} median ${median(t).toFixed(1).padStart(6)} ms  min ${Math.min(...t)
      .toFixed(1)
      .padStart(6)} ms  ${sizes[name] ?? ''}`,
  );
}
await client.end();
