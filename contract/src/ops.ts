import { z } from 'zod';

/** GET /chapter/{id}/live: what an admin watches while a chapter runs (docs/operations.md). */
export const liveChapterSchema = z.object({
  chapterId: z.string(),
  title: z.string(),
  /** Server time of the figures (ISO). */
  at: z.string(),
  /** Pupils who started the chapter (a session row exists). */
  started: z.number().int(),
  /** Pupils whose deadline is still ahead. */
  inProgress: z.number().int(),
  /** Pupils whose deadline has passed. */
  finished: z.number().int(),
  /** Distinct pupils who saved an answer in the last minute. */
  savingLastMinute: z.number().int(),
  /** Answers saved in the last minute. */
  answersLastMinute: z.number().int(),
  blurEvents: z.number().int(),
  blurEventsLastMinute: z.number().int(),
  /** Server errors (5xx) answered by this instance in the last five minutes, all routes. */
  serverErrorsLastFiveMinutes: z.number().int(),
  /** Saves per minute over the last 15 minutes, oldest first (index 14 is the current minute). */
  savesPerMinute: z.array(z.number().int()),
  /** Pupils with a session in the chapter who have extra time (tiers-temps). */
  extraTimePupils: z.number().int(),
  /** Minutes added to pupils' ends after incidents, newest first. */
  extensions: z.array(
    z.object({
      user: z.object({ _id: z.string(), firstName: z.string().nullable(), lastName: z.string().nullable(), email: z.string() }),
      minutes: z.number().int(),
      reason: z.string(),
      by: z.string().nullable(),
      at: z.string(),
    }),
  ),
});
export type LiveChapter = z.infer<typeof liveChapterSchema>;

/** POST /user/{uid}/anonymise. */
export const anonymiseResultSchema = z.object({
  message: z.string(),
  filesErased: z.number().int(),
});
export type AnonymiseResult = z.infer<typeof anonymiseResultSchema>;

/** Accounts anonymised get an unreachable address of this domain (RFC 2606 reserves .invalid). */
export const ANONYMOUS_EMAIL_DOMAIN = 'anonyme.invalid';
