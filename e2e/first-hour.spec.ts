import { expect, test } from '@playwright/test';
import {
  addToGroup,
  adminHeaders,
  apiAccount,
  expectAccessible,
  linkFromOutbox,
  loginByApi,
  ok,
  PASSWORD,
  TEACHERS_GROUP_ID,
  tag,
  unique,
} from './fixtures.js';

/** The first hour (decisions 66–68) of a pupil, of a teacher enrolling a class, and of anyone looking for a school. */
test.describe('La première heure', () => {
  // Each journey runs several axe passes and a mail through the job queue.
  test.setTimeout(150_000);
  test('[ÉLÈVE] s’inscrit depuis un test, confirme, est connecté, complète son profil et revient au test', async ({ page, request }) => {
    const headers = await adminHeaders(request);
    const title = `Test d’accueil ${tag()}`;
    const chapter = await ok<{ _id: string }>(await request.post('/api/chapter', { headers, data: { title } }));
    await ok(await request.patch(`/api/chapter/${chapter._id}`, { headers, data: { groups: [{ name: 'all' }] } }));

    // Logged out, the test page offers to log in or sign up, and keeps the way back.
    await page.goto(`/chapter/${chapter._id}`);
    await expect(page.getByText(/Vous devez vous connecter pour avoir accès au contenu/)).toBeVisible();
    await expectAccessible(page, 'chapitre, visiteur');
    await page.getByRole('link', { name: 'créer un compte' }).click();
    await expect(page).toHaveURL(/\/signup\?retour=/);

    const email = unique('accueil');
    await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await page.getByRole('button', { name: 'Envoyer' }).click();
    await expect(page.getByText(/Un courriel a été envoyé à/)).toContainText(email);
    await expect(page.getByText(/vérifiez les indésirables/)).toBeVisible();
    await expectAccessible(page, 'inscription, courriel envoyé');

    // linkFromOutbox keeps the link up to its token; the way back the mail carries is checked by the API test.
    const link = `${await linkFromOutbox(email)}&retour=${encodeURIComponent(`/chapter/${chapter._id}`)}`;
    await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
    await expect(page.getByRole('textbox', { name: 'Adresse e-mail' })).toHaveValue(email);
    await expectAccessible(page, 'confirmation, lien valide');
    await page.locator('input[type="password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Continuer' }).click();

    // Logged in at once, back on the test page.
    await expect(page).toHaveURL(new RegExp(`/chapter/${chapter._id}$`));
    await expect(page.getByRole('link', { name: 'Mon profil' })).toBeVisible();

    // The link is used: opening it again says so at once.
    await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
    await expect(page.getByText(/déjà servi/)).toBeVisible();
    await expect(page.locator('input[type="password"]')).toHaveCount(0);
    await expectAccessible(page, 'confirmation, lien déjà utilisé');

    // The profile says what is missing, and refuses a bad field next to it.
    await page.goto('/profile');
    await expect(page.getByText(/Pour accéder aux épreuves, complétez\s: Prénom, Nom/)).toBeVisible();
    await expectAccessible(page, 'profil incomplet', { labelInName: true });
    await page.getByRole('textbox', { name: 'Prénom' }).fill('Zoé');
    await page.getByRole('textbox', { name: 'Nom', exact: true }).fill('Lefèvre');
    await page.getByLabel('Genre').selectOption('female');
    await page.getByLabel('Date de naissance').fill('14/03/2011');
    await page.getByLabel('Classe').selectOption('3eme');
    await page.getByLabel('Choix par défaut du centre d’examen').selectOption('local');
    await page.getByRole('textbox', { name: 'E-mail d’un parent' }).fill('pas-une-adresse');
    await page.getByRole('button', { name: 'Choisir « Instruction en famille »' }).click();
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(page.getByText('Adresse e-mail invalide.')).toBeVisible();
    await expect(page.getByText(/emailParent/)).toHaveCount(0);
    await expectAccessible(page, 'profil, champ refusé', { labelInName: true });
    await page.getByRole('textbox', { name: 'E-mail d’un parent' }).fill('parent@e2e.test');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(page.getByText('Votre profil est complet.')).toBeVisible();

    await page.goto(`/chapter/${chapter._id}`);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
  });

  test('[ENSEIGNANT] inscrit sa classe depuis un fichier : aperçu, création, puis rien de plus au second envoi', async ({
    page,
    request,
  }) => {
    const headers = await adminHeaders(request);
    const school = await ok<{ institution: { _id: string } }>(
      await request.post('/api/institution', {
        headers,
        data: {
          name: `Collège Import ${tag()}`,
          address: '1 rue des Écoles, 34000 Montpellier',
          latitude: 43.61,
          longitude: 3.87,
          confirmed: true,
        },
      }),
    );
    const teacher = await apiAccount(request, 'prof-import', {
      firstName: 'Paul',
      lastName: 'Prof',
      gender: 'male',
      institution: school.institution._id,
    });
    await addToGroup(request, headers, TEACHERS_GROUP_ID, teacher.email);
    await loginByApi(page, teacher.email);

    const ada = unique('ada');
    const csv = [
      'E-mail;Prénom;Nom;Date de naissance;Classe;Genre;E-mail parent',
      `${ada};Ada;Lovelace;10/12/2011;3e;F;parent@e2e.test`,
      `${unique('alan')};Alan;Turing;23/06/2011;3ème;M;`,
      'pas-une-adresse;Émile;Borel;07/01/2011;3e;M;',
    ].join('\r\n');
    const file = { name: 'eleves.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) };

    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Inscrire des élèves' })).toHaveAttribute('href', '/eleves/import');
    // Opened by its address: a link still under the mouse shows its hover colours to axe.
    await page.goto('/eleves/import');
    await expect(page.getByRole('heading', { name: 'Inscrire des élèves' })).toBeVisible();
    await expectAccessible(page, 'import, page');
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.getByRole('button', { name: 'Prévisualiser' }).click();
    await expect(page.getByText(/2 comptes seront créés, 0 existe déjà, 1 ligne refusée/)).toBeVisible();
    await expect(page.getByText(/E-mail invalide/)).toBeVisible();
    await expectAccessible(page, 'import, aperçu');

    await page.getByRole('button', { name: 'Créer 2 comptes' }).click();
    await expect(page.getByText(/Import terminé .* 2 comptes créés, 0 déjà présent, 1 ligne refusée/)).toBeVisible();
    await expectAccessible(page, 'import, rapport');
    // The invitation leaves through the job queue.
    expect(await linkFromOutbox(ada)).toMatch(/\/confirm\?token=/);

    // The same file again creates nothing.
    await page.getByRole('button', { name: 'Prévisualiser' }).click();
    await expect(page.getByText(/0 compte sera créé, 2 existent déjà, 1 ligne refusée/)).toBeVisible();
    await expect(page.getByRole('button', { name: /^Créer/ })).toHaveCount(0);
  });

  test('[ÉLÈVE] trouve son établissement par son code UAI puis par sa ville', async ({ page, request }) => {
    const headers = await adminHeaders(request);
    const code = `0${String(Date.now()).slice(-6)}X`;
    const name = `Lycée Joseph Fourier ${tag()}`;
    await ok(
      await request.post('/api/institution', {
        headers,
        data: { name, address: '4 rue Jean Pain, 38000 Grenoble', latitude: 45.19, longitude: 5.73, confirmed: true, uai: code },
      }),
    );
    const pupil = await apiAccount(request, 'cherche', { firstName: 'Léa', lastName: 'Martin' });
    await loginByApi(page, pupil.email);
    await page.goto('/profile');
    const box = page.getByRole('searchbox', { name: 'Rechercher un établissement' });
    const results = page.getByRole('list', { name: 'Résultats de la recherche' });

    await box.fill(code.toLowerCase());
    await expect(results.getByRole('button', { name: new RegExp(name) })).toContainText(`UAI ${code}`);
    await expectAccessible(page, 'recherche par UAI');

    await box.fill('grénoble fourier');
    await results.getByRole('button', { name: new RegExp(name) }).click();
    await expect(page.getByRole('textbox', { name: 'Établissement', exact: true })).toHaveValue(name);
    await expectAccessible(page, 'recherche par ville');
  });
});
