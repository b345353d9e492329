import type { Db } from '../db/client.js';
import { accessGroups, answers, chapters, exercises, statementVersions } from '../db/schema.js';

/**
 * The demo of decisions 69–71: a published final with rank and percentile shown and a qualification threshold
 * (12 points out of 20): the demo pupil is qualified, her school's teacher sees its pupils' results,
 * two pupils tie for a rank, and the admin can preview any card and download every certificate.
 */
export async function seedResultsDemo(db: Db, opts: { pupilIds: string[]; graderId: string }): Promise<string> {
  const [chapter] = await db
    .insert(chapters)
    .values({
      title: 'Coupe Olympe 2025 — Finale',
      headerStudents: 'Les résultats de la finale sont publiés : votre carte de résultats et votre attestation sont ci-dessous.',
      analysis: true,
      showRank: true,
      qualificationThreshold: 12,
      qualificationText: 'Qualifié(e) pour le stage olympique',
    })
    .returning({ id: chapters.id });
  await db.insert(accessGroups).values({ chapterId: chapter.id, position: 0, name: 'all' });
  const [sum, geometry, proof] = await db
    .insert(exercises)
    .values([
      { chapterId: chapter.id, position: 0, title: 'Somme des carrés', answerFormat: 'numeric', maxPoints: 4 },
      { chapterId: chapter.id, position: 1, title: 'Triangle et cercle', answerFormat: 'numeric', maxPoints: 6 },
      { chapterId: chapter.id, position: 2, title: 'Preuve par récurrence', answerFormat: 'numeric', maxPoints: 10 },
    ])
    .returning({ id: exercises.id });
  await db.insert(statementVersions).values([
    { exerciseId: sum.id, position: 0, content: 'Calculer $1^2 + 2^2 + \\dots + 10^2$.', answer: '385' },
    { exerciseId: geometry.id, position: 0, content: 'Quel est le rayon du cercle circonscrit (en cm) ?', answer: '5' },
    { exerciseId: proof.id, position: 0, content: 'Combien de pavages du rectangle $2 \\times 10$ par des dominos ?', answer: '89' },
  ]);
  // Grades per pupil (sum, geometry, proof): the first is the demo pupil (17,5 / 20, qualified).
  const grid: Array<[string, string, string]> = [
    ['4', '6', '7.5'],
    ['4', '4', '6'],
    ['4', '4', '6'],
    ['0', '6', '9'],
    ['4', 'X', '3'],
    ['4', '2', '2.5'],
    ['0', '0', '4'],
    ['4', '6', '10'],
    ['0', '3', '1'],
  ];
  const comments = ['Juste', 'Bonne figure, justification incomplète', 'Récurrence bien posée, hérédité à détailler'];
  let seq = 1;
  const rows = opts.pupilIds.slice(0, grid.length).flatMap((userId, p) =>
    [sum.id, geometry.id, proof.id].map((exerciseId, e) => ({
      userId,
      exerciseId,
      answer: '42',
      seq: seq++,
      grade: grid[p][e],
      gradeComment: p === 0 ? comments[e] : '',
      graderId: opts.graderId,
      gradeTimestamp: new Date(),
    })),
  );
  await db.insert(answers).values(rows);
  return chapter.id;
}
