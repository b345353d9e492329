import { readFileSync } from 'node:fs';
import { expect as baseExpect, test, type APIRequestContext } from '@playwright/test';
import {
  addToGroup,
  adminHeaders,
  adminPage,
  apiAccount,
  columnHeaders,
  expectAccessible,
  expectNotCutAtBothWidths,
  loginByApi,
  ok,
  pupilProfile,
  screenshot,
  tag,
  TEACHERS_GROUP_ID,
} from './fixtures.js';

type Headers = Record<string, string>;
const expect = baseExpect.configure({ timeout: 15_000 });

async function school(request: APIRequestContext, admin: Headers, name: string) {
  const created = await ok<{ institution: { _id: string } }>(
    await request.post('/api/institution', {
      headers: admin,
      data: { name, address: `3 rue des Mathématiques, ${name}`, latitude: 45.76, longitude: 4.83, confirmed: true },
    }),
  );
  return { id: created.institution._id, name };
}

/** The exam day (decision 59): each journey builds its own paper chapter, centre and people through the API. */
test.describe('Jour de l’épreuve dans un centre papier', () => {
  let admin: Headers;
  let chapterId: string;
  let centre: { id: string; name: string };
  let teacher: { email: string; headers: Headers };
  let t: string;

  test.beforeEach(async ({ request, page }) => {
    admin = await adminHeaders(request);
    t = tag();
    centre = await school(request, admin, `Collège Noether ${t}`);
    chapterId = (
      await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title: `Coupe papier ${t}`, offline: true } }))
    )._id;
    await ok(await request.patch(`/api/chapter/${chapterId}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
    teacher = await apiAccount(request, 'prof-jour', {
      firstName: 'Emmy',
      lastName: `Noether ${t}`,
      gender: 'female',
      institution: centre.id,
    });
    await addToGroup(request, admin, TEACHERS_GROUP_ID, teacher.email);
    await ok(
      await request.patch(`/api/center/${chapterId}`, {
        headers: teacher.headers,
        data: { opened: true, nb_places: 10, sittingAt: '2027-03-12T09:30', room: 'Salle 12', bring: 'Stylo, règle et compas' },
      }),
    );
    await page.route(
      (url) => url.hostname !== 'localhost',
      (route) => route.abort(),
    );
  });
  test.afterEach(async ({ request }) => {
    await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
  });

  test('[ÉLÈVE] s’inscrit après confirmation et télécharge sa convocation', async ({ page, request }) => {
    test.setTimeout(240_000);
    const pupil = await apiAccount(
      request,
      'eleve-jour',
      pupilProfile({ firstName: 'Ada', lastName: `Lovelace ${t}`, institution: centre.id }),
    );
    await loginByApi(page, pupil.email);
    await page.goto(`/chapter/${chapterId}`);
    // A click on the marker only opens its popup, with the details and a button.
    await page.getByRole('button', { name: new RegExp(`^${centre.name}\\s: Centre ouvert`) }).click();
    const popup = page.locator('.center-popup');
    await expect(popup).toContainText('Salle 12');
    await popup.getByRole('button', { name: 'Choisir ce centre' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirmer votre centre d’examen' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(centre.name);
    await expect(dialog).toContainText('12 mars 2027 à 9 h 30');
    await expect(dialog).toContainText('Salle 12');
    await expectAccessible(page, '/chapter/{id} (confirmation du centre)');
    // Nothing is registered before the confirmation.
    expect(
      (await ok<{ registration: unknown }>(await request.get(`/api/center/user/${chapterId}`, { headers: pupil.headers }))).registration,
    ).toBeNull();
    await dialog.getByRole('button', { name: 'Confirmer l’inscription' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Stylo, règle et compas')).toBeVisible();
    await expectAccessible(page, '/chapter/{id} (centre choisi, convocation)');
    await page.screenshot({ path: screenshot('exam-day-pupil-1280.png'), fullPage: true });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Télécharger ma convocation' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('convocation.pdf');
    expect(
      readFileSync(await download.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  test('[ENSEIGNANT] imprime la feuille d’émargement et note les absents ; [ADMIN] voit le tableau des centres', async ({
    page,
    request,
  }) => {
    test.setTimeout(240_000);
    const pupils = [];
    for (const name of ['Agnesi', 'Bernoulli']) {
      const p = await apiAccount(
        request,
        'eleve-jour',
        pupilProfile({ firstName: 'Maria', lastName: `${name} ${t}`, institution: centre.id }),
      );
      await ok(await request.patch(`/api/center/user/${chapterId}`, { headers: p.headers, data: { institution: centre.id } }));
      pupils.push(p);
    }
    await loginByApi(page, teacher.email);
    await page.goto(`/centre/${chapterId}`);
    await expect(page.getByRole('heading', { level: 1, name: `Jour de l’épreuve : ${centre.name}` })).toBeVisible();
    await expect(page.getByText(/2 inscrits, dont 0 extérieur pour 10 places/)).toBeVisible();
    await expectAccessible(page, '/centre/{id}');
    const [sheet] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Feuille d’émargement (PDF)' }).click(),
    ]);
    expect(
      readFileSync(await sheet.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await page.getByRole('checkbox', { name: `Présent : Maria Agnesi ${t}` }).check();
    await page.getByRole('button', { name: 'Enregistrer les présences' }).click();
    await expect(page.getByText('Présences enregistrées (2 élèves)').last()).toBeVisible();
    const saved = await ok<{ stats: { present: number; absent: number } }>(
      await request.get(`/api/center/${chapterId}`, { headers: teacher.headers }),
    );
    expect(saved.stats).toMatchObject({ present: 1, absent: 1 });
    await page.screenshot({ path: screenshot('exam-day-teacher-1280.png'), fullPage: true });

    await adminPage(page);
    await page.goto(`/registrations/${chapterId}`);
    const table = page.getByRole('table', { name: 'Jour de l’épreuve par centre' });
    const row = table.getByRole('row', { name: new RegExp(centre.name) });
    await expect(row).toContainText('aucune copie déposée');
    await expect(row.getByRole('cell').nth(1)).toHaveText('2');
    await expect(row.getByRole('cell').nth(2)).toHaveText('1');
    await expect(row.getByRole('cell').nth(3)).toHaveText('1');
    // The same table as files: the CSV written by the page, the XLSX served to admins.
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Tableau des centres (CSV)' }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/^centres_Coupe papier .*\.csv$/);
    const csvText = readFileSync(await csv.path(), 'utf8');
    expect(csvText).toContain('"Centre";"Inscrits";"Présents";"Absents";"Copies reçues";"Pages triées";"À relancer"');
    expect(csvText).toContain(`"${centre.name}";"2";"1";"1";"0";"0"`);
    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Tableau des centres (XLSX)' }).click(),
    ]);
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    expect(
      readFileSync(await xlsx.path())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
    await expectAccessible(page, '/registrations/{id} (jour de l’épreuve)');
    await expectNotCutAtBothWidths(page, '/registrations/{id} (jour de l’épreuve)', [
      ['« Tableau des centres (CSV) »', page.getByRole('button', { name: 'Tableau des centres (CSV)' })],
      ['« Tableau des centres (XLSX) »', page.getByRole('button', { name: 'Tableau des centres (XLSX)' })],
      ...(await columnHeaders(table)),
    ]);
  });
});
