import { expect as baseExpect, test, type Page } from '@playwright/test';
import { adminHeaders, apiAccount, expectAccessible, loginByApi, ok, PASSWORD, pupilProfile, screenshot, tag } from './fixtures.js';

// Journeys share two cores: a page may take several seconds to answer after a navigation.
const expect = baseExpect.configure({ timeout: 10_000 });

const UNSENT = /^Des réponses n’ont pas encore été envoyées/;

/** Everything the app keeps in this browser's localStorage. */
const storageOf = (page: Page) => page.evaluate(() => ({ ...localStorage }) as Record<string, string>);

test.describe('Ordinateur partagé', () => {
  test('[ÉLÈVE] se déconnecte sur un ordinateur partagé : le suivant ne voit rien', async ({ page, context, request }) => {
    test.setTimeout(120_000);
    const admin = await adminHeaders(request);
    const chapterId = (
      await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title: `Entraînement partagé ${tag()}` } }))
    )._id;
    await ok(await request.patch(`/api/chapter/${chapterId}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
    const titles = ['Somme', 'Produit'];
    for (const [i, title] of titles.entries()) {
      await ok(
        await request.post('/api/exos', {
          headers: admin,
          data: {
            title,
            answerFormat: 'numeric',
            chapter: chapterId,
            statementVersions: [{ content: `Combien font $${i + 2} + ${i + 2}$ ?`, answer: String(2 * (i + 2)) }],
          },
        }),
      );
    }
    const pupilA = await apiAccount(request, 'partage-a', pupilProfile({ firstName: 'Alice', lastName: 'Premier' }));
    const pupilB = await apiAccount(request, 'partage-b', pupilProfile({ firstName: 'Bruno', lastName: 'Second' }));
    const input = (title: string) => page.getByRole('region', { name: title }).getByRole('textbox', { name: 'Votre réponse :' });

    try {
      // Pupil A answers the first exercise online, the second while the network is gone.
      await loginByApi(page, pupilA.email);
      await page.goto(`/chapter/${chapterId}`);
      await input('Somme').fill('4');
      await expect(page.getByText('Enregistré')).toBeVisible();
      await context.setOffline(true);
      await input('Produit').fill('6');
      await expect(page.getByText('Hors ligne — la réponse sera envoyée dès le retour du réseau')).toBeVisible();
      const typed = JSON.stringify(await storageOf(page));
      expect(typed).toContain(pupilA.id);

      // Logging out now would lose the unsent answer: the pupil is told and stays.
      await page.getByRole('button', { name: 'Se déconnecter' }).click();
      const dialog = page.getByRole('dialog', { name: 'Déconnexion' });
      await expect(dialog.getByText(UNSENT)).toBeVisible();
      await expectAccessible(page, 'déconnexion avec des réponses non envoyées');
      await page.screenshot({ path: screenshot('logout-unsent.png'), fullPage: true });
      await dialog.getByRole('button', { name: 'Rester connecté' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(input('Produit')).toHaveValue('6');

      // The network is back: logging out sends the answer first, then leaves nothing of A.
      await context.setOffline(false);
      await page.getByRole('button', { name: 'Se déconnecter' }).click();
      await expect(page).toHaveURL(/\/login$/);
      const afterLogout = await storageOf(page);
      expect(Object.keys(afterLogout).filter((k) => k === 'jwt' || k.startsWith('olympe.'))).toEqual([]);
      expect(JSON.stringify(afterLogout)).not.toContain(pupilA.id);
      const saved = await ok<Array<{ exercise: string; answer: string }>>(
        await request.get(`/api/answer/chapter/${chapterId}`, { headers: pupilA.headers }),
      );
      expect(saved.map((a) => a.answer).sort()).toEqual(['4', '6']);

      // Pupil B logs in on the same browser, through the form.
      await page.getByRole('textbox', { name: 'E-mail' }).fill(pupilB.email);
      await page.getByRole('textbox', { name: 'Mot de passe' }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await expect(page).toHaveURL(/\/profile$/);
      await page.goto(`/chapter/${chapterId}`);
      await expect(input('Somme')).toHaveValue('');
      await expect(input('Produit')).toHaveValue('');
      await expectAccessible(page, '/chapter/{id} (élève suivant)');
      const forB = JSON.stringify(await storageOf(page));
      expect(forB).not.toContain(pupilA.id);
      expect(forB).not.toMatch(/"answer":"[46]"/);
      const mineB = await ok<unknown[]>(await request.get(`/api/answer/chapter/${chapterId}`, { headers: pupilB.headers }));
      expect(mineB).toEqual([]);
      await page.screenshot({ path: screenshot('shared-computer-next-pupil.png'), fullPage: true });
    } finally {
      await context.setOffline(false);
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
    }
  });

  test('[ÉLÈVE] propose son collège sur la carte : lui seul le voit avant vérification, pas l’élève suivant', async ({ page, request }) => {
    test.setTimeout(120_000);
    const name = `Collège Proposé ${tag()}`;
    const pupilA = await apiAccount(request, 'propose-a', pupilProfile({ firstName: 'Alice', lastName: 'Proposante' }));
    const pupilB = await apiAccount(request, 'propose-b', pupilProfile({ firstName: 'Bruno', lastName: 'Voisin' }));
    const search = () => page.getByRole('searchbox', { name: 'Rechercher un établissement' });
    let id: string | undefined;
    try {
      // Pupil A proposes the school on the map: it is hers, unconfirmed, still on her map after a reload.
      await loginByApi(page, pupilA.email);
      await page.goto('/map');
      const map = page.locator('.leaflet-container');
      await expect(map).toBeVisible();
      const box = (await map.boundingBox())!;
      await map.click({ position: { x: box.width * 0.55, y: box.height * 0.55 } });
      const form = page.getByRole('form', { name: 'Établissement sélectionné' });
      await form.getByRole('textbox', { name: 'Nom' }).fill(name);
      await form.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(page.getByText('Établissement enregistré')).toBeVisible();
      await page.reload();
      const marker = page.locator(`.leaflet-marker-icon[title="${name}"]`);
      await expect(marker).toHaveAttribute('alt', `${name} (non vérifié)`);
      await expectAccessible(page, '/map (proposition de l’élève)');

      // She picks it in her profile.
      await page.goto('/profile');
      await search().fill(name);
      await page
        .getByRole('list', { name: 'Résultats de la recherche' })
        .getByRole('button', { name: new RegExp(`^${name}`) })
        .click();
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(page.getByText('Modifications enregistrées').last()).toBeVisible();
      await page.reload();
      await expect(page.getByRole('textbox', { name: 'Établissement', exact: true })).toHaveValue(name);
      const me = await ok<{ institution: { _id: string } | null }>(
        await request.put('/api/auth/me', { headers: pupilA.headers, data: {} }),
      );
      id = me.institution?._id;
      expect(id).toBeTruthy();

      // Pupil B, next on the same browser, finds it neither in the profile nor on the map.
      await page.getByRole('button', { name: 'Se déconnecter' }).click();
      await expect(page).toHaveURL(/\/login$/);
      await page.getByRole('textbox', { name: 'E-mail' }).fill(pupilB.email);
      await page.getByRole('textbox', { name: 'Mot de passe' }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await expect(page).toHaveURL(/\/profile$/);
      await search().fill(name);
      await expect(page.getByText('Aucun établissement ne correspond à la recherche.')).toBeVisible();
      await expect(page.getByRole('button', { name: new RegExp(`^${name}`) })).toHaveCount(0);
      await page.goto('/map');
      await expect(page.locator('.leaflet-container')).toBeVisible();
      await expect(page.locator(`.leaflet-marker-icon[title="${name}"]`)).toHaveCount(0);
      const listedForB = await ok<Array<{ _id: string }>>(await request.get('/api/institution', { headers: pupilB.headers }));
      expect(listedForB.map((i) => i._id)).not.toContain(id);
    } finally {
      if (id) {
        await request.put('/api/auth/me', { headers: pupilA.headers, data: { institution: null } });
        await request.delete(`/api/institution/${id}`, { headers: await adminHeaders(request) });
      }
    }
  });

  test('[ÉLÈVE] ouvre un lien /viewer/ forgé : la page ne lit ni ne réserve rien', async ({ page, request }) => {
    const admin = await adminHeaders(request);
    const chapterId = (
      await ok<{ _id: string }>(
        await request.post('/api/chapter', { headers: admin, data: { title: `Papier forgé ${tag()}`, offline: true } }),
      )
    )._id;
    const pupil = await apiAccount(request, 'lien-force', pupilProfile());
    try {
      await loginByApi(page, pupil.email);
      const calls: string[] = [];
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (url.pathname.startsWith('/api/') && !['/api/auth/me', '/api/group', '/api/chapter', '/api/config'].includes(url.pathname))
          calls.push(`${r.method()} ${url.pathname}`);
      });
      await page.goto(`/viewer/answer/unlabeled/select/${chapterId}`);
      await expect(page.getByText('Ce lien ne désigne pas un fichier PDF : rien n’a été chargé.')).toBeVisible();
      await expectAccessible(page, '/viewer (lien invalide)');
      await page.waitForLoadState('networkidle');
      expect(calls).toEqual([]);
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
    }
  });
});
