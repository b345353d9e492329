import { eq } from 'drizzle-orm';
import { seedCentersDemo } from './centers/demo.js';
import { seedBinDemo, seedChaptersDemo } from './chapters/demo.js';
import { seedAnalysisDemo } from './analysis/demo.js';
import type { Db } from './db/client.js';
import type { FileStore } from './files/store.js';
import { seedResultsDemo } from './results/demo.js';
import { seedSortingDemo } from './sorting/demo.js';
import { groupMembers, MEMBERS_GROUP_ID, sessionExtensions, TEACHERS_GROUP_ID, users } from './db/schema.js';
import { seedAnnotationsDemo } from './grading/annotations-demo.js';
import { seedDoubleGradingDemo, seedGradingDemo } from './grading/demo.js';
import { seedGroupsDemo } from './groups/demo.js';
import { seedInstitutionsDemo } from './institutions/demo.js';
import { seedAnswersDemo } from './sessions/demo.js';
import { seedRegradeDemo } from './regrade/demo.js';
import { seedSelectionsDemo } from './selections/demo.js';

export const DEMO_PASSWORD = 'Olympe#2026';

export interface DemoAccount {
  email: string;
  role: string;
}

const FIRST_NAMES = ['Léa', 'Hugo', 'Chloé', 'Louis', 'Inès', 'Jules', 'Zoé', 'Gabriel', 'Manon', 'Noé', 'Jade', 'Raphaël'];
const LAST_NAMES = ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Simon', 'Laurent', 'Lefèvre'];
const GRADES = ['4eme', '3eme', '2nde', '1ere'] as const;

/** The five accounts of the roles (admin, two correctors, school staff, the demo pupil), all at the first school. */
async function seedRoleAccounts(db: Db, passwordHash: string, school: string) {
  const [admin, member, member2, teacher, pupil] = await db
    .insert(users)
    .values(
      [
        { email: 'admin@olympe.demo', firstName: 'Alice', lastName: 'Administratrice', gender: 'female', isAdmin: true },
        { email: 'correcteur@olympe.demo', firstName: 'Bruno', lastName: 'Correcteur', gender: 'male' },
        { email: 'correcteur2@olympe.demo', firstName: 'Camille', lastName: 'Seconde-Correctrice', gender: 'female' },
        { email: 'prof@olympe.demo', firstName: 'Claire', lastName: 'Professeure', gender: 'female' },
        {
          email: 'eleve@olympe.demo',
          firstName: 'Élise',
          lastName: 'Élève',
          gender: 'female',
          grade: '3eme',
          birthDate: '2011-05-14',
          defaultChoice: 'local',
          emailParent: 'parent@olympe.demo',
        },
      ].map((u) => ({ ...u, passwordHash, institutionId: school })),
    )
    .returning({ id: users.id });
  await db.insert(groupMembers).values([
    { groupId: MEMBERS_GROUP_ID, userId: member.id },
    { groupId: MEMBERS_GROUP_ID, userId: member2.id },
    { groupId: TEACHERS_GROUP_ID, userId: teacher.id },
  ]);
  return { admin, member, member2, teacher, pupil };
}

/** 24 more pupils with complete profiles, spread over the first five schools. */
async function seedPupils(db: Db, passwordHash: string, schoolIds: string[]): Promise<string[]> {
  const pupils = await db
    .insert(users)
    .values(
      Array.from({ length: 24 }, (_, i) => ({
        email: `eleve${String(i + 1).padStart(2, '0')}@olympe.demo`,
        passwordHash,
        firstName: FIRST_NAMES[i % FIRST_NAMES.length],
        lastName: LAST_NAMES[(i * 5) % LAST_NAMES.length],
        gender: i % 2 === 0 ? 'female' : 'male',
        grade: GRADES[i % GRADES.length],
        birthDate: `${2009 + (i % 4)}-0${1 + (i % 9)}-1${i % 10}`,
        defaultChoice: i % 3 === 0 ? 'global' : 'local',
        emailParent: `parent${i + 1}@olympe.demo`,
        institutionId: schoolIds[i % 5],
      })),
    )
    .returning({ id: users.id });
  return pupils.map((p) => p.id);
}

/** Extra time (tiers-temps) for one pupil, and an incident extension on the timed chapter (/live). */
async function seedAllowances(db: Db, input: { timedId: string; pupilIds: string[]; adminId: string }): Promise<void> {
  const { pupilIds } = input;
  await db.update(users).set({ extraTimePercent: 33 }).where(eq(users.id, pupilIds[0]));
  await db.insert(sessionExtensions).values({
    chapterId: input.timedId,
    userId: pupilIds[pupilIds.length - 1],
    minutes: 10,
    reason: 'Ordinateur bloqué pendant 8 minutes (salle 3)',
    createdBy: input.adminId,
  });
}

const DEMO_ACCOUNTS: DemoAccount[] = [
  { email: 'admin@olympe.demo', role: 'administrateur' },
  { email: 'correcteur@olympe.demo', role: 'correcteur, membre du jury de la « Sélection pour le tour 2 » (décision)' },
  { email: 'correcteur2@olympe.demo', role: 'correctrice (double correction anonyme de l’épreuve papier)' },
  { email: 'prof@olympe.demo', role: 'personnel scolaire' },
  { email: 'eleve@olympe.demo', role: 'élève (profil complet)' },
  { email: 'eleve01@olympe.demo', role: 'élève avec un tiers-temps (33 %)' },
  { email: 'eleve02@olympe.demo … eleve24@olympe.demo', role: 'autres élèves' },
];

/**
 * Demonstration data: one account of each role, 24 more pupils with complete profiles, schools,
 * a group, and the chapters (online timed, training, paper). Each capability adds its part here.
 */
export async function seedDemo(db: Db, store: FileStore, passwordHash: string): Promise<DemoAccount[]> {
  const schoolIds = await seedInstitutionsDemo(db);
  const { admin, member, member2, teacher, pupil } = await seedRoleAccounts(db, passwordHash, schoolIds[0]);
  const pupilIds = await seedPupils(db, passwordHash, schoolIds);
  await seedGroupsDemo(db, [pupil.id, ...pupilIds.slice(0, 8)]);
  const chapters = await seedChaptersDemo(db);
  // Answers on the training chapter (untimed), some graded, so the grading screens show every cell kind.
  await seedAnswersDemo(db, { pupilIds, chapterId: chapters.trainingId });
  await seedGradingDemo(db, { chapterId: chapters.trainingId, graderId: member.id });
  await seedCentersDemo(db, { chapterId: chapters.paperId, institutionIds: schoolIds, teacherId: teacher.id, pupilIds });
  // Two scanned copies waiting in "Triage", and focus/blur traces for "Analyse de la triche".
  await seedSortingDemo(db, store, { chapterId: chapters.paperId, uploadedBy: member.id });
  // Decision 63: the paper chapter graded blind and twice, out of 7, one copy awaiting arbitration.
  await seedDoubleGradingDemo(db, store, {
    chapterId: chapters.paperId,
    exerciseIds: chapters.exerciseIds.paper,
    pupilIds: pupilIds.slice(0, 6),
    correctorIds: [member.id, member2.id],
  });
  // Decisions 159–160: marks on those copies, and each paper exercise's comment bank.
  await seedAnnotationsDemo(db, chapters.exerciseIds.paper);
  await seedAnalysisDemo(db, { chapterId: chapters.timedId, pupilIds: pupilIds.slice(-8) });
  // Decision 70: a published final with rank, percentile and a threshold, the demo pupil's card and certificate.
  await seedResultsDemo(db, {
    pupilIds: [...new Set([pupil.id, ...pupilIds.filter((_, i) => i % 5 === 0), ...pupilIds.slice(1, 6)])],
    graderId: member.id,
  });
  await seedAllowances(db, { timedId: chapters.timedId, pupilIds, adminId: admin.id });
  // Decisions 73–75: a published chapter with statistics, an errata candidate and a pending regrade request; one chapter in the bin.
  await seedRegradeDemo(db, { pupilId: pupil.id, pupilIds, graderId: member.id });
  await seedBinDemo(db);
  // Decisions 155–158: Tour 1 taken by 300 pupils, the draft selection for Tour 2 and its jury, Tour 2 for the qualified.
  await seedSelectionsDemo(db, { pupilIds: [pupil.id, ...pupilIds], schoolIds, graderId: member.id, juryMemberId: member.id });
  return DEMO_ACCOUNTS;
}
