import type { Db } from './db/client.js';
import { groupMembers, HOME_SCHOOLING_ID, MEMBERS_GROUP_ID, TEACHERS_GROUP_ID, users } from './db/schema.js';

export const DEMO_PASSWORD = 'Olympe#2026';

export interface DemoAccount {
  email: string;
  role: string;
}

/** Demonstration data: one account of each role, and every capability's own part (added as they land). */
export async function seedDemo(db: Db, passwordHash: string): Promise<DemoAccount[]> {
  const [admin, member, teacher, pupil] = await db
    .insert(users)
    .values([
      { email: 'admin@olympe.demo', firstName: 'Alice', lastName: 'Administratrice', gender: 'female', isAdmin: true },
      { email: 'correcteur@olympe.demo', firstName: 'Bruno', lastName: 'Correcteur', gender: 'male' },
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
    ].map((u) => ({ ...u, passwordHash, institutionId: HOME_SCHOOLING_ID })))
    .returning({ id: users.id });
  await db.insert(groupMembers).values([
    { groupId: MEMBERS_GROUP_ID, userId: member.id },
    { groupId: TEACHERS_GROUP_ID, userId: teacher.id },
  ]);
  void admin;
  void pupil;
  return [
    { email: 'admin@olympe.demo', role: 'administrateur' },
    { email: 'correcteur@olympe.demo', role: 'correcteur' },
    { email: 'prof@olympe.demo', role: 'personnel scolaire' },
    { email: 'eleve@olympe.demo', role: 'élève (profil complet)' },
  ];
}
