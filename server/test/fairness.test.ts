import { PDFDocument } from '@cantoo/pdf-lib';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessGroups,
  answers,
  auditLog,
  centers,
  chapters,
  exercises,
  files,
  institutions,
  statementVersions,
  users,
} from '../src/db/schema.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';
import { multipart } from './ops-helpers.js';

/**
 * Fair against those who try: a pupil or a teacher acting on their own account cannot gain rights,
 * time or another pupil's place by editing what they may edit (their profile), nor write over a
 * paper copy, nor read a timed statement before their clock runs.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

type Headers = Record<string, string>;
const db = () => t.database.db;
const putMe = (headers: Headers, payload: Record<string, unknown>) => inject(t, { method: 'PUT', url: '/api/auth/me', headers, payload });

async function school(name: string) {
  const [row] = await db().insert(institutions).values({ name, confirmed: true }).returning({ id: institutions.id });
  return row.id;
}

async function timedChapter(groups: Array<Partial<typeof accessGroups.$inferInsert>>, fields: Partial<typeof chapters.$inferInsert> = {}) {
  const [chapter] = await db()
    .insert(chapters)
    .values({ title: 'Tour chronométré', ...fields })
    .returning();
  await db()
    .insert(accessGroups)
    .values(groups.map((g, position) => ({ chapterId: chapter.id, position, ...g })));
  const [exercise] = await db()
    .insert(exercises)
    .values({ chapterId: chapter.id, position: 0, title: 'Somme', answerFormat: fields.offline ? 'pdf' : 'numeric' })
    .returning();
  await db()
    .insert(statementVersions)
    .values({ exerciseId: exercise.id, position: 0, content: 'Énoncé secret : combien font 6 × 7 ?', answer: '42' });
  return { chapterId: chapter.id, exerciseId: exercise.id };
}

describe('a teacher cannot become staff of another school by editing their profile', () => {
  it('refuses the change with a French message and keeps every right where it was', async () => {
    const a = await school('Collège A');
    const b = await school('Collège B');
    const teacher = await createUser(t, 'teacher', { ...PUPIL_PROFILE, institutionId: a });
    const res = await putMe(teacher.headers, { institution: b });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/demandez à un administrateur/);
    const [row] = await db().select({ institutionId: users.institutionId }).from(users).where(eq(users.id, teacher.id));
    expect(row.institutionId).toBe(a);
    // B's centre stays out of reach.
    const { chapterId } = await timedChapter([{}], { offline: true });
    const centre = await inject(t, { method: 'GET', url: `/api/center/${chapterId}?institution=${b}`, headers: teacher.headers });
    expect(centre.status).toBe(403);
  });

  it('lets the same teacher save the rest of the profile with the school unchanged', async () => {
    const a = await school('Collège A2');
    const teacher = await createUser(t, 'teacher', { ...PUPIL_PROFILE, institutionId: a });
    const res = await putMe(teacher.headers, { institution: a, firstName: 'Émilie' });
    expect(res.status).toBe(200);
    expect(res.body.firstName).toBe('Émilie');
  });

  it('still lets a pupil change school, and remembers the move for the centres', async () => {
    const a = await school('Lycée A');
    const b = await school('Lycée B');
    const pupil = await createUser(t, 'pupil', { ...PUPIL_PROFILE, institutionId: a });
    expect((await putMe(pupil.headers, { institution: b })).status).toBe(200);
    const [row] = await db().select().from(users).where(eq(users.id, pupil.id));
    expect(row).toMatchObject({ institutionId: b, previousInstitutionId: a });
    expect(row.institutionChangedAt).toBeInstanceOf(Date);
  });
});

describe('a pupil cannot leave the time limit by changing grade', () => {
  const groups = [
    { authorizedGrades: ['3eme'], timeDuration: 30 },
    { authorizedGrades: ['2nde'], timeDuration: null },
  ];

  it('refuses a change of grade, gender, birth date or school while the timed session runs (409)', async () => {
    const { chapterId } = await timedChapter(groups);
    const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
    expect((await inject(t, { method: 'POST', url: `/api/chapter/start/${chapterId}`, headers: pupil.headers })).status).toBe(200);
    for (const change of [{ grade: '2nde' }, { gender: 'male' }, { birthDate: '2009-01-01' }, { institution: await school('Ailleurs') }]) {
      const res = await putMe(pupil.headers, change);
      expect(res.status, JSON.stringify(change)).toBe(409);
      expect(res.body.message).toMatch(/épreuve en temps limité est en cours/);
    }
    // Other fields still save, and an unchanged grade is no change.
    expect((await putMe(pupil.headers, { firstName: 'Ada', grade: '3eme' })).status).toBe(200);
    const state = await inject(t, { method: 'GET', url: `/api/chapter/start/${chapterId}`, headers: pupil.headers });
    expect(state.body).toMatchObject({ status: 'started', timed: true });
    expect(state.body.remainingTime).toBeGreaterThan(29 * 60);
  });

  it('keeps the deadline of the group the session started under, even if the profile changes behind the API', async () => {
    const { chapterId } = await timedChapter(groups);
    const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
    await inject(t, { method: 'POST', url: `/api/chapter/start/${chapterId}`, headers: pupil.headers });
    // However the grade came to change (an admin's fix, an old session), the running session keeps its group.
    await db().update(users).set({ grade: '2nde' }).where(eq(users.id, pupil.id));
    const state = await inject(t, { method: 'GET', url: `/api/chapter/start/${chapterId}`, headers: pupil.headers });
    expect(state.body).toMatchObject({ status: 'started', timed: true });
    expect(state.body.deadline).not.toBeNull();
  });
});

describe('a pupil cannot write over a paper copy', () => {
  async function paperSetup() {
    const { chapterId, exerciseId } = await timedChapter([{}], { offline: true });
    const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
    const doc = await PDFDocument.create();
    doc.addPage();
    const bytes = Buffer.from(await doc.save());
    return { chapterId, exerciseId, pupil, bytes };
  }

  it('refuses a PDF upload for a paper chapter’s exercise (403, nothing stored)', async () => {
    const { exerciseId, pupil, bytes } = await paperSetup();
    const before = (await db().select({ id: files.id }).from(files)).length;
    const { payload, headers } = multipart({ exercise: exerciseId }, { name: 'copie.pdf', bytes });
    const res = await inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...pupil.headers, ...headers }, payload });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/centre d’examen/);
    expect((await db().select({ id: files.id }).from(files)).length).toBe(before);
  });

  it('refuses POST /answer on a paper chapter, even with a file the pupil owns', async () => {
    const { exerciseId, pupil } = await paperSetup();
    const [file] = await db()
      .insert(files)
      .values({ ownerId: pupil.id, originalName: 'copie.pdf', size: 10, pages: 1 })
      .returning({ id: files.id });
    const res = await inject(t, {
      method: 'POST',
      url: '/api/answer',
      headers: pupil.headers,
      payload: { exerciseId, answer: `pdfs/${file.id}.pdf`, seq: 1 },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/centre d’examen/);
    expect(
      await db()
        .select()
        .from(answers)
        .where(and(eq(answers.userId, pupil.id), eq(answers.exerciseId, exerciseId))),
    ).toEqual([]);
  });
});

describe('a timed statement is never read before the clock runs', () => {
  it('GET /exos/{id} follows the chapter page: 403 before start, the statement once started', async () => {
    const { chapterId, exerciseId } = await timedChapter([{ timeDuration: 30 }]);
    const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
    const before = await inject(t, { method: 'GET', url: `/api/exos/${exerciseId}`, headers: pupil.headers });
    expect(before.status).toBe(403);
    expect(JSON.stringify(before.body)).not.toContain('Énoncé secret');
    await inject(t, { method: 'POST', url: `/api/chapter/start/${chapterId}`, headers: pupil.headers });
    const after = await inject(t, { method: 'GET', url: `/api/exos/${exerciseId}`, headers: pupil.headers });
    expect(after.status).toBe(200);
    expect(JSON.stringify(after.body)).toContain('Énoncé secret');
    expect(after.body.statement).toBe('Énoncé secret : combien font 6 × 7 ?');
    expect(Object.values(after.body)).not.toContain('42');
  });
});

describe('a pupil cannot pass a full centre by claiming its school', () => {
  it('shows the centre who moved to its school, lets it turn them away, and tells the pupil', async () => {
    const centreSchool = await school('Collège du centre');
    const home = await school('Collège d’origine');
    const { chapterId } = await timedChapter([{}], { offline: true });
    await db().insert(centers).values({ chapterId, institutionId: centreSchool, opened: true, nbPlaces: 1 });
    const teacher = await createUser(t, 'teacher', { ...PUPIL_PROFILE, institutionId: centreSchool });
    const outsider = await createUser(t, 'pupil', { ...PUPIL_PROFILE, institutionId: home });
    const claimant = await createUser(t, 'pupil', { ...PUPIL_PROFILE, institutionId: home });
    const register = (headers: Headers) =>
      inject(t, { method: 'PATCH', url: `/api/center/user/${chapterId}`, headers, payload: { institution: centreSchool } });

    expect((await register(outsider.headers)).status).toBe(200);
    expect((await register(claimant.headers)).status).toBe(409); // full for pupils of other schools
    expect((await putMe(claimant.headers, { institution: centreSchool })).status).toBe(200);
    expect((await register(claimant.headers)).status).toBe(200); // the claim makes them fit

    const centre = await inject(t, { method: 'GET', url: `/api/center/${chapterId}`, headers: teacher.headers });
    const listed = centre.body.members.find((m: { _id: string }) => m._id === claimant.id);
    expect(listed.schoolChange).toMatchObject({ previous: { _id: home, name: 'Collège d’origine' } });
    expect(centre.body.members.find((m: { _id: string }) => m._id === outsider.id).schoolChange).toBeUndefined();

    // Pupils of other schools hold the places the centre opened: they cannot be turned away.
    const refuse = (user: string) =>
      inject(t, { method: 'POST', url: `/api/center/refuse/${chapterId}`, headers: teacher.headers, payload: { user } });
    expect((await refuse(outsider.id)).status).toBe(400);
    const refused = await refuse(claimant.id);
    expect(refused.status).toBe(200);
    expect(refused.body.message).toMatch(/Inscription refusée/);

    const panel = await inject(t, { method: 'GET', url: `/api/center/user/${chapterId}`, headers: claimant.headers });
    expect(panel.body).toMatchObject({ registration: null, refusals: [{ institution: { _id: centreSchool } }] });
    const again = await register(claimant.headers);
    expect(again.status).toBe(403);
    expect(again.body.message).toMatch(/choisissez un autre centre/);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'center.refuse'), eq(auditLog.targetId, claimant.id)));
    expect(audit).toMatchObject({ actorId: teacher.id });
  });
});

describe('a school proposed by someone else stays theirs until an admin confirms it', () => {
  it('refuses it in PUT /auth/me as if it did not exist, and accepts one’s own proposal', async () => {
    const author = await createUser(t, 'pupil', PUPIL_PROFILE);
    const other = await createUser(t, 'pupil', PUPIL_PROFILE);
    const [pending] = await db()
      .insert(institutions)
      .values({ name: 'Collège proposé', createdBy: author.id })
      .returning({ id: institutions.id });
    const res = await putMe(other.headers, { institution: pending.id });
    expect(res).toMatchObject({ status: 400, body: { message: 'Cet établissement n’existe pas.' } });
    expect((await putMe(author.headers, { institution: pending.id })).status).toBe(200);
  });
});
