import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { matchAccessRule } from '../chapters/access.js';
import { column, rows } from '../db/query.js';
import { MEMBERS_GROUP_ID, TEACHERS_GROUP_ID } from '../db/schema.js';
import type { Deps } from '../deps.js';
import { qualificationsFor } from '../selections/qualification.js';
import { ADDRESS_CONFIRM_JOB, addressConfirmHandler } from './family-addresses.js';
import {
  MAIL_RESULTS_JOB,
  MAIL_SELECTION_JOB,
  MAIL_SEND_JOB,
  queueDigest,
  queueDueSelections,
  queueOpening,
  queueResultsPublished,
} from './notifications.js';
import { mailResultsHandler, mailSelectionHandler, mailSendHandler, previousParisDay } from './send-job.js';
import { isoToParisWallClock } from '@olympe/contract';
import { startJobWorker, runPendingJobs, type JobHandler, type JobWorker, type RunOptions } from '../jobs/worker.js';

/** A mail job is tried 5 times: after 1, 2, 4 then 8 minutes (an SMTP server down for a while). */
export const MAIL_MAX_ATTEMPTS = 5;
export const mailRetryDelayMs = (attempts: number) => Math.min(60_000 * 2 ** (attempts - 1), 30 * 60_000);
/** A send takes milliseconds: a mail job still « running » after a minute was left by a stopped instance. */
const MAIL_STALE_MS = 60_000;
/** The daily digest leaves at 7 h, Paris time. */
const DIGEST_HOUR = 7;

export function mailJobHandlers(deps: Deps): Record<string, JobHandler> {
  return {
    [MAIL_SEND_JOB]: mailSendHandler(deps, MAIL_MAX_ATTEMPTS),
    [MAIL_RESULTS_JOB]: mailResultsHandler(deps),
    [MAIL_SELECTION_JOB]: mailSelectionHandler(deps),
    [ADDRESS_CONFIRM_JOB]: addressConfirmHandler(deps),
  };
}

/**
 * Paces the sends of one instance to `perSecond` (0: no limit), across its parallel loops: each
 * send takes the next free slot.
 */
export function ratePacer(perSecond: number): () => Promise<void> {
  if (!perSecond) return async () => undefined;
  const interval = 1000 / perSecond;
  let next = 0;
  return async () => {
    const now = performance.now();
    const slot = Math.max(now, next);
    next = slot + interval;
    if (slot > now) await new Promise((r) => setTimeout(r, slot - now));
  };
}

const mailRunOptions = (deps: Deps): RunOptions => ({
  maxAttempts: MAIL_MAX_ATTEMPTS,
  staleAfterMs: MAIL_STALE_MS,
  retryDelayMs: mailRetryDelayMs,
  beforeJob: ratePacer(deps.config.mailRate ?? 20),
});

/** Runs every queued mail job now (tests, scripts). */
export function runMailJobs(deps: Deps, opts: Partial<RunOptions> = {}): Promise<number> {
  return runPendingJobs(deps, mailJobHandlers(deps), { ...mailRunOptions(deps), beforeJob: undefined, ...opts });
}

/** The mail workers of this instance: `mailConcurrency` loops sharing one pace. */
export function startMailWorkers(deps: Deps): JobWorker[] {
  const opts = { ...mailRunOptions(deps), pollMs: 2000 };
  return Array.from({ length: deps.config.mailConcurrency ?? 2 }, () => startJobWorker(deps, mailJobHandlers(deps), opts));
}

const groupRow = z.object({
  id: z.string(),
  chapter_id: z.string(),
  position: z.number(),
  authorized_genders: z.array(z.string()),
  authorized_grades: z.array(z.string()),
  birth_date_min: z.string().nullable(),
  birth_date_max: z.string().nullable(),
  access_start: column.dateOrNull,
  required_selection_id: z.string().nullable(),
});

/**
 * Queues what the clock decides (every instance may run it: the delivery keys make it idempotent):
 * the « résultats publiés » mails of a publication scheduled for an instant now past, « the test
 * opens in 24 hours » for access groups opening within a day, and after 7 h (Paris) the staff digest
 * of the day before.
 */
export async function queueTimedMails(deps: Deps, now = new Date()): Promise<{ published: number; opening: number; digest: number }> {
  const db = deps.db;
  // A scheduled publication is in force from its instant (chapters/publication.ts); here its flag is set
  // and its participants are mailed, once: the UPDATE takes each chapter for one instance only.
  const published = await db.transaction(async (tx) => {
    const due = await rows(
      tx,
      z.object({ id: z.string() }),
      sql`
      UPDATE chapters SET analysis = true
      WHERE NOT analysis AND deleted_at IS NULL AND publish_at <= ${now.toISOString()}::timestamptz
      RETURNING id`,
    );
    for (const { id } of due) await queueResultsPublished(tx, id);
    // Decision 157: a selection whose publication instant passed, mailed once per publication.
    return due.length + (await queueDueSelections(tx, now));
  });
  const soon = await rows(
    db,
    z.object({ chapter_id: z.string() }),
    sql`
    SELECT DISTINCT chapter_id FROM access_groups
    WHERE chapter_id IN (SELECT id FROM chapters WHERE deleted_at IS NULL) AND access_start > ${now.toISOString()}::timestamptz AND access_start <= ${new Date(now.getTime() + 24 * 3_600_000).toISOString()}::timestamptz`,
  );
  let opening = 0;
  for (const { chapter_id: chapterId } of soon) {
    const groups = (
      await rows(
        db,
        groupRow,
        sql`
        SELECT id, chapter_id, position, authorized_genders, authorized_grades, birth_date_min::text AS birth_date_min,
          birth_date_max::text AS birth_date_max, access_start, required_selection_id
        FROM access_groups WHERE chapter_id = ${chapterId} ORDER BY position`,
      )
    ).map((g) => ({
      id: g.id,
      authorizedGenders: g.authorized_genders,
      authorizedGrades: g.authorized_grades,
      birthDateMin: g.birth_date_min,
      birthDateMax: g.birth_date_max,
      timeDuration: null,
      accessStart: g.access_start ? new Date(g.access_start) : null,
      accessEnd: null,
      requiredSelectionId: g.required_selection_id,
    }));
    const pupils = await rows(
      db,
      z.object({ id: z.string(), gender: z.string().nullable(), grade: z.string().nullable(), birth_date: z.string().nullable() }),
      sql`
      SELECT id, gender, grade, birth_date::text AS birth_date FROM users
      WHERE email_notifications AND NOT is_admin
        AND NOT EXISTS (SELECT 1 FROM group_members m WHERE m.user_id = users.id AND m.group_id IN (${TEACHERS_GROUP_ID}, ${MEMBERS_GROUP_ID}))`,
    );
    const qualifiedIn = await qualificationsFor(db, groups, null, now);
    const byGroup = new Map<string, string[]>();
    for (const u of pupils) {
      const rule = matchAccessRule({ gender: u.gender, grade: u.grade, birthDate: u.birth_date, qualifiedIn: qualifiedIn(u.id) }, groups);
      if (rule) byGroup.set(rule.id, [...(byGroup.get(rule.id) ?? []), u.id]);
    }
    for (const g of groups) {
      const start = g.accessStart?.getTime();
      if (!start || start <= now.getTime() || start > now.getTime() + 24 * 3_600_000) continue;
      opening += await queueOpening(db, { chapterId, startMs: start, userIds: byGroup.get(g.id) ?? [] });
    }
  }
  let digest = 0;
  if (Number(isoToParisWallClock(now).slice(11, 13)) >= DIGEST_HOUR) digest = await queueDigest(db, previousParisDay(now));
  return { published, opening, digest };
}

/** Checks the clock-driven mails every `everyMs` in the background. */
export function startMailClock(deps: Deps, everyMs = 60_000): { stop(): void } {
  const tick = () => queueTimedMails(deps).catch((err: unknown) => deps.log.error({ err }, 'timed mails failed'));
  const first = setTimeout(tick, 5_000);
  const timer = setInterval(tick, everyMs);
  first.unref();
  timer.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
