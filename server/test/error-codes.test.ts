import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, chapters, exercises, MEMBERS_GROUP_ID, statementVersions } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, loginAs, PUPIL_PROFILE, type TestApp } from './helpers.js';

/**
 * Every error body is `{ message, code }` (decision 51): the French message unchanged, and a stable code
 * the web app can branch on, whichever path wrote the error.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('error bodies carry a stable code beside the message', () => {
  it('names the case from the status: unknown address, anonymous, wrong role, bad body, bad JSON', async () => {
    expect(await inject(t, { method: 'GET', url: '/api/nowhere' })).toMatchObject({
      status: 404,
      body: { message: 'Adresse inconnue.', code: 'not_found' },
    });
    expect(await inject(t, { method: 'GET', url: '/api/group' })).toMatchObject({
      status: 401,
      body: { message: 'Vous devez vous connecter.', code: 'unauthorized' },
    });
    const pupil = await loginAs(t, 'pupil');
    expect(await inject(t, { method: 'GET', url: `/api/group/${MEMBERS_GROUP_ID}`, headers: pupil })).toMatchObject({
      status: 403,
      body: { code: 'forbidden' },
    });
    const invalid = await inject(t, { method: 'POST', url: '/api/auth/login', payload: { email: 'x' } });
    expect(invalid).toMatchObject({ status: 400, body: { code: 'bad_request' } });
    expect(invalid.body.message).toMatch(/^Données invalides/);
    expect(
      await inject(t, { method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email":' }),
    ).toMatchObject({ status: 400, body: { message: 'Le corps de la requête n’est pas un JSON valide.', code: 'bad_request' } });
  });

  it('tells a refused token from a missing one', async () => {
    const res = await inject(t, { method: 'GET', url: '/api/group', headers: { authorization: 'Bearer garbage' } });
    expect(res).toMatchObject({
      status: 401,
      body: { message: 'Votre session a expiré ou n’est plus valide. Reconnectez-vous.', code: 'session_expired' },
    });
  });

  it('tells a finished test from any other refusal, on a save and on a start', async () => {
    const db = t.database.db;
    const hour = 3_600_000;
    const [chapter] = await db.insert(chapters).values({ title: 'Terminée' }).returning();
    await db.insert(accessGroups).values({
      chapterId: chapter.id,
      position: 0,
      accessStart: new Date(Date.now() - 2 * hour),
      accessEnd: new Date(Date.now() - hour),
    });
    const [exercise] = await db
      .insert(exercises)
      .values({ chapterId: chapter.id, position: 0, title: 'Somme', answerFormat: 'numeric' })
      .returning();
    await db.insert(statementVersions).values({ exerciseId: exercise.id, position: 0, content: 'Combien ?', answer: '12' });
    const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);

    const saved = await inject(t, {
      method: 'POST',
      url: '/api/answer',
      headers: pupil.headers,
      payload: { exerciseId: exercise.id, answer: '12', seq: 1 },
    });
    expect(saved).toMatchObject({ status: 403, body: { message: 'L’épreuve est terminée.', code: 'test_finished' } });
    const started = await inject(t, { method: 'POST', url: `/api/chapter/start/${chapter.id}`, headers: pupil.headers });
    expect(started).toMatchObject({ status: 403, body: { message: 'L’épreuve est terminée.', code: 'test_finished' } });
  });

  it('keeps the extra fields of an error a route writes itself, and adds the code', async () => {
    const admin = await loginAs(t, 'admin');
    const res = await inject(t, {
      method: 'PATCH',
      url: `/api/group/${MEMBERS_GROUP_ID}`,
      headers: admin,
      payload: { members: ['personne@exemple.fr'] },
    });
    expect(res).toMatchObject({ status: 400, body: { unknown: ['personne@exemple.fr'], code: 'bad_request' } });
  });
});
