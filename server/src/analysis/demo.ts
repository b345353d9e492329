import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { answers, chapterSessions, exercises, focusEvents, statementVersions } from '../db/schema.js';
import { pickVersionIndex } from '../exercises/versions.js';

/** Documentation addresses (RFC 5737): two schools and a home connection. */
const SCHOOL_A = '203.0.113.10';
const SCHOOL_B = '203.0.113.20';
const HOME = '198.51.100.7';

type Plan = {
  ip: string;
  /** [leave, come back] offsets in seconds from the start; come back null = never. */
  absences: Array<[number, number | null]>;
  /** Per numeric exercise: 'right', a wrong value, or null (no answer), and when (seconds from start). */
  answers: Array<[value: 'right' | string | null, at: number]>;
  /** A second address for the answers (answered from home). */
  answerIp?: string;
};

/**
 * The stories the cheat-analysis page should tell (docs/product.md#spec-2 "Analyse de la triche"): a pupil away
 * often and long who answers right just after coming back; two pupils of one school sharing the
 * same wrong answers; a pupil who also answered from home; the others quiet.
 */
const PLANS: Plan[] = [
  {
    ip: SCHOOL_A,
    absences: [
      [300, 420],
      [900, 1500],
      [1530, 1545],
      [2400, null],
    ],
    answers: [
      ['right', 1510],
      ['right', 1560],
      ['right', 1570],
    ],
  },
  {
    ip: SCHOOL_A,
    absences: [[600, 640]],
    answers: [
      ['42', 500],
      ['17', 800],
      ['right', 1200],
    ],
  },
  {
    ip: SCHOOL_A,
    absences: [],
    answers: [
      ['42', 520],
      ['17', 830],
      ['right', 1250],
    ],
  },
  {
    ip: SCHOOL_A,
    absences: [[1000, 1030]],
    answers: [
      ['right', 400],
      ['17', 900],
      ['5', 1600],
    ],
  },
  {
    ip: SCHOOL_B,
    absences: [],
    answers: [
      ['right', 700],
      ['right', 1400],
      [null, 0],
    ],
  },
  {
    ip: SCHOOL_B,
    absences: [
      [200, 260],
      [1800, 1900],
    ],
    answers: [
      ['right', 600],
      ['9', 1300],
      ['right', 1905],
    ],
    answerIp: HOME,
  },
  {
    ip: SCHOOL_B,
    absences: [],
    answers: [
      ['12', 450],
      ['9', 1000],
      ['right', 2000],
    ],
  },
  {
    ip: HOME,
    absences: [[100, 110]],
    answers: [
      ['right', 300],
      ['right', 900],
      ['right', 1500],
    ],
  },
];

/**
 * Demonstration data for the cheat analysis: on the timed chapter, the first pupils (one per plan)
 * started two hours ago (their 60 minutes are over), with focus/blur events and numeric answers,
 * each with an address. Returns the number of events written.
 */
export async function seedAnalysisDemo(
  db: Db,
  { chapterId, pupilIds, now = new Date() }: { chapterId: string; pupilIds: string[]; now?: Date },
): Promise<number> {
  const numeric = await db
    .select({ id: exercises.id })
    .from(exercises)
    .where(and(eq(exercises.chapterId, chapterId), eq(exercises.answerFormat, 'numeric')))
    .orderBy(asc(exercises.position), asc(exercises.createdAt));
  if (numeric.length === 0 || pupilIds.length === 0) return 0;
  const versions = await db
    .select({ exerciseId: statementVersions.exerciseId, answer: statementVersions.answer })
    .from(statementVersions)
    .where(
      inArray(
        statementVersions.exerciseId,
        numeric.map((e) => e.id),
      ),
    )
    .orderBy(asc(statementVersions.position), asc(statementVersions.id));
  const expectedOf = (userId: string, exerciseId: string) => {
    const list = versions.filter((v) => v.exerciseId === exerciseId).map((v) => v.answer);
    return list[pickVersionIndex(userId, exerciseId, list.length)] ?? '0';
  };

  const sessions: Array<typeof chapterSessions.$inferInsert> = [];
  const events: Array<typeof focusEvents.$inferInsert> = [];
  const rows: Array<typeof answers.$inferInsert> = [];
  PLANS.slice(0, pupilIds.length).forEach((plan, i) => {
    const userId = pupilIds[i];
    const start = now.getTime() - 2 * 3600_000 + i * 45_000;
    const time = (s: number) => new Date(start + s * 1000);
    sessions.push({ chapterId, userId, startedAt: time(0), endTime: time(3600) });
    for (const [leave, back] of plan.absences) {
      events.push({ chapterId, userId, eventType: 'blur', at: time(leave), ip: plan.ip });
      if (back !== null) events.push({ chapterId, userId, eventType: 'focus', at: time(back), ip: plan.ip });
    }
    plan.answers.forEach(([value, s], k) => {
      if (value === null || !numeric[k]) return;
      const exerciseId = numeric[k].id;
      const answer = value === 'right' ? (expectedOf(userId, exerciseId) ?? '0') : value;
      const ip = plan.answerIp && k === 1 ? plan.answerIp : plan.ip;
      rows.push({ userId, exerciseId, answer, seq: start + s * 1000, createdAt: time(s), ip });
    });
  });
  await db.insert(chapterSessions).values(sessions).onConflictDoNothing();
  if (events.length) await db.insert(focusEvents).values(events);
  if (rows.length) await db.insert(answers).values(rows);
  return events.length;
}
