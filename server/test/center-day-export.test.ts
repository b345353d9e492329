import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centerRegistrations, centers, chapters, institutions } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';
import { readBackWithLibreOffice } from './libreoffice.js';
type Headers = Record<string, string>;

/** Decision 81: the admins' exam-day table per centre as XLSX. */
describe('exam-day table per centre as XLSX (admins)', () => {
  let t: TestApp;
  let chapterId: string;
  let admin: { headers: Headers };
  let url: string;
  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.database.db;
    const [risky, noether] = await db
      .insert(institutions)
      .values([
        { name: '=cmd|’/C calc’!A0', address: '1 rue des Piles', latitude: 45, longitude: 3, confirmed: true },
        { name: 'Collège Emmy Noether', address: '2 rue des Anneaux', latitude: 45, longitude: 3, confirmed: true },
      ])
      .returning();
    [{ id: chapterId }] = await db.insert(chapters).values({ title: 'Coupe papier', offline: true }).returning();
    url = `/api/center/overview/${chapterId}/centres.xlsx`;
    await db.insert(centers).values({ chapterId, institutionId: noether.id, opened: true, nbPlaces: 10 });
    const pupils = await Promise.all(
      [0, 1, 2].map((i) => createUser(t, 'pupil', { ...PUPIL_PROFILE, email: `eleve${i}@exemple.fr`, institutionId: noether.id })),
    );
    await db.insert(centerRegistrations).values([
      { chapterId, userId: pupils[0].id, institutionId: noether.id, present: true },
      { chapterId, userId: pupils[1].id, institutionId: noether.id, present: false },
      { chapterId, userId: pupils[2].id, institutionId: risky.id },
    ]);
    admin = await createUser(t, 'admin');
  });
  afterAll(async () => t.close());

  it('is for admins only: 401 anonymous, 403 pupil, teacher and corrector', async () => {
    expect((await inject(t, { method: 'GET', url })).status).toBe(401);
    for (const role of ['pupil', 'teacher', 'member'] as const) {
      const caller = await createUser(t, role);
      const res = await inject(t, { method: 'GET', url, headers: caller.headers });
      expect(res.status).toBe(403);
    }
    const bad = await inject(t, { method: 'GET', url: '/api/center/overview/pas-un-id/centres.xlsx', headers: admin.headers });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/Identifiant de chapitre invalide/);
  });

  it('has French headers, counts as numbers, the centres in French order', async () => {
    const res = await t.app.inject({ method: 'GET', url, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/centres_Coupe papier\.xlsx/);
    const sheet = await readSheet(res.rawPayload);
    expect(sheet[0]).toEqual(['Centre', 'Inscrits', 'Présents', 'Absents', 'Copies reçues', 'Pages triées', 'À relancer']);
    expect(sheet.slice(1)).toEqual([
      ['=cmd|’/C calc’!A0', 1, 0, 0, 0, 0, 'n’a pas répondu, aucune copie déposée, présences non saisies'],
      ['Collège Emmy Noether', 2, 1, 1, 0, 0, 'aucune copie déposée'],
    ]);
  });

  it('opens in LibreOffice with numbers as numbers and the formula-looking centre name as text', async () => {
    const res = await t.app.inject({ method: 'GET', url, headers: admin.headers });
    const fods = await readBackWithLibreOffice(res.rawPayload);
    expect(fods).toMatch(/office:value-type="string"[^>]*>\s*<text:p>Copies reçues<\/text:p>/);
    expect(fods).toMatch(/office:value-type="float" office:value="2"/);
    expect(fods).toMatch(/office:value-type="string"[^>]*>\s*<text:p>=cmd\|’\/C calc’!A0<\/text:p>/);
    expect(fods).not.toMatch(/table:formula/);
  }, 120_000);
});
