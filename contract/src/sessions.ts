import { z } from 'zod';

/**
 * docs/product.md#spec-3 Chapter session: `pending` only for a timed chapter not yet started; `before`/`after`
 * outside the access window (or after the personal deadline).
 */
export const SESSION_STATUSES = ['before', 'pending', 'started', 'after'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** docs/product.md#design-3 "Sessions and time": saves in flight are accepted this long after the deadline. */
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
  /** When the pupil finished early (« Terminer l'épreuve »); absent otherwise. */
  finishedAt: instant.optional(),
});
export type SessionStateView = z.infer<typeof sessionStateSchema>;

export const FOCUS_EVENT_TYPES = ['focus', 'blur'] as const;
export const focusEventSchema = z.object({
  eventType: z.enum(FOCUS_EVENT_TYPES, { error: 'Type d’événement invalide (focus ou blur).' }),
});

/** The longest numeric answer kept (what it may hold: numeric.ts, decision 32). */
export const NUMERIC_ANSWER_MAX = 50;

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

/** Extra time (tiers-temps) in percent of each timed chapter's duration; one third is usual. */
export const EXTRA_TIME_MAX_PERCENT = 200;

/** PUT /user/{uid}/extra-time (admins). */
export const extraTimeSchema = z.object({
  percent: z
    .number({ error: 'Le temps supplémentaire doit être un nombre (en pourcentage).' })
    .int({ error: 'Le temps supplémentaire doit être un nombre entier de pour cent.' })
    .min(0, { error: 'Le temps supplémentaire ne peut pas être négatif.' })
    .max(EXTRA_TIME_MAX_PERCENT, { error: `Le temps supplémentaire ne peut pas dépasser ${EXTRA_TIME_MAX_PERCENT} %.` }),
});
export type ExtraTime = z.infer<typeof extraTimeSchema>;

/**
 * POST /chapter/{chapterId}/extension (admins): minutes added to one pupil's end after an incident.
 * The pupil is named by id (`user`) or, as an exam officer knows them, by e-mail (`email`).
 */
export const extensionSchema = z
  .object({
    user: z.uuid({ error: 'Identifiant d’élève invalide.' }).optional(),
    email: z.string().trim().toLowerCase().max(254, { error: 'Adresse e-mail trop longue.' }).optional(),
    minutes: z
      .number({ error: 'Le nombre de minutes doit être un nombre.' })
      .int({ error: 'Le nombre de minutes doit être entier.' })
      .min(1, { error: 'Ajoutez au moins une minute.' })
      .max(600, { error: 'Une prolongation ne peut pas dépasser 600 minutes.' }),
    reason: z
      .string({ error: 'Indiquez la raison de la prolongation.' })
      .trim()
      .min(1, { error: 'Indiquez la raison de la prolongation.' })
      .max(500, { error: 'La raison ne peut pas dépasser 500 caractères.' }),
  })
  .refine((x) => !!x.user || !!x.email, { error: 'Indiquez l’élève (son e-mail).' });
export type Extension = z.infer<typeof extensionSchema>;

/** One exercise of a receipt: the answer the server held as current at the end, and when it arrived. */
export const receiptLineSchema = z.object({
  exercise: z.string(),
  title: z.string(),
  position: z.number().int(),
  answerFormat: z.string(),
  /** The stored text (a PDF answer's path); null when nothing was saved. */
  answer: z.string().nullable(),
  seq: z.number().nullable(),
  /** The server's time of that save (ISO). */
  timestamp: z.string().nullable(),
});
export type ReceiptLine = z.infer<typeof receiptLineSchema>;

/**
 * GET /chapter/receipt/{id}[?user={uid}]: what the server recorded once the test is over, with a
 * code (HMAC of the list) staff recompute later to compare with the one the pupil was shown.
 */
export const receiptSchema = z.object({
  chapter: z.object({ _id: z.string(), title: z.string() }),
  user: z.object({ _id: z.string(), name: z.string() }),
  /** The session's end: the finish, the time up or the window's close. */
  endedAt: z.string().nullable(),
  finished: z.boolean(),
  lines: z.array(receiptLineSchema),
  /** « K7Q2-M9XD-41 »: 10 Crockford base32 characters of the HMAC, grouped for reading. */
  code: z.string(),
  generatedAt: z.string(),
});
export type Receipt = z.infer<typeof receiptSchema>;

export const receiptQuerySchema = z.object({ user: z.uuid({ error: 'Identifiant d’élève invalide.' }).optional() });
