import { expect as baseExpect, test, type APIRequestContext } from '@playwright/test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import {
  addToGroup,
  adminHeaders,
  apiAccount,
  expectAccessible,
  expectNotCut,
  loginByApi,
  MEMBERS_GROUP_ID,
  ok,
  screenshot,
  tabTo,
  tag,
} from './fixtures.js';

type Headers = Record<string, string>;

// Several journeys share two cores: a page may take several seconds to answer.
const expect = baseExpect.configure({ timeout: 10_000 });

/** A 4-page "scan": pages told apart by their width (401…404 pt). */
async function scan(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= 4; i++) {
    const page = doc.addPage([400 + i, 560]);
    page.drawText(i === 3 ? '' : `Copie scannée — page ${i}`, { x: 30, y: 500, size: 18, font });
  }
  return Buffer.from(await doc.save());
}

/** Pages of a stored PDF: [width, rotation]. */
async function pagesOf(request: APIRequestContext, headers: Headers, path: string): Promise<number[][]> {
  const res = await request.get(`/api/${path}`, { headers });
  expect(res.ok()).toBe(true);
  const doc = await PDFDocument.load(await res.body());
  return doc.getPages().map((p) => [Math.round(p.getWidth()), p.getRotation().angle]);
}

test.describe('Triage', () => {
  test('[CORRECTEUR] trie une copie scannée au clavier : deux élèves, une page tournée, une page blanche', async ({ page, request }) => {
    test.setTimeout(180_000);
    const admin = await adminHeaders(request);
    const t = tag();
    const title = `Épreuve papier ${t}`;

    // A paper chapter with two PDF exercises, a school, two pupils registered at its centre.
    const chapterId = (await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title, offline: true } })))
      ._id;
    await ok(await request.patch(`/api/chapter/${chapterId}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
    const exercise = async (name: string) =>
      (
        await ok<{ _id: string }>(
          await request.post('/api/exos', {
            headers: admin,
            data: { title: name, answerFormat: 'pdf', chapter: chapterId, statementVersions: [{ content: `Énoncé : ${name}` }] },
          }),
        )
      )._id;
    const ex1 = await exercise('Arithmétique');
    const ex2 = await exercise('Géométrie');
    const school = (
      await ok<{ institution: { _id: string } }>(
        await request.post('/api/institution', {
          headers: admin,
          data: { name: `Collège Triage ${t}`, address: '1 rue du Tri', latitude: 45.1, longitude: 4.2, confirmed: true },
        }),
      )
    ).institution._id;
    await ok(
      await request.patch(`/api/center/${chapterId}`, { headers: admin, data: { institution: school, opened: true, nb_places: 5 } }),
    );
    const profile = (firstName: string, lastName: string) => ({
      firstName,
      lastName,
      birthDate: '2010-05-04',
      gender: 'female',
      grade: '3eme',
      defaultChoice: 'local',
      emailParent: 'parent@e2e.test',
      institution: school,
    });
    const emile = await apiAccount(request, 'eleve-tri-a', profile('Émile', `Abélard${t}`));
    const zoe = await apiAccount(request, 'eleve-tri-b', profile('Zoé', `Bernoulli${t}`));
    for (const p of [emile, zoe])
      await ok(await request.patch(`/api/center/user/${chapterId}`, { headers: p.headers, data: { institution: school } }));
    const member = await apiAccount(request, 'correcteur-tri');
    await addToGroup(request, admin, MEMBERS_GROUP_ID, member.email);

    // The admin uploads a 4-page scan and files it for the school.
    const uploaded = await ok<{ path: string }>(
      await request.post('/api/pdfs', {
        headers: admin,
        multipart: { chapter: chapterId, file: { name: 'salle-1.pdf', mimeType: 'application/pdf', buffer: await scan() } },
      }),
    );
    await ok(
      await request.post(`/api/answer/unlabeled/${chapterId}`, { headers: admin, data: { answer: uploaded.path, institution: school } }),
    );

    // The corrector sees "Triage : 1 fichiers" on the grading page and sorts with the keyboard only.
    await loginByApi(page, member.email);
    await page.goto(`/grader/${chapterId}`);
    // Keyboard only, from the grading page to the saved copy (RGAA 12.8): Tab, Shift+Tab, Enter and the page's keys.
    await tabTo(page, page.getByRole('link', { name: 'Triage : 1 fichiers' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/sorting/${chapterId}$`));
    await expect(page.getByRole('heading', { name: 'Triage', exact: true })).toBeVisible();
    // Opening the page reserves nothing: the corrector starts (Enter on the button, still keyboard only).
    const startSorting = page.getByRole('button', { name: 'Commencer le tri' });
    await expectAccessible(page, '/sorting/{id} (avant le tri)');
    await tabTo(page, startSorting);
    await page.keyboard.press('Enter');
    await expect(page.getByText('Page 1 sur 4')).toBeVisible();
    await expect(page.getByRole('img', { name: 'Copie scannée, page 1 sur 4' })).toBeVisible();
    const region = page.getByRole('region', { name: 'Copie à trier' });
    await expect(region).toBeFocused();
    await expectAccessible(page, '/sorting/{id}');

    const search = page.getByRole('combobox', { name: 'Élève' });
    const choosePupil = async (typed: string, label: RegExp) => {
      await page.keyboard.press('/');
      await expect(search).toBeFocused();
      await page.keyboard.type(typed);
      // Keys typed into the search move nothing.
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await expect(search).toHaveValue(label);
      await expect(region).toBeFocused();
    };

    // Page 1: Émile (accent-insensitive search), first exercise.
    await choosePupil('abelard', new RegExp(`^Abélard${t} Émile`));
    await expect(page.getByText('Page 1 sur 4')).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Arithmétique' })).toBeChecked();
    // Page 2: Émile carried forward, same exercise, turned 90° with the space bar.
    await page.keyboard.press('ArrowRight');
    await expect(page.getByText('Page 2 sur 4')).toBeVisible();
    await expect(search).toHaveValue(new RegExp(`^Abélard${t} Émile`));
    await page.keyboard.press(' ');
    await expect(page.getByRole('radio', { name: '90°' })).toBeChecked();
    await expect(page.getByRole('img', { name: 'Copie scannée, page 2 sur 4' })).toHaveAttribute('data-rotation', '90');
    await page.screenshot({ path: screenshot('sorting-page.png'), fullPage: true });
    // Space on a focused exercise box ticks it, as a keyboard user expects; the page does not turn.
    const arithmetic = page.getByRole('checkbox', { name: 'Arithmétique' });
    await tabTo(page, arithmetic);
    await page.keyboard.press(' ');
    await expect(arithmetic).not.toBeChecked();
    await expect(page.getByRole('radio', { name: '90°' })).toBeChecked();
    await page.keyboard.press(' ');
    await expect(arithmetic).toBeChecked();
    await expect(page.getByRole('group', { name: 'Raccourcis clavier' })).toContainText('sauf sur une case à cocher');
    await tabTo(page, region, { back: true });
    // Page 3: blank. The reader found no ink, so it arrives suggested blank (decision 57); b still toggles it.
    await page.keyboard.press('ArrowRight');
    const blank = page.getByRole('checkbox', { name: 'Page blanche' });
    await expect(blank).toBeChecked();
    await page.keyboard.press('b');
    await expect(blank).not.toBeChecked();
    await page.keyboard.press('b');
    await expect(blank).toBeChecked();
    // Page 4: Zoé, second exercise (↓).
    await page.keyboard.press('ArrowRight');
    await expect(page.getByText('Page 4 sur 4')).toBeVisible();
    await choosePupil('bernoulli', new RegExp(`^Bernoulli${t} Zoé`));
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('checkbox', { name: 'Géométrie' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Arithmétique' })).not.toBeChecked();
    await expect(page.getByRole('button', { name: 'Sauvegarder et passer au fichier suivant' })).toBeVisible();
    // Nothing cut at 1280 px (the button read « Sauvegarder et passer au fi ») nor at 375 px.
    const saveLabel = page.getByRole('button', { name: 'Sauvegarder et passer au fichier suivant' }).locator('.mantine-Button-label');
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await expectNotCut(`/sorting à ${width} px`, [
        ['« Sauvegarder et passer au fichier suivant »', saveLabel],
        ['l’élève choisi', search],
      ]);
      await page.screenshot({ path: screenshot(`sorting-last-page-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    // Resizing moves no focus: the keys go on to the copy.
    await expect(region).toBeFocused();
    // ← then → keep the choices.
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByRole('checkbox', { name: 'Page blanche' })).toBeChecked();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('checkbox', { name: 'Géométrie' })).toBeChecked();
    await page.keyboard.press('Enter');

    await expect(page.getByText('Copie triée : 2 copies enregistrées, 1 page blanche écartée.')).toBeVisible();
    await expect(page.getByText('Aucune copie à trier pour le moment.')).toBeVisible();
    await expectAccessible(page, '/sorting/{id} (vide)');

    // The grading table shows the two new copies to grade; the history shows the right pages.
    await page.goto(`/grader/${chapterId}`);
    await expect(page.getByRole('link', { name: 'Triage : 0 fichiers' })).toBeVisible();
    await page.getByRole('link', { name: `Émile Abélard${t}, Arithmétique : à corriger` }).click();
    await expect(page).toHaveURL(new RegExp(`/history/${emile.id}/${ex1}$`));
    await expect(page.getByRole('img', { name: 'Copie, page 1 sur 2' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Copie, page 2 sur 2' })).toBeVisible();
    await page.goto(`/grader/${chapterId}`);
    await page.getByRole('link', { name: `Zoé Bernoulli${t}, Géométrie : à corriger` }).click();
    await expect(page.getByRole('img', { name: 'Copie, page 1 sur 1' })).toBeVisible();
    await expect(page.getByRole('link', { name: `Émile Abélard${t}, Géométrie : à corriger` })).toHaveCount(0);

    // The stored PDFs: pages in order, the turned page rotated.
    const emileCopy = (
      await ok<{ answers: Array<{ answer: string }> }>(
        await request.get(`/api/answer/history/${emile.id}/${ex1}`, { headers: member.headers }),
      )
    ).answers;
    const zoeCopy = (
      await ok<{ answers: Array<{ answer: string }> }>(
        await request.get(`/api/answer/history/${zoe.id}/${ex2}`, { headers: member.headers }),
      )
    ).answers;
    expect(await pagesOf(request, member.headers, emileCopy[0].answer)).toEqual([
      [401, 0],
      [402, 90],
    ]);
    expect(await pagesOf(request, member.headers, zoeCopy[0].answer)).toEqual([[404, 0]]);
  });
});
