import { isoToParisWallClock, formatFrenchDate } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { convocationOf, loadExamCentre } from '../centers/exam-day.js';
import type { Db } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import type { Deps } from '../deps.js';
import type { Job } from '../jobs/queue.js';
import type { JobHandler } from '../jobs/worker.js';
import type { Mail } from './mailer.js';
import {
  centerChangeMail,
  convocationMail,
  departureMail,
  digestMail,
  openingMail,
  gradeChangeMail,
  resultsMail,
  selectionMail,
  type MailBody,
} from './notification-mails.js';
import { queueResults, queueSelectionResults } from './notifications.js';
import { categoryOf as categoryOfOutcome, loadSelectionVersion, outcomesOf } from '../selections/qualification.js';
import { categoryOf, mayReceive } from './policy.js';
import { unsubscribeUrl } from './unsubscribe.js';

const deliveryRow = z.object({
  id: z.string(),
  kind: z.string(),
  to: z.string(),
  status: z.string(),
  payload: z.record(z.string(), z.unknown()),
  user_id: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  notifications: z.boolean().nullable(),
  institution_id: z.string().nullable(),
});
type DeliveryRow = z.output<typeof deliveryRow>;

const fullName = (r: { first_name: string | null; last_name: string | null }) =>
  [r.first_name, r.last_name].filter(Boolean).join(' ') || null;

/** The title of a live exercise, or null. */
async function exerciseTitleOf(db: Db, id: string): Promise<string | null> {
  const found = await one(
    db,
    z.object({ title: z.string() }),
    sql`SELECT title FROM exercises WHERE id = ${id}::uuid AND deleted_at IS NULL`,
  );
  return found?.title ?? null;
}

async function chapterOf(db: Db, id: string) {
  return one(
    db,
    z.object({ title: z.string(), offline: z.boolean() }),
    sql`SELECT title, offline FROM chapters WHERE id = ${id} AND deleted_at IS NULL`,
  );
}

type BuiltMail = (MailBody & Pick<Mail, 'attachments'>) | null;

/** What every kind of mail is built from: the delivery, its payload, the addressee's name and the links. */
interface MailContext {
  deps: Deps;
  d: DeliveryRow;
  p: Record<string, string & boolean>;
  name: string | null;
  links: (chapterId: string | null) => { unsubscribe: string | null; chapter: string };
}

/** The mail a delivery stands for, built from the database as it is now; null: nothing to say any more. */
async function buildMail(deps: Deps, d: DeliveryRow): Promise<BuiltMail> {
  const p = d.payload as Record<string, string & boolean>;
  const base = deps.config.publicUrl;
  const links = (chapterId: string | null) => ({
    unsubscribe: categoryOf(d.kind) === 'reminder' ? unsubscribeUrl(base, deps.config.jwtSecret, d.user_id ?? '') : null,
    chapter: chapterId ? `${base}/chapter/${chapterId}` : base,
  });
  const context: MailContext = { deps, d, p, name: fullName(d), links };
  switch (d.kind) {
    case 'convocation':
      return buildConvocation(context);
    case 'center-change': {
      const centre = await loadExamCentre(deps.db, p.chapterId, p.institutionId);
      return centerChangeMail(
        { pupil: context.name, chapter: centre.chapterTitle, centre: centre.centreName, closed: !!p.closed, details: centre.details },
        links(p.chapterId),
      );
    }
    case 'center-departure':
      return buildDeparture(context);
    case 'opening': {
      const chapter = await chapterOf(deps.db, p.chapterId);
      return chapter
        ? openingMail({ pupil: context.name, chapter: chapter.title, start: p.start, offline: chapter.offline }, links(p.chapterId))
        : null;
    }
    case 'results': {
      const chapter = await chapterOf(deps.db, p.chapterId);
      return chapter ? resultsMail({ pupil: context.name, chapter: chapter.title }, links(p.chapterId)) : null;
    }
    case 'grade-change': {
      const chapter = await chapterOf(deps.db, p.chapterId);
      const exercise = await exerciseTitleOf(deps.db, p.exerciseId);
      return chapter && exercise ? gradeChangeMail({ pupil: context.name, chapter: chapter.title, exercise }, links(p.chapterId)) : null;
    }
    case 'digest':
      return buildDigest(context);
    case 'selection':
      return buildSelection(context);
    default:
      return null;
  }
}

/** A convocation, its PDF attached; null once the pupil moved to another centre. */
async function buildConvocation({ deps, d, p, name, links }: MailContext): Promise<BuiltMail> {
  const c = await convocationOf(deps.db, p.chapterId, p.institutionId, d.user_id ?? '');
  // Moved to another centre meanwhile: that registration has its own mail.
  if (!c.pupil || !c.bytes || !c.centre.validated) return null;
  const body = convocationMail(
    {
      pupil: name ?? 'Votre enfant',
      forParent: !!p.family,
      chapter: c.centre.chapterTitle,
      centre: c.centre.centreName,
      details: c.centre.details,
    },
    links(p.chapterId),
  );
  return { ...body, attachments: [{ filename: 'convocation.pdf', content: Buffer.from(c.bytes), contentType: 'application/pdf' }] };
}

/** A departure from a centre, with where the pupil is registered now. */
async function buildDeparture({ deps, d, p, name, links }: MailContext): Promise<BuiltMail> {
  const centre = await loadExamCentre(deps.db, p.chapterId, p.institutionId);
  const now = await one(
    deps.db,
    z.object({ name: z.string(), same: z.boolean() }),
    sql`
        SELECT i.name, r.institution_id = ${p.institutionId} AS same FROM center_registrations r JOIN institutions i ON i.id = r.institution_id
        WHERE r.chapter_id = ${p.chapterId} AND r.user_id = ${d.user_id}`,
  );
  // Registered at that centre again meanwhile: nothing true to say any more.
  if (now?.same) return null;
  return departureMail(
    {
      pupil: name,
      chapter: centre.chapterTitle,
      centre: centre.centreName,
      sittingAt: centre.details.sittingAt,
      registeredElsewhere: now?.name ?? null,
    },
    links(p.chapterId),
  );
}

/** A pupil's line of a published selection, as the latest version says it when the mail leaves (decision 157). */
async function buildSelection({ deps, d, p, name, links }: MailContext): Promise<BuiltMail> {
  const found = await one(deps.db, z.object({ id: z.string() }), sql`SELECT id FROM selections WHERE id = ${p.selectionId}::uuid`);
  if (!found) return null;
  const selection = await loadSelectionVersion(deps.db, found.id);
  if (!selection.published || !selection.version) return null;
  const [outcome] = await outcomesOf(deps.db, selection.version.id, [d.user_id ?? '']);
  if (!outcome) return null;
  return selectionMail(
    {
      pupil: name,
      forFamily: !!p.family,
      title: selection.title,
      qualified: outcome.qualifiedIn.length > 0,
      category: categoryOfOutcome(selection.version.categories, outcome)?.name ?? null,
      nextRoundTitle: selection.nextRoundTitle,
      nextRoundDate: selection.nextRoundDate,
      nextRoundPlace: selection.nextRoundPlace,
    },
    links(null),
  );
}

interface DigestCentre {
  chapter: string;
  pupils: string[];
  departed: string[];
  total: number;
  places: number;
}

/** A school's daily digest: the pupils registered at its centres and those it turned away that day. */
async function buildDigest({ deps, p, name, links }: MailContext): Promise<BuiltMail> {
  const byChapter = new Map<string, DigestCentre>();
  for (const r of await digestRegistrations(deps.db, p)) {
    const entry = byChapter.get(r.chapter_id) ?? { chapter: r.title, pupils: [], departed: [], total: 0, places: Number(r.places) };
    entry.total++;
    if (r.is_new) entry.pupils.push(fullName(r) ?? 'Élève');
    byChapter.set(r.chapter_id, entry);
  }
  for (const r of await digestRefusals(deps.db, p)) {
    const entry = byChapter.get(r.chapter_id) ?? { chapter: r.title, pupils: [], departed: [], total: 0, places: Number(r.places) };
    entry.departed.push(fullName(r) ?? 'Élève');
    byChapter.set(r.chapter_id, entry);
  }
  const centres = [...byChapter.values()].filter((c) => c.pupils.length > 0 || c.departed.length > 0);
  if (centres.length === 0) return null;
  return digestMail({ staff: name, day: formatFrenchDate(p.day), centres }, links(null));
}

/** A pupil of the digest at one of the school's centres, with the centre's places. */
const digestPupilRow = z.object({
  chapter_id: z.string(),
  title: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  places: column.number,
});

/** The registrations at the school's centres, those of the digest's day marked `is_new`. */
function digestRegistrations(db: Db, p: Record<string, string>) {
  return rows(
    db,
    digestPupilRow.extend({ is_new: z.boolean() }),
    sql`
        SELECT r.chapter_id, c.title, u.first_name, u.last_name, coalesce(ce.nb_places, 0)::int AS places,
          (r.created_at >= ${p.from}::timestamptz AND r.created_at < ${p.to}::timestamptz) AS is_new
        FROM center_registrations r JOIN chapters c ON c.id = r.chapter_id JOIN users u ON u.id = r.user_id
        LEFT JOIN centers ce ON ce.chapter_id = r.chapter_id AND ce.institution_id = r.institution_id
        WHERE r.institution_id = ${p.institutionId} AND c.deleted_at IS NULL
        ORDER BY c.title, lower(coalesce(u.last_name, '')), lower(coalesce(u.first_name, ''))`,
  );
}

/** Departures of the day: the pupils the centre turned away (decision 81). */
function digestRefusals(db: Db, p: Record<string, string>) {
  return rows(
    db,
    digestPupilRow,
    sql`
        SELECT f.chapter_id, c.title, u.first_name, u.last_name, coalesce(ce.nb_places, 0)::int AS places
        FROM center_refusals f JOIN chapters c ON c.id = f.chapter_id JOIN users u ON u.id = f.user_id
        LEFT JOIN centers ce ON ce.chapter_id = f.chapter_id AND ce.institution_id = f.institution_id
        WHERE f.institution_id = ${p.institutionId} AND c.deleted_at IS NULL
          AND f.created_at >= ${p.from}::timestamptz AND f.created_at < ${p.to}::timestamptz
        ORDER BY c.title, lower(coalesce(u.last_name, '')), lower(coalesce(u.first_name, ''))`,
  );
}

const setStatus = (db: Db, id: string, status: string, error: string | null = null) =>
  db.execute(sql`UPDATE mail_deliveries SET status = ${status}, error = ${error},
    sent_at = CASE WHEN ${status} = 'sent' THEN now() ELSE sent_at END WHERE id = ${id}`);

/**
 * Sends one delivery. Idempotent: a delivery already sent (or skipped) is never sent again, so a
 * job taken again after its instance was killed does not duplicate the mail; the Message-ID is the
 * delivery's, so the one send that can repeat — killed between the SMTP server's « 250 » and the
 * commit of `sent`, a window of one database round trip — carries the same Message-ID (decision 60).
 */
export function mailSendHandler(deps: Deps, maxAttempts: number): JobHandler {
  return async (job: Job) => {
    const id = String(job.payload.deliveryId);
    const d = await one(
      deps.db,
      deliveryRow,
      sql`
      SELECT d.id, d.kind, d."to", d.status, d.payload, d.user_id, u.first_name, u.last_name,
        u.email_notifications AS notifications, u.institution_id
      FROM mail_deliveries d LEFT JOIN users u ON u.id = d.user_id WHERE d.id = ${id}`,
    );
    if (!d) return { skipped: 'gone' };
    if (d.status !== 'pending') return { already: d.status };
    // A reminder whose pupil untied the box (or unsubscribed) after it was queued; service mails go anyway (decision 143).
    if (!mayReceive(d.kind, { emailNotifications: d.notifications })) {
      await setStatus(deps.db, d.id, 'skipped', 'rappels désactivés');
      return { skipped: 'unsubscribed' };
    }
    const body = await buildMail(deps, d);
    if (!body) {
      await setStatus(deps.db, d.id, 'skipped', 'plus d’objet');
      return { skipped: 'obsolete' };
    }
    // Only a reminder can be unsubscribed from (RFC 8058 headers); a service mail has nothing to turn off.
    const unsubscribe =
      categoryOf(d.kind) === 'reminder' ? unsubscribeUrl(deps.config.publicUrl, deps.config.jwtSecret, d.user_id ?? '') : null;
    try {
      await deps.mailer.send({
        to: d.to,
        ...body,
        messageId: `<${d.id}@olympe.mail>`,
        ...(unsubscribe
          ? { headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }
          : {}),
      });
    } catch (err) {
      if (job.attempts >= maxAttempts)
        await setStatus(deps.db, d.id, 'failed', err instanceof Error ? err.message.slice(0, 500) : 'erreur SMTP');
      throw err;
    }
    await setStatus(deps.db, d.id, 'sent');
    return { sent: d.kind };
  };
}

/** mail.results {chapterId}: queues the « results published » mails of a chapter. */
export function mailResultsHandler(deps: Deps): JobHandler {
  return async (job) => ({ queued: await queueResults(deps.db, String(job.payload.chapterId)) });
}

/** mail.selection {selectionId, publishMs}: queues the mails of one publication of a selection (decision 157). */
export function mailSelectionHandler(deps: Deps): JobHandler {
  return async (job) => ({
    queued: await queueSelectionResults(deps.db, {
      selectionId: String(job.payload.selectionId),
      publishMs: String(job.payload.publishMs),
    }),
  });
}

/** The Paris calendar day before `now`, and its bounds as instants. */
export function previousParisDay(now: Date): { day: string; from: Date; to: Date } {
  const today = isoToParisWallClock(now).slice(0, 10);
  const midnight = (d: string) => {
    // Paris midnight of `d`: try both offsets (+1 h winter, +2 h summer) and keep the one that is midnight there.
    for (const offset of [1, 2]) {
      const t = new Date(`${d}T00:00:00Z`).getTime() - offset * 3_600_000;
      if (isoToParisWallClock(new Date(t)).endsWith('T00:00')) return new Date(t);
    }
    return new Date(`${d}T00:00:00Z`);
  };
  const to = midnight(today);
  const yesterday = isoToParisWallClock(new Date(to.getTime() - 12 * 3_600_000)).slice(0, 10);
  return { day: yesterday, from: midnight(yesterday), to };
}
