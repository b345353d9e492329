import { z } from 'zod';

/**
 * Cheat analysis (docs/product.md#spec-2 "Analyse de la triche", §3 Analysis, §9; docs/product.md#design-3 "Cheat analysis").
 * The exact definition of every figure: server/src/analysis/compute.ts and bench/analysis/README.md;
 * the page explains each in one sentence.
 */

/** docs/product.md#spec-9: at most 5 suspicious pairs per IP address. */
export const MAX_PAIRS_PER_IP = 5;
/** docs/product.md#design-3: a correct answer saved this many seconds (inclusive) after returning from a blur is suspicious. */
export const SUSPICIOUS_WINDOW_SECONDS = 30;
/** docs/product.md#design-3: timeFor70Pct measures the time until this share of the final answers existed. */
export const ANSWER_SHARE_PERCENT = 70;

const person = z.object({ _id: z.string(), firstName: z.string().nullable(), lastName: z.string().nullable() });
export type AnalysisPerson = z.infer<typeof person>;

/** One pupil of the chapter: everyone with a session, a focus event or an answer. */
export const individualAnalysisSchema = z.object({
  user: person,
  /** The address the pupil used most (events and answers together); null when none was recorded. */
  ip: z.string().nullable(),
  /** Every address the pupil used, most used first. */
  ips: z.array(z.string()),
  /** Times the pupil left the test window (a repeated blur without a focus in between is the same absence). */
  totalBlurEvents: z.number().int().min(0),
  /** Seconds spent away: each blur to the next focus, or to the end of the pupil's time. */
  totalBlurDuration: z.number().int().min(0),
  /** Numeric exercises whose answer first became correct within 30 s after returning from a blur. */
  suspiciousCorrectAnswers: z.number().int().min(0),
  suspiciousExerciseIds: z.array(z.string()),
  /** Seconds from the start until 70 % of the final answers had their first save; null without start or answer. */
  timeFor70Pct: z.number().int().min(0).nullable(),
  /** Exercises with a non-empty current answer (the n of the 70 %). */
  answered: z.number().int().min(0),
  /** Where the name links: the first suspicious exercise, else the first answered one (chapter order). */
  historyExerciseId: z.string().nullable(),
  /** docs/product.md#spec-2: round(blur seconds / 60) + blur events + suspicious correct answers. */
  score: z.number().int().min(0),
});
export type IndividualAnalysis = z.infer<typeof individualAnalysisSchema>;

/** docs/product.md#spec-3 pair entry: two pupils of one address, their common wrong answers and every identical answer. */
export const pairAnalysisSchema = z.object({
  user1: person,
  user2: person,
  commonWrong: z.number().int().min(1),
  commonAnswers: z.array(z.object({ exerciseId: z.string(), answer: z.string(), wrong: z.boolean() })),
});
export type PairAnalysis = z.infer<typeof pairAnalysisSchema>;

/** An address used by two pupils or more, with at most MAX_PAIRS_PER_IP pairs ranked by common wrong answers. */
export const ipGroupSchema = z.object({
  ip: z.string(),
  userIds: z.array(z.string()),
  pairs: z.array(pairAnalysisSchema),
});
export type IpGroup = z.infer<typeof ipGroupSchema>;

/** GET /answer/analysis/{chapterId}. */
export const chapterAnalysisSchema = z.object({
  chapter: z.object({ _id: z.string(), title: z.string() }),
  exercises: z.array(z.object({ _id: z.string(), title: z.string(), answerFormat: z.string() })),
  individualAnalysis: z.array(individualAnalysisSchema),
  pairAnalysis: z.array(ipGroupSchema),
});
export type ChapterAnalysis = z.infer<typeof chapterAnalysisSchema>;

export interface ScoreTerms {
  /** round(blur seconds / 60). */
  blurMinutes: number;
  blurEvents: number;
  suspicious: number;
}

/** The three terms of the score (docs/product.md#spec-2), so the page can show each. */
export function scoreTerms(
  entry: Pick<IndividualAnalysis, 'totalBlurDuration' | 'totalBlurEvents' | 'suspiciousCorrectAnswers'>,
): ScoreTerms {
  return {
    blurMinutes: Math.round(entry.totalBlurDuration / 60),
    blurEvents: entry.totalBlurEvents,
    suspicious: entry.suspiciousCorrectAnswers,
  };
}

/** docs/product.md#spec-2: score = round(blur seconds / 60) + blur events + suspicious correct answers. */
export function analysisScore(
  entry: Pick<IndividualAnalysis, 'totalBlurDuration' | 'totalBlurEvents' | 'suspiciousCorrectAnswers'>,
): number {
  const t = scoreTerms(entry);
  return t.blurMinutes + t.blurEvents + t.suspicious;
}
