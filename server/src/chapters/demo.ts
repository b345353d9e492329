import type { Db } from '../db/client.js';
import { accessGroups, chapters, exercises, statementVersions } from '../db/schema.js';

export interface ChaptersDemo {
  /** "Coupe Olympe 2026 — Tour 1": online, timed (60 min), open now for a week. */
  timedId: string;
  /** An untimed online training chapter, always open. */
  trainingId: string;
  /** "Épreuve papier — Demi-finale": offline, with instructions for the exam centres. */
  paperId: string;
  exerciseIds: { timed: string[]; training: string[]; paper: string[] };
}

interface DemoExercise {
  title: string;
  answerFormat: 'none' | 'numeric' | 'pdf';
  versions: Array<{ content: string; answer?: string }>;
}

async function insertExercises(db: Db, chapterId: string, list: DemoExercise[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [position, e] of list.entries()) {
    const [row] = await db
      .insert(exercises)
      .values({ chapterId, position, title: e.title, answerFormat: e.answerFormat })
      .returning({ id: exercises.id });
    await db
      .insert(statementVersions)
      .values(e.versions.map((v, i) => ({ exerciseId: row.id, position: i, content: v.content, answer: v.answer ?? null })));
    ids.push(row.id);
  }
  return ids;
}

const TIMED_EXERCISES: DemoExercise[] = [
  {
    title: 'Somme des carrés',
    answerFormat: 'numeric',
    versions: [
      { content: 'Calculer $S = \\sum_{k=1}^{10} k^2$.', answer: '385' },
      { content: 'Calculer $S = \\sum_{k=1}^{12} k^2$.', answer: '650' },
    ],
  },
  {
    title: 'Triangle rectangle',
    answerFormat: 'numeric',
    versions: [
      { content: 'Un triangle $ABC$ est rectangle en $A$, avec $AB = 6$ et $AC = 8$. Que vaut $BC$ ?', answer: '10' },
      { content: 'Un triangle $ABC$ est rectangle en $A$, avec $AB = 5$ et $AC = 12$. Que vaut $BC$ ?', answer: '13' },
    ],
  },
  {
    title: 'Équation',
    answerFormat: 'numeric',
    versions: [
      { content: 'Résoudre $$\\frac{3x - 1}{2} = 4.$$ Donner $x$ (virgule ou point).', answer: '3' },
      { content: 'Résoudre $$\\frac{5x + 2}{4} = 3.$$ Donner $x$ (virgule ou point).', answer: '2' },
    ],
  },
  {
    title: 'Démonstration',
    answerFormat: 'pdf',
    versions: [{ content: 'Montrer que pour tout entier $n \\geq 1$, $n^3 - n$ est divisible par $6$. Déposez votre copie en PDF.' }],
  },
];

const TRAINING_EXERCISES: DemoExercise[] = [
  {
    title: 'Pour commencer',
    answerFormat: 'none',
    versions: [{ content: 'Lisez les consignes : les réponses numériques acceptent la **virgule** ou le **point**.' }],
  },
  { title: 'Fractions', answerFormat: 'numeric', versions: [{ content: 'Calculer $\\frac{1}{2} + \\frac{1}{4}$.', answer: '0,75' }] },
  { title: 'Puissances', answerFormat: 'numeric', versions: [{ content: 'Calculer $2^{10}$.', answer: '1024' }] },
];

const PAPER_EXERCISES: DemoExercise[] = [
  {
    title: 'Arithmétique',
    answerFormat: 'pdf',
    versions: [{ content: 'Trouver tous les entiers $n$ tels que $n^2 + 1$ divise $n^3 + 3$.' }],
  },
  {
    title: 'Géométrie',
    answerFormat: 'pdf',
    versions: [{ content: 'Soit $ABCD$ un carré de côté $1$. Calculer l’aire du quart de disque de centre $A$ passant par $B$.' }],
  },
];

/**
 * Demonstration chapters (docs/product.md#spec-2 screens): a timed online round open now for a week, an untimed
 * training chapter, and a paper semi-final with instructions for exam centres. Returns the ids.
 */
export async function seedChaptersDemo(db: Db, now = new Date()): Promise<ChaptersDemo> {
  const [timed, training, paper] = await db
    .insert(chapters)
    .values([
      {
        title: 'Coupe Olympe 2026 — Tour 1',
        headerStudents:
          'Vous disposez de **60 minutes** à partir du moment où vous commencez. Les réponses sont des nombres : $\\frac{1}{2}$ s’écrit `0,5`.',
        offline: false,
        analysis: false,
      },
      {
        title: 'Entraînement — Calcul',
        headerStudents: 'Un chapitre d’entraînement sans limite de temps : essayez autant de fois que vous voulez.',
        offline: false,
        analysis: false,
      },
      {
        title: 'Épreuve papier — Demi-finale',
        headerStudents: 'Épreuve sur papier, dans le centre d’examen que vous avez choisi. Durée : 3 heures.',
        headerCenters:
          'Accueillez les élèves 15 minutes avant le début. Distribuez le sujet à l’heure exacte, ramassez les copies au bout de **3 heures**, puis numérisez-les en PDF.',
        offline: true,
        analysis: false,
      },
    ])
    .returning({ id: chapters.id });

  const weekLater = new Date(now.getTime() + 7 * 24 * 3600_000);
  await db.insert(accessGroups).values([
    {
      chapterId: timed.id,
      position: 0,
      name: 'all',
      timeDuration: 60,
      accessStart: new Date(now.getTime() - 60_000),
      accessEnd: weekLater,
    },
    { chapterId: training.id, position: 0, name: 'all' },
    { chapterId: paper.id, position: 0, name: 'all' },
  ]);

  return {
    timedId: timed.id,
    trainingId: training.id,
    paperId: paper.id,
    exerciseIds: {
      timed: await insertExercises(db, timed.id, TIMED_EXERCISES),
      training: await insertExercises(db, training.id, TRAINING_EXERCISES),
      paper: await insertExercises(db, paper.id, PAPER_EXERCISES),
    },
  };
}

/** Decision 73: one chapter in the bin (« Corbeille »), deleted three days ago, restorable with its exercise. */
export async function seedBinDemo(db: Db): Promise<{ chapterId: string }> {
  const [binned] = await db
    .insert(chapters)
    .values({ title: 'Entraînement 2025 (supprimé)', deletedAt: new Date(Date.now() - 3 * 86_400_000) })
    .returning();
  await db.insert(exercises).values({ chapterId: binned.id, position: 0, title: 'Un exercice de l’an dernier', answerFormat: 'numeric' });
  return { chapterId: binned.id };
}
