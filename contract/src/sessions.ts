import { z } from 'zod';

/**
 * SPEC §3 Chapter session: `pending` only for a timed chapter not yet started; `before`/`after`
 * outside the access window (or after the personal deadline).
 */
export const SESSION_STATUSES = ['before', 'pending', 'started', 'after'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** DESIGN §3 "Sessions and time": saves in flight are accepted this long after the deadline. */
export const SAVE_GRACE_MS = 5_000;

const instant = z.string().nullable();

/** GET/POST /chapter/start/{id}: the server is the clock; remainingTime in seconds, null = unlimited. */
export const sessionStateSchema = z.object({
  status: z.enum(SESSION_STATUSES),
  remainingTime: z.number().int().min(0).nullable(),
  /** True when the deciding access group has a duration (> 0): the pupil must start explicitly. */
  timed: z.boolean(),
  /** Seconds a timed test lasts once started (before the window end caps it); null when untimed. */
  duration: z.number().int().min(0).nullable(),
  accessStart: instant,
  accessEnd: instant,
  startedAt: instant,
  /** The end fixed when the pupil started (start + duration, capped by the window end). */
  endTime: instant,
  /** The instant after which saves are refused (plus the grace); null = none. */
  deadline: instant,
  /** The server's clock when the state was made: the page places instants by it, never by the browser's clock. */
  serverTime: z.string(),
});
export type SessionStateView = z.infer<typeof sessionStateSchema>;

export const FOCUS_EVENT_TYPES = ['focus', 'blur'] as const;
export const focusEventSchema = z.object({
  eventType: z.enum(FOCUS_EVENT_TYPES, { error: 'Type d’événement invalide (focus ou blur).' }),
});

/** SPEC §5: numeric answers take digits and the dot from the keyboard; the server also admits comma and minus. */
export const NUMERIC_ANSWER_MAX = 50;
export const NUMERIC_ANSWER_PATTERN = /^[0-9.,-]*$/;
export const NUMERIC_ANSWER_MESSAGE = `Réponse invalide : chiffres, point, virgule et signe moins uniquement (${NUMERIC_ANSWER_MAX} caractères au plus).`;

/** A PDF answer references an uploaded file by its served path. */
export const PDF_PATH_PATTERN = /^pdfs\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.pdf$/;

/**
 * POST /answer. `seq` orders the saves of one pupil on one exercise (the web sends a
 * millisecond timestamp, strictly increasing per exercise); absent, the server's clock is used.
 */
export const answerSaveSchema = z.object({
  exerciseId: z.uuid({ error: 'Exercice invalide.' }),
  answer: z.string({ error: 'La réponse doit être un texte.' }).max(200, { error: 'Réponse trop longue.' }),
  seq: z
    .number({ error: 'Numéro de sauvegarde invalide.' })
    .int({ error: 'Numéro de sauvegarde invalide.' })
    .min(0, { error: 'Numéro de sauvegarde invalide.' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'Numéro de sauvegarde invalide.' })
    .optional(),
});
export type AnswerSave = z.infer<typeof answerSaveSchema>;

/**
 * The acknowledgement of a save: no `message` field on purpose (an autosave must not raise a
 * notification). `current` is false when a newer save of the same exercise was already stored.
 */
export const answerSavedSchema = z.object({
  exercise: z.string(),
  seq: z.number(),
  current: z.boolean(),
  duplicate: z.boolean(),
});
export type AnswerSaved = z.infer<typeof answerSavedSchema>;

/** GET /answer/chapter/{id}: the caller's current answer per exercise; grades only once published. */
export const myAnswerSchema = z.object({
  exercise: z.string(),
  answer: z.string(),
  seq: z.number(),
  timestamp: z.string(),
  grade: z.string().nullable().optional(),
  grade_comment: z.string().nullable().optional(),
});
export type MyAnswer = z.infer<typeof myAnswerSchema>;

/** POST /pdfs. */
export const pdfUploadedSchema = z.object({ path: z.string() });
/** GET /pdfs/{file}/link: a short-lived URL usable without the Authorization header. */
export const pdfLinkSchema = z.object({ url: z.string(), expiresAt: z.string() });
