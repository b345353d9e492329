import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { adminHeaders, adminPage, expectAccessible, expectNotCut, screenshot, tag } from './fixtures.js';

const FIRST = 'Partage de la pizza';
const SECOND = 'Course à pied';

/** Opens a rich-text block, types its text and leaves the text area (the block renders again). */
async function writeRichText(page: Page, label: string, text: string) {
  await page.getByRole('button', { name: `Modifier : ${label}` }).click();
  const area = page.getByRole('textbox', { name: label });
  await area.fill(text);
  await area.press('Tab');
  await expect(area).toHaveCount(0);
}

test.describe('Rédaction des sujets', () => {
  test('[ADMIN] crée un chapitre, deux exercices à deux versions, un accès de 30 minutes, et télécharge le sujet LaTeX', async ({
    page,
    request,
  }) => {
    // A long journey on a loaded machine: three pages, two reloads, a download.
    test.setTimeout(120_000);
    const title = `Fractions ${tag()}`;
    await adminPage(page);

    // /chapters: a new chapter, renamed before saving.
    await page.goto('/chapters');
    await expect(page.getByRole('heading', { name: 'Gestion des chapitres' })).toBeVisible();
    await expectAccessible(page, '/chapters');
    await page.getByRole('button', { name: 'Ajouter un chapitre' }).click();
    await page.getByRole('textbox', { name: 'Titre du chapitre Nouveau chapitre (nouveau)' }).fill(title);
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(page.getByText('Modifications enregistrées').last()).toBeVisible();
    const exosLink = page.getByRole('link', { name: `Exercices du chapitre ${title}` });
    await expect(exosLink).toBeVisible();
    await expectAccessible(page, '/chapters (chapitre ajouté)');

    await exosLink.click();
    await expect(page).toHaveURL(/\/exos\/[0-9a-f-]{36}$/);
    const chapterId = new URL(page.url()).pathname.split('/').pop()!;
    try {
      // /exos/{id}: instructions (saved when the text area is left), then two exercises of two versions.
      await expect(page.getByRole('heading', { name: 'Gestion du chapitre' })).toBeVisible();
      await expect(page.getByText('Aucun exercice.')).toBeVisible();
      await expectAccessible(page, '/exos/{id} (vide)');
      await writeRichText(page, 'Instructions pour les élèves', 'Calculatrice **interdite**. Durée : 30 minutes.');
      await expect(page.getByText('Modifications enregistrées').last()).toBeVisible();

      await page.getByRole('button', { name: 'Ajouter un exercice' }).click();
      await page.getByRole('button', { name: 'Ajouter un exercice' }).click();
      await expect(page.getByRole('textbox', { name: 'Titre de l’exercice 2' })).toHaveValue('Nouvel exercice');

      await page.getByRole('textbox', { name: 'Titre de l’exercice 1' }).fill(FIRST);
      await writeRichText(
        page,
        'Énoncé de la version 1 de l’exercice 1',
        'Quelle part de la pizza reste-t-il ? $\\frac{1}{2}$ est mangée.',
      );
      const statement = page.getByRole('button', { name: 'Modifier : Énoncé de la version 1 de l’exercice 1' });
      await expect(statement.locator('.katex').first()).toBeVisible();
      await page.getByRole('textbox', { name: 'Réponse attendue (version 1) de l’exercice 1' }).fill('0,5');
      await page.getByRole('button', { name: 'Ajouter une version à l’exercice 1' }).click();
      await writeRichText(
        page,
        'Énoncé de la version 2 de l’exercice 1',
        'Quelle part de la pizza reste-t-il si trois quarts sont mangés ?',
      );
      await page.getByRole('textbox', { name: 'Réponse attendue (version 2) de l’exercice 1' }).fill('0.25');

      await page.getByRole('textbox', { name: 'Titre de l’exercice 2' }).fill(SECOND);
      await writeRichText(page, 'Énoncé de la version 1 de l’exercice 2', 'Léa court 3 km en 15 minutes. Combien de minutes pour 2,4 km ?');
      await page.getByRole('textbox', { name: 'Réponse attendue (version 1) de l’exercice 2' }).fill('12');
      await page.getByRole('button', { name: 'Ajouter une version à l’exercice 2' }).click();
      await writeRichText(page, 'Énoncé de la version 2 de l’exercice 2', 'Léa court 4 km en 20 minutes. Combien de minutes pour 3 km ?');
      await page.getByRole('textbox', { name: 'Réponse attendue (version 2) de l’exercice 2' }).fill('15');

      await expect(page.getByText('Modifications non enregistrées.')).toBeVisible();
      await expectAccessible(page, '/exos/{id} (avant enregistrement)');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(page.getByText('Modifications non enregistrées.')).toHaveCount(0);
      await page.screenshot({ path: screenshot('exos.png'), fullPage: true });

      // A reload finds everything as saved, the formula rendered by KaTeX.
      await page.reload();
      await expect(page.getByRole('textbox', { name: 'Titre de l’exercice 1' })).toHaveValue(FIRST);
      await expect(page.getByRole('textbox', { name: 'Titre de l’exercice 2' })).toHaveValue(SECOND);
      await expect(page.getByRole('button', { name: 'Modifier : Instructions pour les élèves' })).toContainText('Calculatrice interdite');
      await expect(statement.locator('.katex').first()).toBeVisible();
      await expect(page.getByRole('button', { name: 'Modifier : Énoncé de la version 2 de l’exercice 1' })).toContainText('trois quarts');
      await expect(page.getByRole('button', { name: 'Modifier : Énoncé de la version 2 de l’exercice 2' })).toContainText(
        '4 km en 20 minutes',
      );
      await expect(page.getByRole('textbox', { name: 'Réponse attendue (version 1) de l’exercice 1' })).toHaveValue('0,5');
      await expect(page.getByRole('textbox', { name: 'Réponse attendue (version 2) de l’exercice 1' })).toHaveValue('0.25');
      await expect(page.getByRole('textbox', { name: 'Réponse attendue (version 1) de l’exercice 2' })).toHaveValue('12');
      await expect(page.getByRole('textbox', { name: 'Réponse attendue (version 2) de l’exercice 2' })).toHaveValue('15');
      await expect(page.getByText('Modifications non enregistrées.')).toHaveCount(0);
      await expectAccessible(page, '/exos/{id}');

      // The LaTeX subject, named after the chapter.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Télécharger le sujet (LaTeX)' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${title}.tex`);
      const tex = readFileSync(await download.path(), 'utf8');
      expect(tex).toContain('\\frac{1}{2}');
      expect(tex).toContain(FIRST);
      expect(tex).toContain(SECOND);

      // /access/{id}: one access group of 30 minutes.
      await page.goto(`/access/${chapterId}`);
      await expect(page.getByRole('heading', { name: 'Permissions d’accès' })).toBeVisible();
      await expect(page.getByText('Aucun groupe d’accès : aucun élève ne voit ce chapitre.')).toBeVisible();
      await expectAccessible(page, '/access/{id} (vide)');
      await page.getByRole('button', { name: 'Ajouter un groupe d’accès' }).click();
      await expect(page.getByRole('textbox', { name: 'Nom du groupe 1' })).toHaveValue('all');
      await page.getByRole('textbox', { name: 'Durée en minutes du groupe 1' }).fill('30');
      await expectAccessible(page, '/access/{id}');
      // At 1280 px the whole table, « Début » and « Fin » included, fits without a sideways scrollbar.
      await expectNotCut('/access à 1280 px', [
        ['le tableau des groupes d’accès', page.getByRole('region', { name: 'Tableau des groupes d’accès' })],
      ]);
      await expectNotCut('/access à 1280 px', [
        ['« Début »', page.getByText('Début', { exact: true })],
        ['« Fin »', page.getByText('Fin', { exact: true })],
      ]);
      await expect(page.getByRole('textbox', { name: /^Fin de l’accès du groupe 1/ })).toBeInViewport();
      await page.screenshot({ path: screenshot('access-1280.png'), fullPage: true });
      await page.setViewportSize({ width: 375, height: 800 });
      // On a phone the table scrolls sideways in its focusable region; its headers stay whole.
      await expectNotCut('/access à 375 px', [
        ['« Accès (heure de Paris) »', page.getByRole('columnheader', { name: 'Accès (heure de Paris)' })],
        ['« Début »', page.getByText('Début', { exact: true })],
        ['« Fin »', page.getByText('Fin', { exact: true })],
      ]);
      await expectAccessible(page, '/access/{id} (375 px)');
      await page.screenshot({ path: screenshot('access-375.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(page.getByText('Modifications enregistrées').last()).toBeVisible();
      await page.screenshot({ path: screenshot('access.png'), fullPage: true });

      await page.reload();
      await expect(page.getByRole('textbox', { name: 'Durée en minutes du groupe 1' })).toHaveValue('30');
      await expect(page.getByRole('textbox', { name: 'Nom du groupe 1' })).toHaveValue('all');
      await expect(page.getByLabel('Début de l’accès du groupe 1 (heure de Paris)')).toHaveValue('');
      await expect(page.getByRole('textbox', { name: 'Nom du groupe 2' })).toHaveCount(0);

      // /chapters after a reload: the chapter under its title.
      await page.goto('/chapters');
      await expect(page.getByRole('textbox', { name: `Titre du chapitre ${title}` })).toHaveValue(title);
      await expect(page.getByRole('link', { name: `Accès au chapitre ${title}` })).toBeVisible();
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers: await adminHeaders(request) });
    }
  });
});
