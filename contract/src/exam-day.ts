import { z } from 'zod';
import { isoToParisWallClock, formatFrenchDate, isWallClock } from './dates.js';

/**
 * The exam day of paper centres (decisions 59, 60, 81): structured centre details, attendance, notifications.
 * Kept apart from centers.ts so the centre schemas stay readable.
 */

/** Said on every convocation and panel when the centre wrote nothing under « À apporter ». */
export const DEFAULT_BRING_TEXT = 'Une pièce d’identité, de quoi écrire (stylos, crayon, gomme), règle et compas.';
export const CENTER_ROOM_MAX = 200;
export const CENTER_ADDRESS_MAX = 500;
export const CENTER_BRING_MAX = 2000;
/** Attendance of one centre in one call: far above any centre's size. */
export const ATTENDANCE_MAX = 5000;

/** What a pupil needs to come: the effective values (the centre's, else the defaults). */
export const centerDetailsSchema = z.object({
  /** ISO instant of the sitting; null when neither the centre nor the chapter gives one. */
  sittingAt: z.string().nullable(),
  address: z.string(),
  room: z.string(),
  bring: z.string(),
  /** Which values are the defaults (chapter's first access start, institution address, default list). */
  defaults: z.object({ sittingAt: z.boolean(), address: z.boolean(), bring: z.boolean() }),
});
export type CenterDetails = z.infer<typeof centerDetailsSchema>;

/** PATCH /center/{chapterId}: the detail fields (null or '' go back to the default). */
export const centerDetailsPatchSchema = z.object({
  /** Paris wall clock 'YYYY-MM-DDTHH:mm'. */
  sittingAt: z
    .string({ error: 'La date de l’épreuve doit être un texte.' })
    .refine(isWallClock, { error: 'Date de l’épreuve invalide (AAAA-MM-JJTHH:MM attendu).' })
    .nullable()
    .optional(),
  address: z
    .string({ error: 'L’adresse doit être un texte.' })
    .max(CENTER_ADDRESS_MAX, { error: 'L’adresse est trop longue.' })
    .nullable()
    .optional(),
  room: z.string({ error: 'La salle doit être un texte.' }).max(CENTER_ROOM_MAX, { error: 'Le nom de la salle est trop long.' }).optional(),
  bring: z
    .string({ error: 'La liste « À apporter » doit être un texte.' })
    .max(CENTER_BRING_MAX, { error: 'La liste « À apporter » est trop longue.' })
    .optional(),
});

/** PUT /center/attendance/{chapterId}: presence of registered pupils. */
export const attendanceBodySchema = z
  .array(
    z.object({
      user: z.uuid({ error: 'Identifiant d’élève invalide.' }),
      present: z.boolean({ error: 'La présence doit être vrai ou faux.' }),
    }),
    { error: 'Liste de présences attendue.' },
  )
  .min(1, { error: 'Aucune présence à enregistrer.' })
  .max(ATTENDANCE_MAX, { error: 'Trop de présences en une fois.' });
export type AttendanceBody = z.infer<typeof attendanceBodySchema>;

/** What staff see of a centre's day: counts against places. */
export const centerDayStatsSchema = z.object({
  registered: z.number().int(),
  present: z.number().int(),
  absent: z.number().int(),
  /** Scanned copies uploaded by or for the centre. */
  copies: z.number().int(),
  /** Pages of those copies already sorted. */
  pagesSorted: z.number().int(),
});
export type CenterDayStats = z.infer<typeof centerDayStatsSchema>;

/** GET /mail/stats (admins): notification mails by kind and status. */
export const mailStatsSchema = z.object({
  kinds: z.array(
    z.object({ kind: z.string(), pending: z.number().int(), sent: z.number().int(), failed: z.number().int(), skipped: z.number().int() }),
  ),
  total: z.object({ pending: z.number().int(), sent: z.number().int(), failed: z.number().int(), skipped: z.number().int() }),
});
export type MailStats = z.infer<typeof mailStatsSchema>;

/** French names of the notification kinds (admin pages). */
export const MAIL_KIND_LABELS: Record<string, string> = {
  convocation: 'Inscription confirmée (convocation)',
  'center-change': 'Centre modifié ou fermé',
  'center-departure': 'Inscription retirée par le centre',
  opening: 'Épreuve ouverte dans 24 heures',
  results: 'Résultats publiés',
  digest: 'Récapitulatif quotidien des inscriptions',
};

/** The QR code of a convocation: staff scan it to check the pupil in. */
export const convocationQrText = (chapterId: string, userId: string) => `olympe:presence:${chapterId}:${userId}`;

/** Reads a convocation QR code; null when it is not one of this chapter's. */
export function parseConvocationQr(text: string, chapterId: string): string | null {
  const m = /^olympe:presence:([0-9a-f-]{36}):([0-9a-f-]{36})$/i.exec(text.trim());
  return m && m[1].toLowerCase() === chapterId.toLowerCase() ? m[2].toLowerCase() : null;
}

const NBSP = '\u00a0';

/**
 * The room as words after an address: « salle B12 », but a room the centre already named « Salle des fêtes » or
 * « salle 3 » is not prefixed again (« salle Salle des fêtes », decision 141).
 */
export function roomText(room: string): string {
  const name = room.trim();
  return /^salle(?![\p{L}\p{N}])/iu.test(name) ? name : `salle ${name}`;
}

/** A sitting as '12 mars 2026 à 9 h 30' (Paris time, French typography: « 9 h 30 », « 14 h »). */
export function formatSitting(instant: string | Date): string {
  const [date, time] = isoToParisWallClock(instant).split('T');
  const [h, m] = time.split(':');
  const hour = `${Number(h)}${NBSP}h${m === '00' ? '' : `${NBSP}${m}`}`;
  return `${formatFrenchDate(date)} à ${hour}`;
}
