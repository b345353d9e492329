import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import {
  accessGroups,
  answers,
  chapters,
  chapterSessions,
  exercises,
  groupMembers,
  groups,
  institutions,
  selectionCategories,
  selections,
  statementVersions,
  users,
} from '../db/schema.js';

/**
 * The demo of docs/product.md#selections (decisions 155–158): a finished, published « Tour 1 » taken by 300 pupils
 * of every grade, gender and many schools; the draft « Sélection pour le tour 2 » over it, deliberated by the
 * « Jury » group (the demo corrector, who decides), cut-offs set on two categories and a tie left unresolved on the
 * third, no version yet; and « Tour 2 », whose access group admits only the qualified (decision 157).
 */

export const DEMO_SELECTION_TITLE = 'Sélection pour le tour 2';
export const DEMO_SELECTION_PARTICIPANTS = 300;
export const DEMO_JURY_GROUP = 'Jury';

const DAY = 86_400_000;
const PUPIL_GRADES = ['5eme', '4eme', '3eme', '2nde', '1ere', 'Tale'] as const;
const BIRTH_YEAR: Record<string, number> = { '5eme': 2013, '4eme': 2012, '3eme': 2011, '2nde': 2010, '1ere': 2009, Tale: 2008 };
const FIRST = ['Lina', 'Adam', 'Rose', 'Léo', 'Ambre', 'Nathan', 'Lou', 'Tom', 'Anna', 'Sacha', 'Mila', 'Arthur', 'Iris', 'Paul'];
const LAST = ['Garnier', 'Faure', 'Rousseau', 'Blanc', 'Guérin', 'Muller', 'Henry', 'Roussel', 'Nicolas', 'Perrin', 'Morin', 'Mathieu'];
/** Out of 42: the figure the pupils' block of the demo shows as a cut-off in points. */
const EXERCISES = [
  { title: 'Les dominos', maxPoints: 5, content: 'Combien de pavages du rectangle $2 \\times 6$ par des dominos ?', answer: '13' },
  { title: 'Le cercle', maxPoints: 5, content: 'Quel est le rayon (en cm) du cercle inscrit dans le triangle $3, 4, 5$ ?', answer: '1' },
  { title: 'Les diviseurs', maxPoints: 7, content: 'Combien de diviseurs positifs a $360$ ?', answer: '24' },
  { title: 'La suite', maxPoints: 7, content: 'On pose $u_0 = 1$ et $u_{n+1} = 2u_n + 1$. Que vaut $u_{10}$ ?', answer: '2047' },
  { title: 'Le damier', maxPoints: 8, content: 'Combien de carrés de toutes tailles dans un damier $8 \\times 8$ ?', answer: '204' },
  { title: 'L’équation', maxPoints: 10, content: 'Combien de couples d’entiers $(x, y)$ vérifient $xy = x + y$ ?', answer: '2' },
] as const;
const CATEGORIES = [
  { name: 'Collège', grades: ['5eme', '4eme', '3eme'] },
  { name: 'Seconde', grades: ['2nde'] },
  { name: 'Première et terminale', grades: ['1ere', 'Tale'] },
] as const;

/** A small deterministic generator (mulberry32), so that the demo's scores and its tie are the same at each start. */
function generator(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Pupil {
  id: string;
  grade: string;
  gender: string;
  birthDate: string;
}

/** The pupils of the round: the given demo accounts, then generated ones (no password: they never sign in). */
async function roundPupils(db: Db, opts: { pupilIds: string[]; schoolIds: string[] }, random: () => number): Promise<Pupil[]> {
  const known = await db
    .select({ id: users.id, grade: users.grade, gender: users.gender, birthDate: users.birthDate })
    .from(users)
    .where(inArray(users.id, opts.pupilIds));
  const schools = await db
    .select({ id: institutions.id })
    .from(institutions)
    .where(and(inArray(institutions.id, opts.schoolIds), eq(institutions.confirmed, true)));
  const count = DEMO_SELECTION_PARTICIPANTS - known.length;
  const generated = await db
    .insert(users)
    .values(
      Array.from({ length: count }, (_, i) => {
        const grade = PUPIL_GRADES[i % PUPIL_GRADES.length];
        const draw = random();
        return {
          email: `tour1-${String(i + 1).padStart(3, '0')}@olympe.demo`,
          firstName: FIRST[i % FIRST.length],
          lastName: LAST[(i * 7) % LAST.length],
          gender: draw < 0.47 ? 'female' : draw < 0.97 ? 'male' : 'other',
          grade,
          birthDate: `${BIRTH_YEAR[grade]}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
          institutionId: schools[Math.floor(random() * schools.length)].id,
        };
      }),
    )
    .returning({ id: users.id, grade: users.grade, gender: users.gender, birthDate: users.birthDate });
  return [...known, ...generated].map((p) => ({
    id: p.id,
    grade: p.grade ?? '3eme',
    gender: p.gender ?? 'other',
    birthDate: p.birthDate ?? '2011-01-01',
  }));
}

/** « Tour 1 »: online, finished a month ago, results published, six numeric exercises out of 42. */
async function seedRoundOne(db: Db, now: number) {
  const [chapter] = await db
    .insert(chapters)
    .values({
      title: 'Olympiades 2026 — Tour 1',
      headerStudents: 'Le tour 1 est terminé et corrigé : vos résultats sont ci-dessous. La sélection pour le tour 2 suivra.',
      analysis: true,
    })
    .returning({ id: chapters.id });
  await db.insert(accessGroups).values({
    chapterId: chapter.id,
    position: 0,
    timeDuration: 90,
    accessStart: new Date(now - 31 * DAY),
    accessEnd: new Date(now - 30 * DAY),
  });
  const rows = await db
    .insert(exercises)
    .values(
      EXERCISES.map((e, position) => ({
        chapterId: chapter.id,
        position,
        title: e.title,
        answerFormat: 'numeric',
        maxPoints: e.maxPoints,
      })),
    )
    .returning({ id: exercises.id });
  await db
    .insert(statementVersions)
    .values(rows.map((r, i) => ({ exerciseId: r.id, position: 0, content: EXERCISES[i].content, answer: EXERCISES[i].answer })));
  return { chapterId: chapter.id, exerciseIds: rows.map((r) => r.id) };
}

/** Each pupil's session (with the profile it recorded, decision 155) and graded answers; returns their totals. */
async function seedCopies(
  db: Db,
  round: { chapterId: string; exerciseIds: string[] },
  opts: { pupils: Pupil[]; graderId: string; now: number },
  random: () => number,
): Promise<number[]> {
  const start = opts.now - 31 * DAY + 3_600_000;
  await db.insert(chapterSessions).values(
    opts.pupils.map((p, i) => ({
      chapterId: round.chapterId,
      userId: p.id,
      startedAt: new Date(start + i * 1000),
      finishedAt: new Date(start + i * 1000 + 80 * 60_000),
      accessGender: p.gender,
      accessGrade: p.grade,
      accessBirthDate: p.birthDate,
    })),
  );
  const totals = opts.pupils.map(() => 0);
  const rows: Array<typeof answers.$inferInsert> = [];
  opts.pupils.forEach((p, i) => {
    const ability = 0.15 + 0.8 * random();
    round.exerciseIds.forEach((exerciseId, e) => {
      // The later exercises are harder, and a few are left blank.
      if (random() < 0.05 + e * 0.03) return;
      const max = EXERCISES[e].maxPoints;
      const share = Math.min(1, Math.max(0, ability - e * 0.06 + (random() - 0.5) * 0.4));
      const grade = Math.round(share * max * 2) / 2;
      totals[i] += grade;
      const at = new Date(start + i * 1000 + (e + 1) * 600_000);
      const answer = String(Math.floor(random() * 300));
      const graded = { grade: String(grade), graderId: opts.graderId, gradeTimestamp: new Date(opts.now - 20 * DAY) };
      rows.push({ userId: p.id, exerciseId, answer, seq: at.getTime(), createdAt: at, ...graded });
    });
  });
  for (let k = 0; k < rows.length; k += 500) await db.insert(answers).values(rows.slice(k, k + 500));
  return totals;
}

/** The scores of a category's pupils, best first. */
const scoresOf = (pupils: Pupil[], totals: number[], grades: readonly string[]) =>
  totals.filter((_, i) => grades.includes(pupils[i].grade)).sort((a, b) => b - a);

/** A cut-off with pupils exactly at it, near the category's tenth best (the demo's unresolved tie, decision 156). */
function tiedCutoff(scores: number[]): number {
  for (let k = 9; k < scores.length - 1; k++) if (scores[k] === scores[k + 1]) return scores[k];
  return scores[Math.min(9, scores.length - 1)];
}

/** The draft selection, its three categories and their settings, and its jury. */
async function seedSelection(db: Db, opts: { chapterId: string; pupils: Pupil[]; totals: number[]; juryMemberId: string; now: number }) {
  const [jury] = await db.insert(groups).values({ name: DEMO_JURY_GROUP }).returning({ id: groups.id });
  await db.insert(groupMembers).values({ groupId: jury.id, userId: opts.juryMemberId });
  const [selection] = await db
    .insert(selections)
    .values({
      title: DEMO_SELECTION_TITLE,
      chapters: [{ chapterId: opts.chapterId, weight: 1 }],
      nextRoundTitle: 'le tour 2 des Olympiades 2026',
      nextRoundDate: new Date(opts.now + 45 * DAY).toISOString().slice(0, 10),
      nextRoundPlace: 'Dans votre établissement, sur ordinateur',
      juryGroupId: jury.id,
      juryRight: 'decide',
    })
    .returning({ id: selections.id });
  await db.insert(selectionCategories).values(
    CATEGORIES.map((c, position) => {
      const scores = scoresOf(opts.pupils, opts.totals, c.grades);
      // Collège and Seconde: about their best fifth, ties included; the last category: a tie left to the jury.
      const settled = position < 2;
      const cutoff = settled ? scores[Math.floor(scores.length / 5)] : tiedCutoff(scores);
      return {
        selectionId: selection.id,
        position,
        name: c.name,
        grades: [...c.grades],
        cutoff,
        atCutoff: settled ? 'include' : null,
      };
    }),
  );
  return selection.id;
}

/** « Tour 2 »: opens in six weeks to the pupils qualified in the selection only (decision 157). */
async function seedRoundTwo(db: Db, selectionId: string, now: number): Promise<string> {
  const [chapter] = await db
    .insert(chapters)
    .values({ title: 'Olympiades 2026 — Tour 2', headerStudents: 'Le tour 2 est réservé aux qualifiés du tour 1.' })
    .returning({ id: chapters.id });
  await db.insert(accessGroups).values({
    chapterId: chapter.id,
    position: 0,
    name: 'Qualifiés du tour 1',
    timeDuration: 120,
    accessStart: new Date(now + 45 * DAY),
    accessEnd: new Date(now + 46 * DAY),
    requiredSelectionId: selectionId,
  });
  const [exercise] = await db
    .insert(exercises)
    .values({ chapterId: chapter.id, position: 0, title: 'Les pavages', answerFormat: 'numeric', maxPoints: 10 })
    .returning({ id: exercises.id });
  await db.insert(statementVersions).values({
    exerciseId: exercise.id,
    position: 0,
    content: 'Combien de pavages du rectangle $3 \\times 4$ par des dominos ?',
    answer: '11',
  });
  return chapter.id;
}

/** `pupilIds`: demo accounts who took Tour 1; the generated others go to the confirmed schools among `schoolIds`. */
export async function seedSelectionsDemo(
  db: Db,
  opts: { pupilIds: string[]; schoolIds: string[]; graderId: string; juryMemberId: string },
): Promise<{ selectionId: string; roundOneId: string; roundTwoId: string }> {
  const now = Date.now();
  const random = generator(2026);
  const pupils = await roundPupils(db, opts, random);
  const round = await seedRoundOne(db, now);
  const totals = await seedCopies(db, round, { pupils, graderId: opts.graderId, now }, random);
  const selectionId = await seedSelection(db, { chapterId: round.chapterId, pupils, totals, juryMemberId: opts.juryMemberId, now });
  const roundTwoId = await seedRoundTwo(db, selectionId, now);
  return { selectionId, roundOneId: round.chapterId, roundTwoId };
}
