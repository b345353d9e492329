import type { Db } from '../db/client.js';
import { accessGroups, answers, chapters, exercises, regradeRequests, statementVersions } from '../db/schema.js';
import { pickVersionIndex } from '../exercises/versions.js';
import { autoGrade } from '../grading/autocorrect.js';

const DAY = 86_400_000;

/** The published chapter, open to regrade requests for two weeks, with its two exercises and their two versions each. */
async function seedPublishedChapter(db: Db, now: number) {
  const [chapter] = await db
    .insert(chapters)
    .values({
      title: 'Coupe Olympe 2026 — Tour 0 (résultats publiés)',
      headerStudents: 'Les notes sont publiées. Une note vous semble injuste ? Demandez un réexamen avant la date indiquée.',
      analysis: true,
      regradeUntil: new Date(now + 14 * DAY),
    })
    .returning();
  await db
    .insert(accessGroups)
    .values({ chapterId: chapter.id, position: 0, accessStart: new Date(now - 20 * DAY), accessEnd: new Date(now - 19 * DAY) });
  const [first, second] = await db
    .insert(exercises)
    .values([
      { chapterId: chapter.id, position: 0, title: 'Les diagonales', answerFormat: 'numeric', maxPoints: 5 },
      { chapterId: chapter.id, position: 1, title: 'La somme des chiffres', answerFormat: 'numeric', maxPoints: 3 },
    ])
    .returning();
  const expected = new Map([
    [first.id, ['10', '20']],
    [second.id, ['7', '8']],
  ]);
  await db.insert(statementVersions).values([
    { exerciseId: first.id, position: 0, content: 'Combien de diagonales a un hexagone ?', answer: '10' },
    { exerciseId: first.id, position: 1, content: 'Combien de diagonales a un octogone ?', answer: '20' },
    { exerciseId: second.id, position: 0, content: 'Somme des chiffres de $2^{4}$ ?', answer: '7' },
    { exerciseId: second.id, position: 1, content: 'Somme des chiffres de $2^{3}$ ?', answer: '8' },
  ]);
  return { chapter, first, second, expected };
}

type DemoExercise = { id: string; maxPoints: number };

/** Every pupil's graded answer to both exercises, the planted error included. */
function demoAnswers(
  everyone: string[],
  exercisesOf: { first: DemoExercise; second: DemoExercise; expected: Map<string, string[]> },
  now: number,
) {
  const { first, second, expected } = exercisesOf;
  // Versions follow the pupils' random ids, so the wrong answers are counted within each version: a version
  // with few pupils then never has more wrong answers than right ones by chance (only the planted one is flagged).
  const seen = new Map<string, number>();
  return everyone.flatMap((userId, i) =>
    [first, second].map((e) => {
      const versions = expected.get(e.id)!;
      const version = pickVersionIndex(userId, e.id, versions.length);
      const key = `${e.id}:${version}`;
      const j = seen.get(key) ?? 0;
      seen.set(key, j + 1);
      // The first exercise's version 1 corrigé is wrong: most of its pupils answer 9 (an hexagon has 9 diagonals).
      const answer = e.id === first.id && version === 0 ? (j % 4 === 3 ? '10' : '9') : j % 5 === 4 ? '1' : versions[version];
      const right = autoGrade(answer, versions[version]);
      return {
        userId,
        exerciseId: e.id,
        answer,
        seq: 1,
        createdAt: new Date(now - 20 * DAY + i * 60_000),
        grade: right === '1' ? String(e.maxPoints) : '0',
        gradeTimestamp: new Date(now - 18 * DAY),
      };
    }),
  );
}

/**
 * Demonstration of decision 74: a published chapter whose regrade requests are open for two weeks, graded
 * automatically; on its first exercise most pupils of version 1 answer 9 where the corrigé says 10
 * (the statistics flag « erreur d’énoncé ou de corrigé probable »); the demo pupil's request waits
 * for a corrector, another pupil's was declined with a reply.
 */
export async function seedRegradeDemo(
  db: Db,
  opts: { pupilId: string; pupilIds: string[]; graderId: string },
): Promise<{ chapterId: string }> {
  const now = Date.now();
  const { chapter, first, second, expected } = await seedPublishedChapter(db, now);
  const rows = demoAnswers([opts.pupilId, ...opts.pupilIds], { first, second, expected }, now);
  const inserted = await db
    .insert(answers)
    .values(rows)
    .returning({ id: answers.id, userId: answers.userId, exerciseId: answers.exerciseId, grade: answers.grade });
  const answerOf = (userId: string, exerciseId: string) => inserted.find((a) => a.userId === userId && a.exerciseId === exerciseId)!;
  const mine = answerOf(opts.pupilId, first.id);
  const other = answerOf(opts.pupilIds[0], second.id);
  await db.insert(regradeRequests).values([
    {
      answerId: mine.id,
      chapterId: chapter.id,
      exerciseId: first.id,
      userId: opts.pupilId,
      message: 'J’ai compté les diagonales une à une sur ma figure : pouvez-vous revoir ma réponse ?',
      oldGrade: mine.grade,
      createdAt: new Date(now - 2 * DAY),
    },
    {
      answerId: other.id,
      chapterId: chapter.id,
      exerciseId: second.id,
      userId: opts.pupilIds[0],
      message: 'Je pense avoir la bonne réponse.',
      status: 'declined',
      reply: 'La somme des chiffres de 16 est 1 + 6 = 7 : la note reste inchangée.',
      oldGrade: other.grade,
      handledBy: opts.graderId,
      handledAt: new Date(now - DAY),
      createdAt: new Date(now - 3 * DAY),
    },
  ]);
  return { chapterId: chapter.id };
}
