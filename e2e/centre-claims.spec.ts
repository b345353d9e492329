import { expect as baseExpect, test, type APIRequestContext } from '@playwright/test';
import {
  addToGroup,
  adminHeaders,
  apiAccount,
  expectAccessible,
  loginByApi,
  ok,
  pupilProfile,
  screenshot,
  tag,
  TEACHERS_GROUP_ID,
} from './fixtures.js';

type Headers = Record<string, string>;
const expect = baseExpect.configure({ timeout: 10_000 });

async function school(request: APIRequestContext, admin: Headers, name: string) {
  const created = await ok<{ institution: { _id: string } }>(
    await request.post('/api/institution', {
      headers: admin,
      data: { name, address: `1 rue de l’École, ${name}`, latitude: 47.2, longitude: -1.55, confirmed: true },
    }),
  );
  return { id: created.institution._id, name };
}

test.describe('Centres : une place prise en se déclarant de l’établissement', () => {
  test('[ENSEIGNANT, ÉLÈVE] voit qui a changé d’établissement, refuse son inscription ; l’élève est prévenu et ne peut plus s’y inscrire', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const admin = await adminHeaders(request);
    const t = tag();
    const centre = await school(request, admin, `Collège Germain ${t}`);
    const home = await school(request, admin, `Collège Voisin ${t}`);
    const chapterId = (
      await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title: `Papier ${t}`, offline: true } }))
    )._id;
    try {
      await ok(await request.patch(`/api/chapter/${chapterId}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
      await ok(
        await request.patch(`/api/center/${chapterId}`, { headers: admin, data: { institution: centre.id, opened: true, nb_places: 0 } }),
      );
      const teacher = await apiAccount(request, 'prof-centre', {
        firstName: 'Sophie',
        lastName: `Germain ${t}`,
        gender: 'female',
        institution: centre.id,
      });
      await addToGroup(request, admin, TEACHERS_GROUP_ID, teacher.email);
      // A pupil of another school claims the centre's school to get a place in a centre with none left.
      const claimant = await apiAccount(
        request,
        'eleve-malin',
        pupilProfile({ firstName: 'Léo', lastName: `Malin ${t}`, institution: home.id }),
      );
      await ok(await request.put('/api/auth/me', { headers: claimant.headers, data: { institution: centre.id } }));
      await ok(await request.patch(`/api/center/user/${chapterId}`, { headers: claimant.headers, data: { institution: centre.id } }));
      await page.route(
        (url) => url.hostname !== 'localhost',
        (route) => route.abort(),
      );

      await loginByApi(page, teacher.email);
      await page.goto(`/chapter/${chapterId}`);
      const own = page.getByRole('table', { name: 'Élèves de votre établissement' });
      const row = own.getByRole('row', { name: new RegExp(`Malin ${t}`) });
      await expect(row).toContainText(`(avant : ${home.name})`);
      await expectAccessible(page, '/chapter/{id} (centre : élève signalé)');
      await page.screenshot({ path: screenshot('centre-claim-flagged-1280.png'), fullPage: true });
      await row.getByRole('button', { name: 'Refuser' }).click();
      const dialog = page.getByRole('dialog', { name: 'Refuser l’inscription' });
      await expect(dialog).toBeVisible();
      await expectAccessible(page, '/chapter/{id} (refus : confirmation)');
      await dialog.getByRole('button', { name: 'Refuser l’inscription' }).click();
      await expect(page.getByText(/Inscription refusée\s: l’élève est prévenu/).last()).toBeVisible();
      await expect(own).toHaveCount(0);

      await loginByApi(page, claimant.email);
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`/chapter/${chapterId}`);
      await expect(page.getByText(`Inscription refusée par le centre ${centre.name}`)).toBeVisible();
      await expectAccessible(page, '/chapter/{id} (élève refusé)');
      await page.screenshot({ path: screenshot('centre-claim-refused-375.png'), fullPage: true });
      const again = await request.patch(`/api/center/user/${chapterId}`, { headers: claimant.headers, data: { institution: centre.id } });
      expect(again.status()).toBe(403);
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
    }
  });
});
