import { z } from 'zod';
import { bankCommentUsesSchema } from './annotations.js';

/** Decision 75: how many of the most frequent answers are shown per version of a numeric exercise. */
export const TOP_ANSWERS = 5;
export const ERRATA_FLAG_TEXT = 'erreur d’énoncé ou de corrigé probable';

export const frequentAnswerSchema = z.object({
  /** The answer as most pupils typed it (« 3,5 » and « 3.5 » are counted together). */
  answer: z.string(),
  count: z.number().int(),
  /** Equal to the version's expected answer. */
  expected: z.boolean(),
});
export type FrequentAnswer = z.infer<typeof frequentAnswerSchema>;

export const versionStatsSchema = z.object({
  /** 0-based, in the order of the statement versions. */
  version: z.number().int(),
  expected: z.string().nullable(),
  pupils: z.number().int(),
  top: z.array(frequentAnswerSchema),
  /** A wrong answer is more frequent than the expected one: « erreur d’énoncé ou de corrigé probable ». */
  flagged: z.boolean(),
});
export type VersionStats = z.infer<typeof versionStatsSchema>;

export const exerciseStatsSchema = z.object({
  _id: z.uuid(),
  title: z.string(),
  answerFormat: z.enum(['numeric', 'pdf']),
  maxPoints: z.number(),
  answered: z.number().int(),
  graded: z.number().int(),
  mean: z.number().nullable(),
  median: z.number().nullable(),
  /** Number of copies per grade, in increasing grade order. */
  distribution: z.array(z.object({ grade: z.number(), count: z.number().int() })),
  /** Numeric exercises only. */
  versions: z.array(versionStatsSchema),
  /** Decision 160 (always sent; optional for clients written before it): the bank's remarks and their uses, most used first. */
  bankComments: z.array(bankCommentUsesSchema).optional(),
});
export type ExerciseStats = z.infer<typeof exerciseStatsSchema>;

/** GET /stats/{chapterId} (correctors and admins). */
export const chapterStatsSchema = z.object({
  chapter: z.object({ _id: z.uuid(), title: z.string() }),
  exercises: z.array(exerciseStatsSchema),
});
export type ChapterStats = z.infer<typeof chapterStatsSchema>;

/** POST /stats/{chapterId}/errata (admins): the version's new expected answer, then its automatic correction. */
export const errataSchema = z.object({
  exerciseId: z.uuid({ error: 'Exercice invalide.' }),
  version: z.number({ error: 'Version invalide.' }).int({ error: 'Version invalide.' }).min(0, { error: 'Version invalide.' }),
  answer: z
    .string({ error: 'La réponse attendue doit être un texte.' })
    .trim()
    .min(1, { error: 'La réponse attendue ne peut pas être vide.' })
    .max(200),
});
export type Errata = z.input<typeof errataSchema>;

export const errataResultSchema = z.object({ message: z.string(), graded: z.number().int() });
export type ErrataResult = z.infer<typeof errataResultSchema>;
