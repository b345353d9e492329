import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { centerRegistrations, centers, users } from '../db/schema.js';

export interface CentersDemoInput {
  /** A paper (offline) chapter. */
  chapterId: string;
  /** At least 5 schools; the first is the demo teacher's school. */
  institutionIds: string[];
  teacherId: string;
  pupilIds: string[];
}

/**
 * Centres of the demo paper chapter: the teacher's school open with places, two more open
 * centres (one with a single place, filled), a pole centre, one school that said no, and a few
 * registrations. Safe to run twice.
 */
export async function seedCentersDemo(db: Db, input: CentersDemoInput): Promise<void> {
  const { chapterId, institutionIds: ids, pupilIds } = input;
  if (ids.length < 5) throw new Error('seedCentersDemo needs at least 5 institutions');
  const [own, second, small, pole, refusing] = ids;
  const rows: Array<typeof centers.$inferInsert> = [
    { chapterId, institutionId: own, opened: true, nbPlaces: 20, instructions: 'Salle polyvalente, bâtiment B. Arrivée à 8 h 30, munissez-vous d’une pièce d’identité.' },
    { chapterId, institutionId: second, opened: true, nbPlaces: 5, instructions: 'Accueil au CDI à 9 h. Calculatrice interdite.' },
    { chapterId, institutionId: small, opened: true, nbPlaces: 1, instructions: 'Salle 12, rez-de-chaussée.' },
    { chapterId, institutionId: pole, opened: true, isPole: true, nbPlaces: 0, instructions: 'Centre pôle : amphithéâtre A, ouverture des portes à 8 h.' },
    { chapterId, institutionId: refusing, opened: false },
  ];
  await db
    .insert(centers)
    .values(rows)
    .onConflictDoUpdate({
      target: [centers.chapterId, centers.institutionId],
      set: {
        opened: sql`excluded.opened`,
        nbPlaces: sql`excluded.nb_places`,
        instructions: sql`excluded.instructions`,
        isPole: sql`excluded.is_pole`,
      },
    });
  // The first pupils: at the pole centre, the small centre (full once a pupil from elsewhere is there), the second.
  const targets = [pole, small, second, pole];
  const registrations = pupilIds.slice(0, targets.length).map((userId, i) => ({ chapterId, userId, institutionId: targets[i] }));
  if (registrations.length > 0) await db.insert(centerRegistrations).values(registrations).onConflictDoNothing();
  // One pupil of the second school who moved to the teacher's school after the chapter opened and
  // registered there as one of its own: the teacher's centre flags them, with « Refuser ».
  const claimant = pupilIds[targets.length];
  if (claimant) {
    await db
      .update(users)
      .set({ institutionId: own, previousInstitutionId: second, institutionChangedAt: new Date() })
      .where(eq(users.id, claimant));
    await db.insert(centerRegistrations).values({ chapterId, userId: claimant, institutionId: own }).onConflictDoNothing();
  }
}
