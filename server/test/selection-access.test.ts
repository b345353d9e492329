import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, answers, centers, chapters, exercises, institutions, statementVersions } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';
import { insertSelection, insertVersion, type SelectionFixture } from './selection-fixtures.js';

/**
 * Decision 157: an access group may require « qualifié(e) dans la sélection S »; it admits only the pupils qualified
 * in the latest published version. A pupil added by version 2 is admitted at once; one removed keeps their answers.
 * A pupil reads their own qualification once published (GET /selection/mine), never another's.
 */

let t: TestApp;
let admin: Record<string, string>;
let school: string;
type Headers = Record<string, string>;
const hour = 3_600_000;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await createUser(t, 'admin')).headers;
  [{ id: school }] = await t.database.db.insert(institutions).values({ name: 'Collège Sophie Germain', confirmed: true }).returning();
});
afterAll(async () => t.close());

const pupil = (lastName: string) => createUser(t, 'pupil', { ...PUPIL_PROFILE, lastName, institutionId: school });
const get = (url: string, headers: Headers) => inject(t, { method: 'GET', url, headers });
const start = (chapterId: string, headers: Headers) => inject(t, { method: 'POST', url: `/api/chapter/start/${chapterId}`, headers });
const save = (headers: Headers, exerciseId: string, seq: number) =>
  inject(t, { method: 'POST', url: '/api/answer', headers, payload: { exerciseId, answer: String(seq), seq } });

/** The next round: a timed chapter (or a paper one) open now, whose only group requires the selection. */
async function nextRound(selection: SelectionFixture, fields: Partial<typeof chapters.$inferInsert> = {}) {
  const db = t.database.db;
  const [c] = await db
    .insert(chapters)
    .values({ title: 'Finale', ...fields })
    .returning();
  await db.insert(accessGroups).values({
    chapterId: c.id,
    position: 0,
    timeDuration: 60,
    accessStart: new Date(Date.now() - hour),
    accessEnd: new Date(Date.now() + hour),
    requiredSelectionId: selection.id,
  });
  const [e] = await db.insert(exercises).values({ chapterId: c.id, position: 0, title: 'Somme', answerFormat: 'numeric' }).returning();
  await db.insert(statementVersions).values({ exerciseId: e.id, position: 0, content: 'Combien ?', answer: '7' });
  return { chapterId: c.id, exerciseId: e.id };
}

const visible = async (headers: Headers) => ((await get('/api/chapter', headers)).body as Array<{ _id: string }>).map((c) => c._id);

describe('an access group requiring a selection', () => {
  it('opens the next round to the qualified only, follows a new version, and keeps a removed pupil’s answers', async () => {
    const [ada, bob] = [await pupil('Ada'), await pupil('Bob')];
    const s = await insertSelection(t, { publishAt: new Date(Date.now() - 60_000) });
    await insertVersion(t, s, 1, [
      { userId: ada.id, score: 15, categories: s.categories, qualifiedIn: s.categories },
      { userId: bob.id, score: 8, categories: s.categories, qualifiedIn: [] },
    ]);
    const round = await nextRound(s);

    expect(await visible(ada.headers)).toContain(round.chapterId);
    expect(await visible(bob.headers)).not.toContain(round.chapterId);
    expect((await start(round.chapterId, ada.headers)).status).toBe(200);
    expect((await save(ada.headers, round.exerciseId, 1)).status).toBe(200);
    // A second save takes the memoised decision: it must be re-checked once the list changes.
    expect((await save(ada.headers, round.exerciseId, 2)).status).toBe(200);
    const refused = await start(round.chapterId, bob.headers);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Vous n’avez pas accès à ce chapitre.');

    // Version 2: Bob added, Ada removed.
    await insertVersion(t, s, 2, [
      { userId: ada.id, score: 15, categories: s.categories, qualifiedIn: [] },
      { userId: bob.id, score: 8, categories: s.categories, qualifiedIn: s.categories },
    ]);
    expect(await visible(bob.headers)).toContain(round.chapterId);
    expect((await start(round.chapterId, bob.headers)).status).toBe(200);
    expect((await save(bob.headers, round.exerciseId, 1)).status).toBe(200);
    expect(await visible(ada.headers)).not.toContain(round.chapterId);
    expect((await save(ada.headers, round.exerciseId, 3)).status).toBe(403);
    const kept = await t.database.db
      .select()
      .from(answers)
      .where(and(eq(answers.userId, ada.id), eq(answers.exerciseId, round.exerciseId)));
    expect(kept.map((a) => a.answer).sort()).toEqual(['1', '2']);
  });

  it('admits nobody while the selection is not published, and staff still see the chapter', async () => {
    const ada = await pupil('Ada');
    const s = await insertSelection(t, { publishAt: new Date(Date.now() + hour) });
    await insertVersion(t, s, 1, [{ userId: ada.id, score: 15, categories: s.categories, qualifiedIn: s.categories }]);
    const round = await nextRound(s);
    expect(await visible(ada.headers)).not.toContain(round.chapterId);
    expect((await start(round.chapterId, ada.headers)).status).toBe(403);
    expect(await visible(admin)).toContain(round.chapterId);
    await t.database.db.execute(`UPDATE selections SET publish_at = now() - interval '1 minute' WHERE id = '${s.id}'`);
    expect((await start(round.chapterId, ada.headers)).status).toBe(200);
  });

  it('refuses a centre registration to a pupil the required selection does not admit', async () => {
    const [ada, bob] = [await pupil('Ada'), await pupil('Bob')];
    const s = await insertSelection(t, { publishAt: new Date(Date.now() - 60_000) });
    await insertVersion(t, s, 1, [
      { userId: ada.id, score: 15, categories: s.categories, qualifiedIn: s.categories },
      { userId: bob.id, score: 8, categories: s.categories, qualifiedIn: [] },
    ]);
    const round = await nextRound(s, { title: 'Finale sur papier', offline: true });
    await t.database.db.insert(centers).values({ chapterId: round.chapterId, institutionId: school, opened: true, nbPlaces: 10 });
    const register = (headers: Headers) =>
      inject(t, { method: 'PATCH', url: `/api/center/user/${round.chapterId}`, headers, payload: { institution: school } });
    const refused = await register(bob.headers);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/accès/);
    expect((await register(ada.headers)).status).toBe(200);
    const overview = await get(`/api/center/overview/${round.chapterId}`, admin);
    expect(overview.status).toBe(200);
  });

  it('saves and shows the required selection of a group, and refuses an unknown one', async () => {
    const s = await insertSelection(t);
    const [c] = await t.database.db.insert(chapters).values({ title: 'Finale' }).returning();
    const patch = (requiredSelectionId: string | null) =>
      inject(t, {
        method: 'PATCH',
        url: `/api/chapter/${c.id}`,
        headers: admin,
        payload: { groups: [{ name: 'qualifiés', requiredSelectionId }] },
      });
    expect((await patch(s.id)).status).toBe(200);
    expect((await get(`/api/chapter/${c.id}`, admin)).body.groups[0].requiredSelectionId).toBe(s.id);
    const unknown = await patch('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/Sélection introuvable/);
    expect((await get(`/api/chapter/${c.id}`, admin)).body.groups[0].requiredSelectionId).toBe(s.id);
    expect((await patch(null)).status).toBe(200);
    expect((await get(`/api/chapter/${c.id}`, admin)).body.groups[0].requiredSelectionId).toBeNull();
  });
});

describe('GET /selection/mine', () => {
  it('shows a pupil their own line once published: status, category, cut-off, score; never another pupil’s', async () => {
    const [ada, bob, eve] = [await pupil('Ada'), await pupil('Bob'), await pupil('Eve')];
    const s = await insertSelection(t, { publishAt: new Date(Date.now() + hour) }, [
      { name: 'Collège filles', cutoff: 12 },
      { name: 'Collège', cutoff: 14 },
    ]);
    const [girls, all] = s.categories;
    await insertVersion(
      t,
      s,
      1,
      [
        { userId: ada.id, score: 13, categories: [girls, all], qualifiedIn: [girls] },
        { userId: bob.id, score: 9.5, categories: [all], qualifiedIn: [] },
      ],
      { cutoffs: [12, 14], names: ['Collège filles', 'Collège'] },
    );
    expect((await get('/api/selection/mine', ada.headers)).body).toEqual([]);
    expect((await get('/api/selection/mine', {})).status).toBe(401);

    await t.database.db.execute(`UPDATE selections SET publish_at = now() - interval '1 minute' WHERE id = '${s.id}'`);
    const own = await get('/api/selection/mine', ada.headers);
    expect(own.status).toBe(200);
    expect(own.body).toEqual([
      {
        selectionId: s.id,
        title: 'Sélection 2027',
        qualified: true,
        category: 'Collège filles',
        cutoff: 12,
        score: 13,
        nextRoundTitle: 'la finale nationale',
        nextRoundDate: '2027-03-13',
        nextRoundPlace: 'Lycée Louis-le-Grand, Paris',
      },
    ]);
    expect(JSON.stringify(own.body)).not.toContain(bob.id);
    const bobs = (await get('/api/selection/mine', bob.headers)).body;
    expect(bobs).toMatchObject([{ qualified: false, category: 'Collège', cutoff: 14, score: 9.5 }]);
    expect((await get('/api/selection/mine', eve.headers)).body).toEqual([]);
  });
});
