import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { adminHeaders, adminPage, apiAccount, expectAccessible, loginByApi, ok, pupilProfile, screenshot, tag } from './fixtures.js';

test.describe('Résultats', () => {
  test('[ADMIN][ÉLÈVE] publie avec aperçu, l’élève voit sa carte de résultats et télécharge son attestation', async ({
    page,
    request,
    browser,
  }) => {
    test.setTimeout(180_000);
    const admin = await adminHeaders(request);
    const title = `Finale ${tag()}`;

    // An online chapter open to everyone, two numeric exercises worth 4 and 6, two pupils who answered.
    const chapter = await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title } }));
    const chapterId = chapter._id;
    await ok(await request.patch(`/api/chapter/${chapterId}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
    const exercise = async (name: string, answer: string, maxPoints: number) =>
      (
        await ok<{ _id: string }>(
          await request.post('/api/exos', {
            headers: admin,
            data: {
              title: name,
              answerFormat: 'numeric',
              chapter: chapterId,
              maxPoints,
              statementVersions: [{ content: `Énoncé de ${name}`, answer }],
            },
          }),
        )
      )._id;
    const squares = await exercise('Somme des carrés', '385', 4);
    const circle = await exercise('Triangle et cercle', '5', 6);
    const alice = await apiAccount(request, 'resultats-a', pupilProfile({ firstName: 'Alice', lastName: 'Abel' }));
    const bruno = await apiAccount(request, 'resultats-b', pupilProfile({ firstName: 'Bruno', lastName: 'Bernoulli' }));
    for (const [pupil, answers] of [
      [alice, ['385', '5']],
      [bruno, ['385', '4']],
    ] as const) {
      await ok(await request.post('/api/answer', { headers: pupil.headers, data: { exerciseId: squares, answer: answers[0], seq: 1 } }));
      await ok(await request.post('/api/answer', { headers: pupil.headers, data: { exerciseId: circle, answer: answers[1], seq: 1 } }));
    }
    await ok(await request.post(`/api/answer/auto/${chapterId}`, { headers: admin }));

    // Before publication the pupil's results are refused with the French message.
    const early = await request.get(`/api/results/${chapterId}`, { headers: alice.headers });
    expect(early.status()).toBe(403);
    expect((await early.json()).message).toBe('Les résultats de cette épreuve ne sont pas encore publiés.');

    // The admin opens the publication dialog from /chapters, sets the options, previews Alice's card.
    await adminPage(page);
    await page.goto('/chapters');
    await page.getByRole('button', { name: `Publication des résultats du chapitre ${title}` }).click();
    const dialog = page.getByRole('dialog', { name: `Publication des résultats : ${title}` });
    await expect(dialog.getByText('Résultats non publiés.')).toBeVisible();
    await dialog.getByLabel('Publier maintenant').check();
    await dialog.getByLabel('Montrer aux élèves leur rang et leur centile').check();
    await dialog.getByLabel('Seuil de qualification (points)').fill('8');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    const confirm = page.getByRole('dialog', { name: 'Publier les résultats ?' });
    await expect(confirm.getByText(/^2\u00a0élèves verront leurs notes/)).toBeVisible();
    await expectAccessible(page, '/chapters (confirmation de publication)');
    await confirm.getByRole('button', { name: 'Publier' }).click();
    await expect(confirm).toHaveCount(0);
    // Decision 139: the window has no end and both pupils began, so they may still answer: the admin confirms.
    const stillAnswering = page.getByRole('dialog', { name: 'Des élèves peuvent encore répondre' });
    await expect(stillAnswering.getByText(/^2\u00a0élèves peuvent encore répondre/)).toBeVisible();
    await stillAnswering.getByRole('button', { name: 'Publier quand même' }).click();
    await expect(stillAnswering).toHaveCount(0);

    // Reopened: published, and the preview of Alice's card as she will read it.
    await page.getByRole('button', { name: `Publication des résultats du chapitre ${title}` }).click();
    await expect(dialog.getByText('Résultats publiés.')).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Aperçu pour un élève' }).fill('Abel');
    await page.getByRole('option', { name: 'Abel Alice' }).click();
    const preview = dialog.getByRole('region', { name: 'Aperçu de la carte de résultats' });
    await expect(preview.getByText('Total : 10\u00a0/\u00a010')).toBeVisible();
    await expect(preview.getByText('Rang : 1er sur 2')).toBeVisible();
    await expect(preview.getByText('Qualifié(e) pour le tour suivant')).toBeVisible();
    await expectAccessible(page, '/chapters (publication et aperçu)');
    await page.screenshot({ path: screenshot('results-publication-preview.png'), fullPage: true });
    // A threshold typed but not saved: the preview already shows its effect; one above the chapter's 10 points is
    // refused as typed (decision 139), and a French decimal is read as one (« 9,5 »: Alice's 10 points qualify).
    await dialog.getByLabel('Seuil de qualification (points)').fill('11');
    await expect(dialog.getByText('Au plus 10 points.')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Enregistrer' })).toBeDisabled();
    await dialog.getByLabel('Seuil de qualification (points)').fill('9,5');
    await expect(preview.getByText('Qualifié(e) pour le tour suivant')).toBeVisible();
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await expect(dialog).toHaveCount(0);

    // The whole chapter's grades as a spreadsheet, from the grading page.
    await page.goto(`/grader/${chapterId}`);
    const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exporter en XLSX' }).click()]);
    expect(xlsx.suggestedFilename()).toBe(`Notes - ${title}.xlsx`);
    expect(
      readFileSync(await xlsx.path())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');

    // Bruno reads his card (second, not qualified: 4 + 0 = 4 < 8) and downloads his certificate.
    const pupilContext = await browser.newContext();
    const pupilTab = await pupilContext.newPage();
    try {
      await loginByApi(pupilTab, bruno.email);
      await pupilTab.goto(`/chapter/${chapterId}`);
      const card = pupilTab.getByRole('region', { name: 'Vos résultats' });
      // A loaded shared machine: the first page load may take a while.
      await expect(card).toBeVisible({ timeout: 30_000 });
      await expect(card.getByText('Total : 4\u00a0/\u00a010')).toBeVisible();
      await expect(card.getByText('Rang : 2e sur 2')).toBeVisible();
      await expect(card.getByText('Pas de qualification pour le tour suivant.')).toBeVisible();
      await expect(card.getByRole('row', { name: /Triangle et cercle/ })).toContainText('0\u00a0/\u00a06');
      await expectAccessible(pupilTab, '/chapter/{id} (carte de résultats)');
      for (const width of [1280, 375]) {
        await pupilTab.setViewportSize({ width, height: 800 });
        await pupilTab.screenshot({ path: screenshot(`results-card-${width}.png`), fullPage: true });
      }
      const download = pupilTab.waitForEvent('download');
      await pupilTab.getByRole('button', { name: 'Télécharger mon attestation' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`Attestation - ${title}.pdf`);
      const bytes = await (await import('node:fs/promises')).readFile((await file.path())!);
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      // Another pupil's certificate is refused.
      const other = await pupilTab.request.get(`/api/results/${chapterId}/certificate.pdf?user=${alice.id}`, { headers: bruno.headers });
      expect(other.status()).toBe(403);
    } finally {
      await pupilContext.close();
    }
  });
});
