import {
  INSTITUTION_MAP_MAX_MARKERS,
  MAP_CLUSTER_CELL_PX,
  PROFILE_MAP_MAX_MARKERS,
  schoolSearchWords,
  SCHOOL_SEARCH_LIMIT,
  type InViewQuery,
  type InViewResponse,
  type Institution,
  type InstitutionCreate,
  type InstitutionUpdate,
  type SchoolSearchResponse,
} from '@olympe/contract';
import { and, count, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Db, Tx } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { HOME_SCHOOLING_ID, institutions, users } from '../db/schema.js';
import { conflict, notFound } from '../errors.js';
import { assertMayEditInstitution, assertMaySetAdminFields, canManageInstitutions } from './policies.js';
import { presentInstitution } from './presenters.js';

const columns = {
  id: institutions.id,
  name: institutions.name,
  address: institutions.address,
  email: institutions.email,
  latitude: institutions.latitude,
  longitude: institutions.longitude,
  confirmed: institutions.confirmed,
};

/** A UAI names one school: a second one with the same code is refused (409) before the unique index would (500). */
async function assertUaiFree(tx: Tx, uai: string, self: string | null): Promise<void> {
  const [taken] = await tx.select({ id: institutions.id, name: institutions.name }).from(institutions).where(eq(institutions.uai, uai));
  if (taken && taken.id !== self) throw conflict(`Le code UAI ${uai} est déjà celui de « ${taken.name} ».`);
}

/**
 * How many unconfirmed schools one non-admin may have proposed at once (decisions.md §29): enough
 * for a real school missing from the directory and a typo or two, not thousands of map markers.
 */
export const MAX_PENDING_INSTITUTIONS = 3;
export const PENDING_LIMIT_MESSAGE = `Vous avez déjà ${MAX_PENDING_INSTITUTIONS} établissements en attente de vérification : modifiez l’un d’eux ou attendez qu’un administrateur les vérifie.`;

/** Who asks for the list: a pending school is shown only to its author, to admins and to its own users. */
export type InstitutionViewer = Pick<AuthContext, 'userId' | 'isAdmin' | 'institutionId'>;

/**
 * Which rows a viewer may see: every confirmed school; an unconfirmed one only to admins, to the
 * user who proposed it, and to a user already attached to it (their profile must still name it).
 */
function visibleTo(viewer: InstitutionViewer) {
  if (canManageInstitutions(viewer)) return sql`TRUE`;
  const own = viewer.institutionId ? sql` OR id = ${viewer.institutionId}` : sql``;
  return sql`(confirmed OR created_by = ${viewer.userId}${own})`;
}

/**
 * GET /institution: the whole list (~70,000 with the national directory) as JSON text built by the
 * database in one value. Materialising 70,000 rows one by one cost seconds on PGlite and a few
 * hundred ms of event-loop time for validation and serialisation; the SELECT below is the
 * allow-list of fields (docs/product.md#spec-3 names), coordinates rounded to 6 decimals (~10 cm).
 */
export async function listInstitutionsJson(db: Db, viewer: InstitutionViewer): Promise<string> {
  const row = await one(
    db,
    z.object({ json: z.string() }),
    sql`
    SELECT coalesce(json_agg(t), '[]')::text AS json FROM (
      SELECT id AS "_id", name, address, email,
        round(latitude::numeric, 6)::float8 AS latitude,
        round(longitude::numeric, 6)::float8 AS longitude,
        confirmed
      FROM institutions
      WHERE ${visibleTo(viewer)}
      ORDER BY id <> ${HOME_SCHOOLING_ID}, name, id
    ) t`,
  );
  return row!.json;
}

/** A school as the map draws it: the fields of GET /institution, coordinates rounded to 6 decimals. */
const MAP_FIELDS = sql`id, name, address, email,
  round(latitude::numeric, 6)::float8 AS latitude, round(longitude::numeric, 6)::float8 AS longitude, confirmed`;
/** The columns of MAP_FIELDS. */
const mapRow = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  email: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  confirmed: z.boolean(),
}) satisfies z.ZodType<Parameters<typeof presentInstitution>[0]>;

const clusterRow = z.object({
  latitude: z.number(),
  longitude: z.number(),
  count: column.number,
  south: z.number(),
  west: z.number(),
  north: z.number(),
  east: z.number(),
});

/** The one school `id` if the viewer may see it (GET /institution/{id}): the profile's current school, home schooling. */
export async function getInstitution(db: Db, viewer: InstitutionViewer, id: string): Promise<Institution> {
  const row = await one(db, mapRow, sql`SELECT ${MAP_FIELDS} FROM institutions WHERE id = ${id} AND ${visibleTo(viewer)}`);
  if (!row) throw notFound('Établissement introuvable.');
  return presentInstitution(row);
}

/**
 * GET /institution/in-view (decision 89): the schools of a map's view, under the rule of that map, instead of
 * the whole directory. The schools (the same the viewer may see in GET /institution) when the view holds
 * few enough; otherwise clusters, one per cell of MAP_CLUSTER_CELL_PX pixels at the map's zoom (cells of
 * the Web Mercator grid Leaflet draws, so they stay put while the map pans), with the mean position, the
 * number and the extent of their schools. On /map above 500, admins still get the first 500 unconfirmed
 * schools by name as markers (decision 9) and the others as clusters.
 * Queries: at most `max + 1` rows of the box (an index range on (latitude, longitude)); then, only when
 * there are more, one aggregate over the box.
 */
export async function listInstitutionsInView(db: Db, viewer: InstitutionViewer, query: InViewQuery): Promise<InViewResponse> {
  const { south, west, north, east, zoom } = query;
  const max = query.map === 'profile' ? PROFILE_MAP_MAX_MARKERS : INSTITUTION_MAP_MAX_MARKERS;
  const inBox = sql`latitude BETWEEN ${south} AND ${north} AND longitude BETWEEN ${west} AND ${east} AND ${visibleTo(viewer)}`;
  // No ORDER BY inside: the scan stops at max + 1 rows, however many the box holds.
  const found = await rows(
    db,
    mapRow,
    sql`
    SELECT * FROM (SELECT ${MAP_FIELDS} FROM institutions WHERE ${inBox} LIMIT ${max + 1}) t ORDER BY name, id`,
  );
  if (found.length <= max) return { total: found.length, schools: found.map(presentInstitution), clusters: [], tooMany: false };

  const picked =
    query.map === 'institutions' && canManageInstitutions(viewer)
      ? await rows(db, mapRow, sql`SELECT ${MAP_FIELDS} FROM institutions WHERE ${inBox} AND NOT confirmed ORDER BY name, id LIMIT ${max}`)
      : [];
  const last = picked.at(-1);
  // The picked ones are the unconfirmed up to the last one in (name, id) order: the rest is clustered.
  const rest = last ? sql`AND (confirmed OR (name, id) > (${last.name}, ${last.id}::uuid))` : sql``;
  // Cells per world side at this zoom: 256 · 2^zoom pixels, cut every MAP_CLUSTER_CELL_PX.
  const cells = (256 * 2 ** zoom) / MAP_CLUSTER_CELL_PX;
  // OFFSET 0 keeps the subquery whole: the planner then expects a few hundred cells and hashes them,
  // where it would otherwise sort every row of the box (it cannot guess how many cells the formula makes).
  const clusters = await rows(
    db,
    clusterRow,
    sql`
    SELECT round(avg(latitude)::numeric, 6)::float8 AS latitude, round(avg(longitude)::numeric, 6)::float8 AS longitude,
      count(*)::int AS count, min(latitude) AS south, min(longitude) AS west, max(latitude) AS north, max(longitude) AS east
    FROM (
      SELECT latitude, longitude,
        floor((longitude + 180) / 360 * ${cells}) AS cx,
        floor((1 - asinh(tan(radians(least(greatest(latitude, -85.05), 85.05)))) / pi()) / 2 * ${cells}) AS cy
      FROM institutions WHERE ${inBox} ${rest}
      OFFSET 0
    ) cell
    GROUP BY cx, cy
    ORDER BY count DESC, latitude, longitude`,
  );
  const total = picked.length + clusters.reduce((sum, c) => sum + c.count, 0);
  return { total, schools: picked.map(presentInstitution), clusters, tooMany: true };
}

const searchRow = mapRow.extend({ uai: z.string().nullable() });

/**
 * GET /institution/search?q=: schools by name, town, postcode or UAI, accents and case ignored. Each
 * word of the query must start one of the school's words (table institution_words, kept by a trigger):
 * one btree range per word, intersected, instead of scanning 70,000 names (decision « School search on
 * the server »). An exact UAI comes first, then schools whose name matches, then by name.
 */
export async function searchInstitutions(db: Db, viewer: InstitutionViewer, query: string): Promise<SchoolSearchResponse> {
  const words = schoolSearchWords(query);
  if (words.length === 0) return { results: [], more: false };
  // The longest word first: the smallest range drives the intersection.
  const ordered = [...words].sort((a, b) => b.length - a.length);
  const [first, ...others] = ordered.map((w) => `${w}%`);
  const found = await rows(
    db,
    searchRow,
    sql`
    SELECT i.id, i.name, i.address, i.email,
      round(i.latitude::numeric, 6)::float8 AS latitude, round(i.longitude::numeric, 6)::float8 AS longitude,
      i.confirmed, i.uai
    FROM institutions i
    WHERE i.id IN (SELECT institution_id FROM institution_words WHERE word LIKE ${first})
      ${sql.join(
        others.map((w) => sql`AND i.id IN (SELECT institution_id FROM institution_words WHERE word LIKE ${w})`),
        sql` `,
      )}
      AND ${visibleTo(viewer)}
    ORDER BY lower(coalesce(i.uai, '')) = ${words.join('')} DESC, i.id = ${HOME_SCHOOLING_ID} DESC, i.name, i.id
    LIMIT ${SCHOOL_SEARCH_LIMIT + 1}`,
  );
  return {
    results: found.slice(0, SCHOOL_SEARCH_LIMIT).map((r) => ({ ...presentInstitution(r), uai: r.uai })),
    more: found.length > SCHOOL_SEARCH_LIMIT,
  };
}

/**
 * POST /institution: any logged-in user proposes a school; it stays unconfirmed unless an admin
 * says otherwise. A non-admin holds at most MAX_PENDING_INSTITUTIONS unconfirmed ones.
 */
export async function createInstitution(db: Db, auth: AuthContext, input: InstitutionCreate): Promise<Institution> {
  assertMaySetAdminFields(auth, input);
  return db.transaction(async (tx) => {
    if (input.uai) await assertUaiFree(tx, input.uai, null);
    if (!canManageInstitutions(auth)) {
      // The author's row is locked so that parallel proposals are counted one after the other.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, auth.userId)).for('update');
      const [{ pending }] = await tx
        .select({ pending: count() })
        .from(institutions)
        .where(and(eq(institutions.createdBy, auth.userId), eq(institutions.confirmed, false)));
      if (pending >= MAX_PENDING_INSTITUTIONS) throw conflict(PENDING_LIMIT_MESSAGE);
    }
    const [row] = await tx
      .insert(institutions)
      .values({
        name: input.name,
        address: input.address ?? '',
        email: input.email ?? null,
        latitude: input.latitude,
        longitude: input.longitude,
        confirmed: canManageInstitutions(auth) ? (input.confirmed ?? false) : false,
        uai: canManageInstitutions(auth) ? (input.uai ?? null) : null,
        createdBy: auth.userId,
      })
      .returning(columns);
    return presentInstitution(row);
  });
}

/** PATCH /institution/{id}: only admins set `confirmed` (docs/product.md#spec-4 Institution). */
export async function updateInstitution(db: Db, auth: AuthContext, id: string, input: InstitutionUpdate): Promise<Institution> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ confirmed: institutions.confirmed, createdBy: institutions.createdBy })
      .from(institutions)
      .where(eq(institutions.id, id))
      .for('update');
    if (!current) throw notFound('Établissement introuvable.');
    assertMayEditInstitution(auth, current);
    assertMaySetAdminFields(auth, input);
    if (input.uai) await assertUaiFree(tx, input.uai, id);
    const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    const [row] =
      Object.keys(changes).length > 0
        ? await tx.update(institutions).set(changes).where(eq(institutions.id, id)).returning(columns)
        : await tx.select(columns).from(institutions).where(eq(institutions.id, id));
    return presentInstitution(row);
  });
}

/**
 * DELETE /institution/{id} (admin): refused while any row points at it (users, centres, registrations,
 * copies): deleting it would orphan a pupil, a centre or a scanned copy.
 */
export async function deleteInstitution(db: Db, id: string): Promise<void> {
  if (id === HOME_SCHOOLING_ID) throw conflict('L’entrée « Instruction en famille » ne peut pas être supprimée.');
  await db.transaction(async (tx) => {
    const [current] = await tx.select({ id: institutions.id }).from(institutions).where(eq(institutions.id, id)).for('update');
    if (!current) throw notFound('Établissement introuvable.');
    const used = (await one(
      tx,
      z.object({ users: z.boolean(), centers: z.boolean(), copies: z.boolean() }),
      sql`
      SELECT
        EXISTS (SELECT 1 FROM users WHERE institution_id = ${id}) AS users,
        (EXISTS (SELECT 1 FROM centers WHERE institution_id = ${id})
          OR EXISTS (SELECT 1 FROM center_registrations WHERE institution_id = ${id})) AS centers,
        (EXISTS (SELECT 1 FROM files WHERE institution_id = ${id})
          OR EXISTS (SELECT 1 FROM unlabeled_answers WHERE institution_id = ${id})) AS copies`,
    ))!;
    if (used.users) throw conflict('Des utilisateurs sont rattachés à cet établissement : il ne peut pas être supprimé.');
    if (used.centers) throw conflict('Cet établissement est un centre d’examen : il ne peut pas être supprimé.');
    if (used.copies) throw conflict('Des copies sont rattachées à cet établissement : il ne peut pas être supprimé.');
    await tx.delete(institutions).where(eq(institutions.id, id));
  });
}
