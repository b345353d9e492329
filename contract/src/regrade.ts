import { z } from 'zod';
import { pageRegionSchema } from './annotations.js';
import { personSchema } from './grading-rules.js';

/** Decision 74: what a pupil may write when asking for a regrade. */
export const REGRADE_MESSAGE_MAX = 2_000;
export const REGRADE_REPLY_MAX = 2_000;

export const REGRADE_STATUSES = ['open', 'accepted', 'declined'] as const;
export type RegradeStatus = (typeof REGRADE_STATUSES)[number];
export const REGRADE_STATUS_LABELS: Record<RegradeStatus, string> = {
  open: 'En attente',
  accepted: 'Acceptée',
  declined: 'Refusée',
};

const text = (what: string, max: number) =>
  z
    .string({ error: `${what} doit être un texte.` })
    .trim()
    .min(1, { error: `${what} ne peut pas être vide.` })
    .max(max, { error: `${what} est trop long (${max} caractères au plus).` });

/** POST /regrade: a pupil asks for a second look at one of their answers. */
export const regradeCreateSchema = z.object({
  answerId: z.uuid({ error: 'Copie invalide.' }),
  message: text('Le message', REGRADE_MESSAGE_MAX),
  /** Decision 162: where on the returned copy the pupil points: a 0-based page, a region of it, or a corrector's mark. */
  page: z.number({ error: 'Page invalide.' }).int({ error: 'Page invalide.' }).min(0, { error: 'Page invalide.' }).max(999).optional(),
  region: pageRegionSchema.optional(),
  annotationId: z.string({ error: 'Annotation invalide.' }).min(1).max(64, { error: 'Annotation invalide.' }).optional(),
});
export type RegradeCreate = z.input<typeof regradeCreateSchema>;

/** POST /regrade/{id}/accept: the new grade (checked like any grade) and the reply the pupil reads. */
export const regradeAcceptSchema = z.object({
  grade: z.union([z.string().max(20), z.number()], { error: 'Note invalide.' }),
  reply: text('La réponse', REGRADE_REPLY_MAX),
});
export type RegradeAccept = z.input<typeof regradeAcceptSchema>;

export const regradeDeclineSchema = z.object({ reply: text('La réponse', REGRADE_REPLY_MAX) });
export type RegradeDecline = z.input<typeof regradeDeclineSchema>;

/** PUT /regrade/window/{chapterId} (admins): the closing instant (entered in Paris time), or null to close. */
export const regradeWindowSchema = z.object({
  regradeUntil: z.iso.datetime({ offset: true, error: 'Date de clôture invalide.' }).nullable(),
});
export type RegradeWindow = z.input<typeof regradeWindowSchema>;

const instant = z.iso.datetime({ offset: true });

/** A request as the pupil who made it reads it. */
export const myRegradeSchema = z.object({
  _id: z.uuid(),
  exercise: z.object({ _id: z.uuid(), title: z.string() }),
  message: z.string(),
  status: z.enum(REGRADE_STATUSES),
  reply: z.string().nullable(),
  oldGrade: z.string().nullable(),
  newGrade: z.string().nullable(),
  createdAt: instant,
  handledAt: instant.nullable(),
  /** Decision 162: the place pointed at, when the pupil marked one. */
  page: z.number().int().nullable().optional(),
  region: pageRegionSchema.nullable().optional(),
  /** The mark pointed at, as the copy carries it (its text when it has one). */
  annotation: z.object({ id: z.string(), page: z.number().int().nullable(), text: z.string().nullable() }).nullable().optional(),
});
export type MyRegrade = z.infer<typeof myRegradeSchema>;

/** One of the pupil's current answers a request may be about (only once the grades are published). */
export const regradableAnswerSchema = z.object({
  answerId: z.uuid(),
  exercise: z.object({ _id: z.uuid(), title: z.string(), maxPoints: z.number() }),
  grade: z.string().nullable(),
});
export type RegradableAnswer = z.infer<typeof regradableAnswerSchema>;

/** GET /regrade/mine/{chapterId}: whether the pupil may ask now, until when, their answers and their requests. */
export const myRegradesSchema = z.object({
  open: z.boolean(),
  regradeUntil: instant.nullable(),
  answers: z.array(regradableAnswerSchema),
  requests: z.array(myRegradeSchema),
});
export type MyRegrades = z.infer<typeof myRegradesSchema>;

/** One request of a chapter's queue (correctors and admins). */
export const regradeQueueItemSchema = myRegradeSchema.extend({
  answerId: z.uuid(),
  student: personSchema,
  exercise: z.object({ _id: z.uuid(), title: z.string(), maxPoints: z.number() }),
  /** The copy's grade now. */
  grade: z.string().nullable(),
  handledBy: personSchema.nullable(),
});
export type RegradeQueueItem = z.infer<typeof regradeQueueItemSchema>;

/** GET /regrade?chapter=: the chapter's requests, open ones first (oldest first), then the handled ones. */
export const regradeQueueSchema = z.object({
  chapter: z.object({ _id: z.uuid(), title: z.string(), regradeUntil: instant.nullable(), published: z.boolean() }),
  requests: z.array(regradeQueueItemSchema),
});
export type RegradeQueue = z.infer<typeof regradeQueueSchema>;

/** Decision 162: « Page 2, zone marquée », « Page 1 : Hypothèse non justifiée », or null when no place was marked. */
export function regradePlaceText(r: Pick<MyRegrade, 'page' | 'region' | 'annotation'>): string | null {
  if (r.annotation) {
    const page = r.annotation.page ?? r.page;
    const where = page !== null && page !== undefined ? `Page ${page + 1}` : 'Annotation';
    return r.annotation.text ? `${where}\u00a0: ${r.annotation.text}` : `${where}, annotation du correcteur`;
  }
  if (r.page === null || r.page === undefined) return null;
  return r.region ? `Page ${r.page + 1}, zone marquée` : `Page ${r.page + 1}`;
}
