import { expect as baseExpect, test, type Browser, type Page } from '@playwright/test';
import {
  addToGroup,
  adminHeaders,
  apiAccount,
  expectAccessible,
  loginByApi,
  MEMBERS_GROUP_ID,
  ok,
  pupilProfile,
  screenshot,
  tag,
} from './fixtures.js';

// The machine is shared: a lazy page chunk can take seconds to arrive under load.
const expect = baseExpect.configure({ timeout: 15_000 });

async function pageAs(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await loginByApi(page, email);
  return page;
}

test.describe('Réexamen', () => {
  test('[ÉLÈVE][CORRECTEUR] demande un réexamen, le correcteur l’accepte, l’élève lit la réponse', async ({ request, browser }) => {
    test.setTimeout(300_000);
    const admin = await adminHeaders(request);
    const title = `Réexamen ${tag()}`;

    // A published chapter, one numeric exercise on 5 points graded automatically, regrade requests open for a week.
    const chapter = await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title } }));
    await ok(await request.patch(`/api/chapter/${chapter._id}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
    const exercise = await ok<{ _id: string }>(
      await request.post('/api/exos', {
        headers: admin,
        data: {
          title: 'Diagonales de l’hexagone',
          answerFormat: 'numeric',
          chapter: chapter._id,
          maxPoints: 5,
          statementVersions: [{ content: 'Combien ?', answer: '10' }],
        },
      }),
    );
    const pupil = await apiAccount(request, 'eleve-reexamen', pupilProfile({ firstName: 'Ada', lastName: 'Lovelace' }));
    await ok(await request.post('/api/answer', { headers: pupil.headers, data: { exerciseId: exercise._id, answer: '9', seq: 1 } }));
    await ok(await request.post(`/api/answer/auto/${chapter._id}`, { headers: admin }));
    // Decision 152: the pupil who answered may still answer (a window without an end): the admin confirms her.
    await ok(await request.patch(`/api/chapter/${chapter._id}`, { headers: admin, data: { analysis: true, confirm: 1 } }));
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    await ok(await request.put(`/api/regrade/window/${chapter._id}`, { headers: admin, data: { regradeUntil: until } }));
    const corrector = await apiAccount(request, 'correcteur-reexamen', { firstName: 'Paul', lastName: 'Erdős' });
    await addToGroup(request, admin, MEMBERS_GROUP_ID, corrector.email);

    // The pupil asks, from her chapter page.
    const pupilPage = await pageAs(browser, pupil.email);
    await pupilPage.goto(`/chapter/${chapter._id}`);
    const panel = pupilPage.getByRole('region', { name: 'Demandes de réexamen' });
    await expect(panel).toBeVisible();
    await panel.getByPlaceholder('Choisissez l’exercice').click();
    await pupilPage.getByRole('option', { name: 'Diagonales de l’hexagone (0 sur 5)' }).click();
    await panel.getByLabel('Votre message').fill('Un hexagone a 9 diagonales : le corrigé dit 10.');
    await panel.getByRole('button', { name: 'Demander un réexamen' }).click();
    const request1 = panel.getByRole('article', { name: 'Réexamen : Diagonales de l’hexagone' });
    await expect(request1.getByText('En attente')).toBeVisible();
    await expectAccessible(pupilPage, 'demande de réexamen envoyée');

    // The corrector accepts with a new grade and a reply.
    const correctorPage = await pageAs(browser, corrector.email);
    await correctorPage.goto(`/regrade/${chapter._id}`);
    const item = correctorPage.getByRole('article', { name: 'Demande de Ada Lovelace, Diagonales de l’hexagone' });
    await expect(item.getByText('Un hexagone a 9 diagonales : le corrigé dit 10.')).toBeVisible();
    await expect(item.getByRole('link', { name: 'Voir la copie de Ada Lovelace' })).toHaveAttribute(
      'href',
      `/history/${pupil.id}/${exercise._id}`,
    );
    await expectAccessible(correctorPage, 'file des réexamens');
    await item.getByLabel('Nouvelle note (sur 5)').fill('5');
    await item.getByLabel('Réponse à l’élève').fill('Vous avez raison : le corrigé était faux.');
    await item.getByRole('button', { name: 'Accepter avec cette note' }).click();
    await expect(item.getByText('Acceptée')).toBeVisible();
    await expect(item.getByText('Note passée de 0 à 5')).toBeVisible();

    // The pupil reads the reply and her new grade.
    await pupilPage.reload();
    const answered = pupilPage.getByRole('article', { name: 'Réexamen : Diagonales de l’hexagone' });
    await expect(answered.getByText('Acceptée')).toBeVisible();
    await expect(answered.getByText('Nouvelle note : 5 (avant : 0)')).toBeVisible();
    await expect(answered.getByText('Vous avez raison : le corrigé était faux.')).toBeVisible();
    await expectAccessible(pupilPage, 'réponse au réexamen');
    for (const width of [1280, 375]) {
      await pupilPage.setViewportSize({ width, height: 900 });
      await answered.scrollIntoViewIfNeeded();
      await pupilPage.screenshot({ path: screenshot(`regrade-pupil-${width}.png`), fullPage: true });
    }
    await correctorPage.setViewportSize({ width: 375, height: 900 });
    await correctorPage.screenshot({ path: screenshot('regrade-corrector-375.png'), fullPage: true });
  });
});
