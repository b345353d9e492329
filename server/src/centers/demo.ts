import { and, eq, inArray, sql } from 'drizzle-orm';
import { queueConvocation } from '../mail/notifications.js';
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
  await upsertCentres(db, demoCentres(chapterId, { own, second, small, pole, refusing }));
  // The first pupils: at the pole centre, the small centre (full once a pupil from elsewhere is there), the second.
  const targets = [pole, small, second, pole];
  const registrations = pupilIds.slice(0, targets.length).map((userId, i) => ({ chapterId, userId, institutionId: targets[i] }));
  if (registrations.length > 0) await db.insert(centerRegistrations).values(registrations).onConflictDoNothing();
  // One pupil of the second school who moved to the teacher's school after the chapter opened and
  // registered there as one of its own: the teacher's centre flags them, with « Refuser ».
  const claimant = pupilIds[targets.length];
  if (claimant) await registerClaimant(db, { chapterId, userId: claimant, own, second });
  // Decision 59: the pole centre recorded its attendance (one absent), and the registered pupils who
  // turned notifications on get their convocation by mail: the demo's outbox (DATA_DIR/outbox)
  // fills as soon as the app's mail worker starts.
  const polePupils = registrations.filter((r) => r.institutionId === pole).map((r) => r.userId);
  await recordAttendance(db, chapterId, polePupils);
  await sendConvocations(db, [...registrations, ...(claimant ? [{ chapterId, userId: claimant, institutionId: own }] : [])]);
}

interface DemoSchools {
  own: string;
  second: string;
  small: string;
  pole: string;
  refusing: string;
}

/** The five demo centres of the chapter. */
function demoCentres(chapterId: string, { own, second, small, pole, refusing }: DemoSchools): Array<typeof centers.$inferInsert> {
  // Decision 59: dates (Paris), addresses, rooms and what to bring; the others take the chapter's defaults.
  const sitting = demoSitting();
  return [
    {
      chapterId,
      institutionId: own,
      opened: true,
      nbPlaces: 20,
      instructions: 'Salle polyvalente, bâtiment B. Arrivée à 8 h 30, munissez-vous d’une pièce d’identité.',
      sittingAt: sitting,
      room: 'Salle polyvalente (bâtiment B)',
      bring: 'Pièce d’identité, stylos, règle, compas, rapporteur.',
    },
    {
      chapterId,
      institutionId: second,
      opened: true,
      nbPlaces: 5,
      instructions: 'Accueil au CDI à 9 h. Calculatrice interdite.',
      sittingAt: new Date(sitting.getTime() + 30 * 60_000),
      room: 'CDI',
    },
    { chapterId, institutionId: small, opened: true, nbPlaces: 1, instructions: 'Salle 12, rez-de-chaussée.', room: 'Salle 12' },
    {
      chapterId,
      institutionId: pole,
      opened: true,
      isPole: true,
      nbPlaces: 0,
      instructions: 'Centre pôle : amphithéâtre A, ouverture des portes à 8 h.',
      sittingAt: sitting,
      address: 'Campus des Cézeaux, 24 avenue Blaise-Pascal, 63170 Aubière',
      room: 'Amphithéâtre A',
    },
    { chapterId, institutionId: refusing, opened: false },
  ];
}

/** The centres, written over the ones a previous run left. */
async function upsertCentres(db: Db, rows: Array<typeof centers.$inferInsert>): Promise<void> {
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
        sittingAt: sql`excluded.sitting_at`,
        address: sql`excluded.address`,
        room: sql`excluded.room`,
        bring: sql`excluded.bring`,
      },
    });
}

/** A pupil who moved from the second school to the teacher's, registered at the teacher's centre. */
async function registerClaimant(
  db: Db,
  { chapterId, userId, own, second }: { chapterId: string; userId: string; own: string; second: string },
) {
  await db
    .update(users)
    .set({ institutionId: own, previousInstitutionId: second, institutionChangedAt: new Date() })
    .where(eq(users.id, userId));
  await db.insert(centerRegistrations).values({ chapterId, userId, institutionId: own }).onConflictDoNothing();
}

/** The pole centre's attendance: the first pupil absent, the others present. */
async function recordAttendance(db: Db, chapterId: string, polePupils: string[]): Promise<void> {
  for (const [i, userId] of polePupils.entries()) {
    await db
      .update(centerRegistrations)
      .set({ present: i > 0, attendanceAt: new Date() })
      .where(and(eq(centerRegistrations.chapterId, chapterId), eq(centerRegistrations.userId, userId)));
  }
}

/** Notifications turned on for the registered pupils, and their convocations queued. */
async function sendConvocations(db: Db, registered: Array<{ chapterId: string; userId: string; institutionId: string }>) {
  const notified = registered.map((r) => r.userId);
  if (notified.length > 0) await db.update(users).set({ emailNotifications: true }).where(inArray(users.id, notified));
  for (const r of registered) {
    await queueConvocation(db, { chapterId: r.chapterId, userId: r.userId, institutionId: r.institutionId, registeredMs: 0 });
  }
}

/** The demo sitting: ten days from now at 9 h, Paris time (UTC+1 or +2; 8 h UTC is 9 h or 10 h there). */
function demoSitting(): Date {
  const d = new Date(Date.now() + 10 * 86_400_000);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 8, 0));
}
