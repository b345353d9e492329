import { expect, test } from '@playwright/test';
import {
  adminHeaders,
  adminPage,
  createAccount,
  expectAccessible,
  expectNotCutAtBothWidths,
  loginByApi,
  pageToken,
  screenshot,
  tag,
  unique,
} from './fixtures.js';

const SCHOOL = 'Collège Émile Zola';

test.describe('Profil et établissements', () => {
  test('[ÉLÈVE] remplit son profil, trouve son collège par une recherche accentuée et voit les tests', async ({ page, request }) => {
    // Data of this journey, made by the admin through the API.
    const headers = await adminHeaders(request);
    const school = await request.post('/api/institution', {
      headers,
      data: { name: SCHOOL, address: '12 rue des Écoles, 75005 Paris', latitude: 48.8566, longitude: 2.3522, confirmed: true },
    });
    expect(school.ok(), await school.text()).toBe(true);
    const schoolId = (await school.json()).institution._id as string;
    const chapterTitle = `Test en ligne ${tag()}`;
    const chapter = await request.post('/api/chapter', { headers, data: { title: chapterTitle } });
    expect(chapter.status(), await chapter.text()).toBe(201);
    const chapterId = (await chapter.json())._id as string;
    const open = await request.patch(`/api/chapter/${chapterId}`, { headers, data: { groups: [{ name: 'all' }] } });
    expect(open.ok(), await open.text()).toBe(true);

    const email = unique('profil');
    try {
      await createAccount(request, email);
      await loginByApi(page, email);
      await page.goto('/profile');
      await expect(page.getByRole('heading', { name: 'Mon profil' })).toBeVisible();
      const sidebar = page.getByRole('navigation');
      await expect(sidebar.getByText('Complétez votre profil pour accéder aux contenus.')).toBeVisible();
      await expect(sidebar.getByRole('heading', { name: 'Tests en ligne' })).toHaveCount(0);

      // Accents and case ignored: "emile zola" finds "Collège Émile Zola".
      await page.getByRole('searchbox', { name: 'Rechercher un établissement' }).fill('emile zola');
      const results = page.getByRole('list', { name: 'Résultats de la recherche' });
      await results.getByRole('button', { name: new RegExp(`^${SCHOOL}`) }).click();
      await expect(page.getByRole('textbox', { name: 'Établissement', exact: true })).toHaveValue(SCHOOL);

      await page.getByRole('textbox', { name: 'Prénom' }).fill('Zoé');
      await page.getByRole('textbox', { name: 'Nom', exact: true }).fill('Lefèvre');
      await page.getByRole('combobox', { name: 'Genre' }).selectOption({ label: 'Féminin' });
      await page.getByLabel('Date de naissance').fill('14/03/2012');
      await page.getByRole('combobox', { name: 'Classe' }).selectOption({ label: '4ème' });
      await page.getByRole('textbox', { name: 'E-mail d’un parent' }).fill('parent.lefevre@e2e.test');
      await page
        .getByRole('combobox', { name: 'Choix par défaut du centre d’examen' })
        .selectOption({ label: 'Passer l’épreuve dans mon établissement' });
      await expectAccessible(page, '/profile');
      await expectNotCutAtBothWidths(page, '/profile', [
        ['« Enregistrer »', page.getByRole('button', { name: 'Enregistrer' })],
        ['« Choisir « Instruction en famille » »', page.getByRole('button', { name: /^Choisir «\sInstruction en famille\s»/ })],
        ['l’établissement choisi', page.getByRole('textbox', { name: 'Établissement', exact: true })],
      ]);
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(page.getByText('Modifications enregistrées').last()).toBeVisible();

      // The profile is complete: the sidebar lists the online test opened to everyone.
      await expect(sidebar.getByText('Complétez votre profil pour accéder aux contenus.')).toHaveCount(0);
      const online = sidebar.getByRole('region', { name: 'Tests en ligne' });
      await expect(online.getByRole('link', { name: chapterTitle })).toBeVisible();
      await page.screenshot({ path: screenshot('profile-complete.png'), fullPage: true });

      // Saved on the server: a reload shows the same profile.
      await page.reload();
      await expect(page.getByRole('textbox', { name: 'Établissement', exact: true })).toHaveValue(SCHOOL);
      await expect(page.getByRole('textbox', { name: 'Prénom' })).toHaveValue('Zoé');
      await expect(page.getByRole('combobox', { name: 'Classe' })).toHaveValue('4eme');
      await expect(page.getByLabel('Date de naissance')).toHaveValue('14/03/2012');
      await expectAccessible(page, '/profile (complet)');

      // The pupil leaves the school so it can be deleted below.
      const leave = await request.put('/api/auth/me', {
        headers: { Authorization: `Bearer ${await pageToken(page)}` },
        data: { institution: null },
      });
      expect(leave.ok(), await leave.text()).toBe(true);
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers });
      await request.delete(`/api/institution/${schoolId}`, { headers });
    }
  });

  test('[ÉLÈVE] sans établissement, voit la France en groupes d’établissements et zoome jusqu’à son collège', async ({ page, request }) => {
    test.setTimeout(120_000);
    // 110 schools around one town: more than the profile map's 100 markers, one group at France's zoom.
    const headers = await adminHeaders(request);
    const town = `Bourg ${tag()}`;
    const ids: string[] = [];
    try {
      for (let i = 0; i < 110; i++) {
        const created = await request.post('/api/institution', {
          headers,
          data: {
            name: `Collège ${String(i).padStart(3, '0')} de ${town}`,
            address: `${i} rue du Groupe, 85000 ${town}`,
            latitude: 46.7 + Math.floor(i / 11) * 0.01,
            longitude: -1.4 + (i % 11) * 0.01,
            confirmed: true,
          },
        });
        expect(created.ok(), await created.text()).toBe(true);
        ids.push((await created.json()).institution._id);
      }
      const email = unique('groupes');
      await createAccount(request, email);
      await loginByApi(page, email);
      await page.goto('/profile');
      // The map comes as the pupil scrolls to it (decision 122).
      await page.getByRole('button', { name: 'Enregistrer' }).scrollIntoViewIfNeeded();

      // France: the count of the view, and groups with their number instead of nothing.
      await expect(page.getByText(/établissements dans la zone affichée\s: zoomez ou précisez la recherche/)).toBeVisible();
      const group = page.getByRole('button', { name: /^1[\u202f ]?1\d établissements ici\s: zoomer$/ });
      await expect(group).toBeVisible();
      await expect(page.getByText('Groupe d’établissements : cliquez sur son nombre pour zoomer')).toBeVisible();
      await expectAccessible(page, '/profile (groupes à l’échelle de la France)');
      await page.screenshot({ path: screenshot('profile-clusters-france.png'), fullPage: true });

      // A group opens with the keyboard; the view of its 110 schools is still too full, so smaller groups.
      await group.focus();
      await page.keyboard.press('Enter');
      await expect(page.getByText(/^110 établissements dans la zone affichée/)).toBeVisible();
      const smaller = page.getByRole('button', { name: /^\d établissements? ici\s: zoomer$/ });
      await expect(smaller.first()).toBeVisible();
      await expectAccessible(page, '/profile (groupes plus petits)');

      // One more click: the schools themselves, as markers, and one chosen from its marker.
      await smaller.first().click();
      await expect(page.getByText(/^\d+ établissements? affichés? sur la carte\.$/)).toBeVisible();
      const marker = page.locator(`.leaflet-marker-icon[title$="de ${town}"]`).first();
      await expect(marker).toBeVisible();
      const name = await marker.getAttribute('title');
      await marker.click();
      await expect(page.getByRole('textbox', { name: 'Établissement', exact: true })).toHaveValue(name!);
      await expectAccessible(page, '/profile (marqueurs après les groupes)');
      await page.setViewportSize({ width: 375, height: 800 });
      await page.screenshot({ path: screenshot('profile-clusters-375.png'), fullPage: true });
    } finally {
      for (const id of ids) await request.delete(`/api/institution/${id}`, { headers });
    }
  });

  test('[ADMIN] ajoute un établissement sur la carte et le vérifie', async ({ page, request }) => {
    const name = `Lycée Carte ${tag()}`;
    await adminPage(page);
    await page.goto('/map');
    await expect(page.getByRole('heading', { name: 'Établissements', level: 1 })).toBeVisible();
    const map = page.locator('.leaflet-container');
    await expect(map).toBeVisible();
    await expect(page.getByText('Aucun établissement sélectionné.')).toBeVisible();
    await expectAccessible(page, '/map');

    // A click on the map opens the form of a new institution at that place.
    const box = (await map.boundingBox())!;
    await map.click({ position: { x: box.width * 0.6, y: box.height * 0.6 } });
    await expect(page.getByRole('heading', { name: 'Nouvel établissement' })).toBeVisible();
    await expect(page.locator('.leaflet-marker-icon[title="Nouvel établissement"]')).toBeVisible();
    const form = page.getByRole('form', { name: 'Établissement sélectionné' });
    await form.getByRole('textbox', { name: 'Nom' }).fill(name);
    await form.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(page.getByText('Établissement enregistré')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Établissement sélectionné' })).toBeVisible();

    let id: string | undefined;
    try {
      const list = await request.get('/api/institution', { headers: await adminHeaders(request) });
      const saved = ((await list.json()) as { _id: string; name: string; confirmed: boolean }[]).find((i) => i.name === name);
      expect(saved?.confirmed).toBe(false);
      id = saved!._id;

      // Deselect, then select it again by its marker and mark it verified.
      await form.getByRole('button', { name: 'Annuler' }).click();
      await expect(page.getByText('Aucun établissement sélectionné.')).toBeVisible();
      const marker = page.locator(`.leaflet-marker-icon[title="${name}"]`);
      await expect(marker).toHaveAttribute('alt', `${name} (non vérifié)`);
      await marker.click();
      await expect(page.getByRole('heading', { name: 'Établissement sélectionné' })).toBeVisible();
      await expect(form.getByRole('textbox', { name: 'Nom' })).toHaveValue(name);
      await form.getByRole('combobox', { name: 'Vérifié' }).selectOption({ label: 'Oui' });
      await form.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(page.getByText('Modifications enregistrées').last()).toBeVisible();
      await expect(marker).toHaveAttribute('alt', name);
      await expectAccessible(page, '/map (établissement sélectionné)');
      await page.screenshot({ path: screenshot('map-verified.png'), fullPage: true });

      // After a reload the institution is verified.
      await page.reload();
      await page.locator(`.leaflet-marker-icon[title="${name}"]`).click();
      await expect(form.getByRole('combobox', { name: 'Vérifié' })).toHaveValue('true');
    } finally {
      if (id) await request.delete(`/api/institution/${id}`, { headers: await adminHeaders(request) });
    }
  });

  test('[ADMIN] place un établissement au clavier, puis déplace un établissement vérifié avec confirmation et annulation', async ({
    page,
    request,
  }) => {
    const name = `Collège Clavier ${tag()}`;
    await adminPage(page);
    await page.goto('/map');
    await expect(page.locator('.leaflet-container')).toBeVisible();

    // Keyboard only: the button, then the typed coordinates with a decimal comma, then the name.
    await page.getByRole('button', { name: 'Ajouter un établissement' }).press('Enter');
    await expect(page.getByRole('heading', { name: 'Nouvel établissement' })).toBeVisible();
    const position = page.getByRole('form', { name: 'Position de l’établissement' });
    const latitude = position.getByRole('textbox', { name: 'Latitude' });
    const longitude = position.getByRole('textbox', { name: 'Longitude' });
    await latitude.focus();
    await page.keyboard.type('48,85,66');
    await page.keyboard.press('Tab');
    await expect(longitude).toBeFocused();
    await page.keyboard.type('2,3522');
    await page.keyboard.press('Enter');
    await expect(position.getByText('La latitude doit être un nombre entre -90 et 90, par exemple 48,8566.')).toBeVisible();
    await latitude.focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('48,8566');
    await page.keyboard.press('Enter');
    await expect(page.locator('.leaflet-marker-icon[title="Nouvel établissement"]')).toBeVisible();
    await expectAccessible(page, '/map (placé au clavier)');
    const form = page.getByRole('form', { name: 'Établissement sélectionné' });
    await form.getByRole('textbox', { name: 'Nom' }).focus();
    await page.keyboard.type(name);
    await page.keyboard.press('Enter');
    await expect(page.getByText('Établissement enregistré')).toBeVisible();

    const headers = await adminHeaders(request);
    const find = async () =>
      (
        (await (await request.get('/api/institution', { headers })).json()) as {
          _id: string;
          name: string;
          latitude: number;
          longitude: number;
        }[]
      ).find((i) => i.name === name);
    const saved = await find();
    expect(saved).toMatchObject({ latitude: 48.8566, longitude: 2.3522 });
    try {
      // Verified with the keyboard too.
      await form.getByRole('combobox', { name: 'Vérifié' }).selectOption({ label: 'Oui' });
      await form.getByRole('button', { name: 'Enregistrer' }).press('Enter');
      await expect(page.getByText('Modifications enregistrées').last()).toBeVisible();
      // The green notice closes by itself: left under the dialog's veil, axe would measure its dimmed text.
      await expect(page.getByText('Modifications enregistrées')).toHaveCount(0, { timeout: 10_000 });

      // Moving it now asks first, naming it and the distance; « Annuler » keeps it in Paris.
      await latitude.fill('45,764');
      await longitude.fill('4,8357');
      await longitude.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Déplacer un établissement vérifié' });
      await expect(dialog).toContainText(`Déplacer l’établissement «\u202f${name}\u202f» de 391\u00a0km\u202f?`);
      await expectAccessible(page, '/map (confirmation du déplacement)');
      await dialog.getByRole('button', { name: 'Annuler' }).press('Enter');
      await expect(dialog).toBeHidden();
      await expect(latitude).toHaveValue('48,8566');
      await expect(page.getByRole('button', { name: 'Annuler le déplacement' })).toHaveCount(0);

      // « Déplacer », save, then « Annuler le déplacement »: back in Paris, saved.
      await latitude.fill('45,764');
      await longitude.fill('4,8357');
      await longitude.press('Enter');
      await dialog.getByRole('button', { name: 'Déplacer' }).press('Enter');
      await expect(dialog).toBeHidden();
      await form.getByRole('button', { name: 'Enregistrer' }).press('Enter');
      await expect(page.getByText('Établissement déplacé et enregistré.')).toBeVisible();
      expect(await find()).toMatchObject({ latitude: 45.764, longitude: 4.8357 });
      await expectAccessible(page, '/map (déplacement annulable)');
      await page.getByRole('button', { name: 'Annuler le déplacement' }).press('Enter');
      await expect(latitude).toHaveValue('48,8566');
      await expect.poll(async () => (await find())?.latitude).toBe(48.8566);
      expect(await find()).toMatchObject({ latitude: 48.8566, longitude: 2.3522 });
      await page.screenshot({ path: screenshot('map-keyboard-undo.png'), fullPage: true });
    } finally {
      if (saved) await request.delete(`/api/institution/${saved._id}`, { headers });
    }
  });
});
