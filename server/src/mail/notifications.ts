import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../db/client.js';
import { column, rows } from '../db/query.js';
import { TEACHERS_GROUP_ID } from '../db/schema.js';
import { addJob, wakeJobWorkers } from '../jobs/worker.js';
import { syncFamilyAddresses } from './family-addresses.js';
import { mayReceiveSql } from './policy.js';

/**
 * Decision 60: notification mails are queued here, inside the transaction of the event that causes
 * them (a registration, a centre change, a publication), as rows of mail_deliveries with a unique
 * key plus one `mail.send` job each. Queuing the same event twice adds nothing (ON CONFLICT DO
 * NOTHING on the key); the job sends each delivery at most once (mail/send-job.ts).
 */

export const MAIL_SEND_JOB = 'mail.send';
/** Queues the « results published » mails of a chapter (a publication adds it). */
export const MAIL_RESULTS_JOB = 'mail.results';

/** Queues the « résultat de la sélection » mails of a selection's publication (decision 157). */
export const MAIL_SELECTION_JOB = 'mail.selection';

export type MailKind =
  'convocation' | 'center-change' | 'center-departure' | 'opening' | 'results' | 'grade-change' | 'digest' | 'selection';

/**
 * Inserts the deliveries a SELECT yields — columns key, user_id, to, payload (jsonb) — and a
 * send job for each one that was new. Returns how many were new.
 */
async function queueDeliveries(tx: Tx, kind: MailKind, select: SQL): Promise<number> {
  const added = await rows(
    tx,
    z.object({ n: column.number }),
    sql`
    WITH wanted AS (${select}),
    added AS (
      INSERT INTO mail_deliveries (key, kind, user_id, "to", payload)
      SELECT key, ${kind}, user_id, "to", payload FROM wanted
      ON CONFLICT (key) DO NOTHING
      RETURNING id),
    jobs_added AS (
      INSERT INTO jobs (kind, payload) SELECT ${MAIL_SEND_JOB}, jsonb_build_object('deliveryId', id) FROM added RETURNING 1)
    SELECT count(*)::int AS n FROM jobs_added`,
  );
  return Number(added[0]?.n ?? 0);
}

/**
 * Every address a mail of `kind` may go to (mail/policy.ts, decision 143: service mails whatever the
 * profile's box says, reminders only when it is ticked): the pupil's own, and (for the convocation) the
 * student and parents' addresses of their profile that their owner confirmed (decision 134: an
 * unconfirmed address gets the confirmation mail and nothing else), each once — the account's own
 * address first when a family field repeats it.
 */
const addressesOf = (kind: MailKind, withFamily: boolean) => sql`
  SELECT DISTINCT ON (u.id, lower(trim(a.addr))) u.id AS user_id, lower(trim(a.addr)) AS "to", a.family
  FROM users u
  CROSS JOIN LATERAL (VALUES (u.email, false), (u.email_student, true), (u.email_parent, true), (u.email_other_parent, true)) AS a(addr, family)
  WHERE ${mayReceiveSql(kind)} AND a.addr IS NOT NULL AND trim(a.addr) LIKE '%_@_%'
    ${
      withFamily
        ? sql`AND (NOT a.family OR lower(trim(a.addr)) = lower(trim(u.email)) OR EXISTS (
            SELECT 1 FROM family_addresses f
            WHERE f.user_id = u.id AND f.address = lower(trim(a.addr)) AND f.confirmed_at IS NOT NULL))`
        : sql`AND NOT a.family`
    }
  ORDER BY u.id, lower(trim(a.addr)), a.family`;

/** Registration confirmed (new or moved): the convocation to the pupil and their parents. */
export async function queueConvocation(
  tx: Tx,
  e: { chapterId: string; userId: string; institutionId: string; registeredMs: number },
): Promise<number> {
  // An address of the profile with no confirmation asked yet (typed before decision 134, or imported)
  // gets its confirmation mail now; the convocation waits for it.
  await syncFamilyAddresses(tx, [e.userId]);
  return queueDeliveries(
    tx,
    'convocation',
    sql`
    SELECT concat_ws(':', 'convocation', ${e.chapterId}::text, ${e.userId}::text, ${String(Math.round(e.registeredMs))}::text, a."to") AS key,
      a.user_id, a."to",
      jsonb_build_object('chapterId', ${e.chapterId}::text, 'institutionId', ${e.institutionId}::text, 'family', a.family) AS payload
    FROM (${addressesOf('convocation', true)}) a WHERE a.user_id = ${e.userId}`,
  );
}

/**
 * A pupil left a centre without another one (its staff turned them away): the pupil alone is told,
 * keyed by the registration that ended (its creation instant), so a later registration that ends
 * again is a new mail and this one is never queued twice (decision 81).
 */
export async function queueDeparture(
  tx: Tx,
  e: { chapterId: string; userId: string; institutionId: string; registeredMs: number; reason: 'refused' },
): Promise<number> {
  return queueDeliveries(
    tx,
    'center-departure',
    sql`
    SELECT concat_ws(':', 'center-departure', ${e.chapterId}::text, ${e.userId}::text, ${e.institutionId}::text, ${String(Math.round(e.registeredMs))}::text, a."to") AS key,
      a.user_id, a."to",
      jsonb_build_object('chapterId', ${e.chapterId}::text, 'institutionId', ${e.institutionId}::text, 'reason', ${e.reason}::text) AS payload
    FROM (${addressesOf('center-departure', false)}) a WHERE a.user_id = ${e.userId}`,
  );
}

/** A centre's date/address/room changed, or it closed: every pupil registered there. */
export async function queueCenterChange(
  tx: Tx,
  e: { chapterId: string; institutionId: string; closed: boolean; at: Date },
): Promise<number> {
  return queueDeliveries(
    tx,
    'center-change',
    sql`
    SELECT concat_ws(':', 'center-change', ${e.chapterId}::text, ${e.institutionId}::text, ${String(e.at.getTime())}::text, a.user_id::text) AS key,
      a.user_id, a."to",
      jsonb_build_object('chapterId', ${e.chapterId}::text, 'institutionId', ${e.institutionId}::text, 'closed', ${e.closed}::boolean) AS payload
    FROM (${addressesOf('center-change', false)}) a
    JOIN center_registrations r ON r.user_id = a.user_id AND r.chapter_id = ${e.chapterId} AND r.institution_id = ${e.institutionId}`,
  );
}

/** Results published: every pupil who took part (an answer, a started session, or present at a centre). */
export async function queueResults(tx: Tx, chapterId: string): Promise<number> {
  return queueDeliveries(
    tx,
    'results',
    sql`
    SELECT concat_ws(':', 'results', ${chapterId}::text, a.user_id::text) AS key, a.user_id, a."to",
      jsonb_build_object('chapterId', ${chapterId}::text) AS payload
    FROM (${addressesOf('results', false)}) a
    WHERE EXISTS (SELECT 1 FROM chapter_sessions s WHERE s.chapter_id = ${chapterId} AND s.user_id = a.user_id)
      OR EXISTS (SELECT 1 FROM answers x JOIN exercises e ON e.id = x.exercise_id WHERE e.chapter_id = ${chapterId} AND e.deleted_at IS NULL AND x.user_id = a.user_id)
      OR EXISTS (SELECT 1 FROM center_registrations r WHERE r.chapter_id = ${chapterId} AND r.user_id = a.user_id AND r.present)`,
  );
}

/**
 * Decision 161: a scheme change moved these pupils' grade on a published chapter's exercise. One delivery per pupil and
 * change (`changeId`: the change's instant), to their own address, like the results mail.
 */
export async function queueGradeChange(tx: Tx, e: { chapterId: string; exerciseId: string; userIds: string[] }): Promise<number> {
  const changeId = String(Date.now());
  return queueDeliveries(
    tx,
    'grade-change',
    sql`
    SELECT concat_ws(':', 'grade-change', ${e.exerciseId}::text, ${changeId}::text, a.user_id::text) AS key, a.user_id, a."to",
      jsonb_build_object('chapterId', ${e.chapterId}::text, 'exerciseId', ${e.exerciseId}::text) AS payload
    FROM (${addressesOf('grade-change', false)}) a
    WHERE a.user_id = ANY(${`{${e.userIds.join(',')}}`}::uuid[])`,
  );
}

/** A test opening in 24 hours: the pupils an access group admits (the caller computed them). */
export async function queueOpening(tx: Tx, e: { chapterId: string; startMs: number; userIds: string[] }): Promise<number> {
  // Keyed by chapter and start, not by access group: saving a chapter rewrites its groups (new ids).
  if (e.userIds.length === 0) return 0;
  return queueDeliveries(
    tx,
    'opening',
    sql`
    SELECT concat_ws(':', 'opening', ${e.chapterId}::text, ${String(e.startMs)}::text, a.user_id::text) AS key, a.user_id, a."to",
      jsonb_build_object('chapterId', ${e.chapterId}::text, 'start', ${new Date(e.startMs).toISOString()}::text) AS payload
    FROM (${addressesOf('opening', false)}) a
    WHERE a.user_id IN (${sql.join(
      e.userIds.map((u) => sql`${u}::uuid`),
      sql`, `,
    )})`,
  );
}

/**
 * The daily digest of Paris day `day` ('YYYY-MM-DD', between `from` and `to`): each staff member
 * of a school whose centre got registrations, or turned pupils away, that day, once.
 */
export async function queueDigest(tx: Tx, e: { day: string; from: Date; to: Date }): Promise<number> {
  return queueDeliveries(
    tx,
    'digest',
    sql`
    SELECT concat_ws(':', 'digest', ${e.day}::text, a.user_id::text) AS key, a.user_id, a."to",
      jsonb_build_object('day', ${e.day}::text, 'from', ${e.from.toISOString()}::text, 'to', ${e.to.toISOString()}::text,
        'institutionId', t.institution_id::text) AS payload
    FROM (${addressesOf('digest', false)}) a
    JOIN users t ON t.id = a.user_id
    JOIN group_members g ON g.user_id = t.id AND g.group_id = ${TEACHERS_GROUP_ID}
    WHERE EXISTS (
      SELECT 1 FROM center_registrations r
      WHERE r.institution_id = t.institution_id AND r.created_at >= ${e.from.toISOString()}::timestamptz AND r.created_at < ${e.to.toISOString()}::timestamptz)
    OR EXISTS (
      SELECT 1 FROM center_refusals f
      WHERE f.institution_id = t.institution_id AND f.created_at >= ${e.from.toISOString()}::timestamptz AND f.created_at < ${e.to.toISOString()}::timestamptz)`,
  );
}

/** Results published (the chapter's analysis flag turned on): a job queues the mails to who took part. */
export async function queueResultsPublished(tx: Tx, chapterId: string): Promise<void> {
  await addJob(tx, MAIL_RESULTS_JOB, { chapterId });
}

/**
 * A selection published (decision 157): each participant of its latest version and their confirmed family addresses
 * (decision 134), once per publication instant (`publishMs`), and only while that publication still stands.
 */
export async function queueSelectionResults(tx: Tx, e: { selectionId: string; publishMs: string }): Promise<number> {
  return queueDeliveries(
    tx,
    'selection',
    sql`
    SELECT concat_ws(':', 'selection', ${e.selectionId}::text, ${e.publishMs}::text, a.user_id::text, a."to") AS key, a.user_id, a."to",
      jsonb_build_object('selectionId', ${e.selectionId}::text, 'family', a.family) AS payload
    FROM (${addressesOf('selection', true)}) a
    JOIN selection_outcomes o ON o.user_id = a.user_id AND o.version_id = (
      SELECT v.id FROM selection_versions v WHERE v.selection_id = ${e.selectionId}::uuid ORDER BY v.number DESC LIMIT 1)
    WHERE EXISTS (
      SELECT 1 FROM selections s WHERE s.id = ${e.selectionId}::uuid AND s.publish_at <= now()
        AND (extract(epoch FROM s.publish_at) * 1000)::bigint::text = ${e.publishMs}::text)`,
  );
}

/** The selection's publication at `publishAt` (now, or its instant passed): a job queues its mails. */
export async function queueSelectionPublished(tx: Tx, selectionId: string, publishAt: Date): Promise<void> {
  await addJob(tx, MAIL_SELECTION_JOB, { selectionId, publishMs: String(publishAt.getTime()) });
}

/**
 * The clock's side (mail/scheduler.ts): a job for each selection whose scheduled instant has passed and whose
 * publication has none yet, in one statement; the job rows are the record that it was queued (never purged).
 */
export async function queueDueSelections(tx: Tx, now: Date): Promise<number> {
  const publishMs = sql`((extract(epoch FROM s.publish_at) * 1000)::bigint)::text`;
  const added = await rows(
    tx,
    z.object({ n: column.number }),
    sql`
    WITH added AS (
      INSERT INTO jobs (kind, payload)
      SELECT ${MAIL_SELECTION_JOB}, jsonb_build_object('selectionId', s.id::text, 'publishMs', ${publishMs})
      FROM selections s
      WHERE s.publish_at <= ${now.toISOString()}::timestamptz
        AND EXISTS (SELECT 1 FROM selection_versions v WHERE v.selection_id = s.id)
        AND NOT EXISTS (
          SELECT 1 FROM jobs j WHERE j.kind = ${MAIL_SELECTION_JOB} AND j.payload->>'selectionId' = s.id::text AND j.payload->>'publishMs' = ${publishMs})
      RETURNING 1)
    SELECT count(*)::int AS n FROM added`,
  );
  const n = Number(added[0]?.n ?? 0);
  if (n > 0) wakeJobWorkers();
  return n;
}
