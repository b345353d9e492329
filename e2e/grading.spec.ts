import { expect, test, type Locator } from '@playwright/test';
import {
  addToGroup,
  adminHeaders,
  adminPage,
  apiAccount,
  expectAccessible,
  expectNotCutAtBothWidths,
  loginByApi,
  MEMBERS_GROUP_ID,
  ok,
  pupilProfile,
  screenshot,
  smallPdf,
  tag,
} from './fixtures.js';

test.describe('Correction', () => {
  test('[CORRECTEUR, ADMIN, ÉLÈVE] corrige par « copie suivante », corrige automatiquement, exporte, publie les notes', async ({
    page,
    request,
    browser,
  }) => {
    test.setTimeout(180_000);
    const admin = await adminHeaders(request);
    const title = `Olympiade ${tag()}`;

    // An online chapter open to everyone, three numeric exercises and one PDF exercise.
    const chapter = await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title } }));
    const chapterId = chapter._id;
    await ok(await request.patch(`/api/chapter/${chapterId}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
    const exercise = async (name: string, answerFormat: 'numeric' | 'pdf', answer: string | null) =>
      (
        await ok<{ _id: string }>(
          await request.post('/api/exos', {
            headers: admin,
            data: { title: name, answerFormat, chapter: chapterId, statementVersions: [{ content: `Énoncé de ${name} : $x^2$`, answer }] },
          }),
        )
      )._id;
    const ex1 = await exercise('Carrés', 'numeric', '4');
    const ex2 = await exercise('Cubes', 'numeric', '27');
    const ex3 = await exercise('Racines', 'numeric', '3');
    const exPdf = await exercise('Rédaction', 'pdf', null);

    // Three pupils answer; the first also uploads a PDF copy.
    const pupils = [
      await apiAccount(request, 'eleve-a', pupilProfile({ firstName: 'Alice', lastName: 'Abel' })),
      await apiAccount(request, 'eleve-b', pupilProfile({ firstName: 'Bruno', lastName: 'Bernoulli' })),
      await apiAccount(request, 'eleve-c', pupilProfile({ firstName: 'Chloé', lastName: 'Cauchy' })),
    ];
    const answersOf = [
      ['4', '27', '2'],
      ['5', '27', '3'],
      ['4', '26', '3'],
    ];
    for (const [i, pupil] of pupils.entries()) {
      for (const [k, exerciseId] of [ex1, ex2, ex3].entries()) {
        await ok(await request.post('/api/answer', { headers: pupil.headers, data: { exerciseId, answer: answersOf[i][k], seq: 1 } }));
      }
    }
    const upload = await ok<{ path: string }>(
      await request.post('/api/pdfs', {
        headers: pupils[0].headers,
        multipart: { exercise: exPdf, file: { name: 'copie.pdf', mimeType: 'application/pdf', buffer: await smallPdf('Copie d’Alice') } },
      }),
    );
    await ok(await request.post('/api/answer', { headers: pupils[0].headers, data: { exerciseId: exPdf, answer: upload.path, seq: 1 } }));

    // Before publication a pupil's history carries no grade.
    const member = await apiAccount(request, 'correcteur');
    await addToGroup(request, admin, MEMBERS_GROUP_ID, member.email);

    // The corrector grades the three answers of "Carrés" from the header's next-copy flow.
    await loginByApi(page, member.email);
    await page.goto(`/grader/${chapterId}`);
    await expect(page.getByRole('heading', { name: `Correction : ${title}` })).toBeVisible();
    await expect(page).toHaveTitle(`Correction : ${title} — Olympe`);
    await expect(page.getByRole('link', { name: 'Alice Abel, Carrés : à corriger' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Exporter en CSV' })).toHaveCount(0);
    await expectAccessible(page, '/grader/{id} (correcteur)');
    await expectNotCutAtBothWidths(page, '/grader/{id}', [
      ['« Nom »', page.getByRole('columnheader', { name: 'Nom', exact: true })],
      ['« Prénom »', page.getByRole('columnheader', { name: 'Prénom', exact: true })],
      ['« TOT »', page.getByRole('columnheader', { name: /^TOT/ })],
      ...['Carrés', 'Cubes', 'Racines'].map(
        (name) => [`« ${name} »`, page.getByRole('button', { name: `Corriger la copie suivante : ${name}` })] as [string, Locator],
      ),
    ]);
    await page.getByRole('button', { name: 'Corriger la copie suivante : Carrés' }).click();

    const gradeOne = async (grade: string, options: { comment?: string; hide?: boolean } = {}) => {
      await expect(page).toHaveURL(new RegExp(`/history/[0-9a-f-]{36}/${ex1}$`));
      await expect(page.getByRole('heading', { name: 'Résultat' })).toBeVisible();
      const status = page.getByRole('status').filter({ hasText: /Enregistr|attente|invalide/ });
      await page.getByRole('textbox', { name: 'Note' }).fill(grade);
      if (options.comment) {
        await page.getByRole('button', { name: 'Modifier : Commentaire général' }).click();
        const area = page.getByRole('textbox', { name: 'Commentaire général' });
        await area.fill(options.comment);
        await area.press('Tab');
        const shown = page.getByRole('button', { name: 'Modifier : Commentaire général' });
        if (options.comment.includes('$')) await expect(shown.locator('.katex').first()).toBeVisible();
        else await expect(shown).toContainText(options.comment);
      }
      if (options.hide) await page.getByRole('checkbox', { name: 'Cacher la copie' }).check();
      await expect(status).toHaveText(/Enregistré/);
      return new URL(page.url()).pathname.split('/')[2];
    };
    const graded = new Map<string, string>();
    graded.set(await gradeOne('1', { comment: 'Très bien : $\\sqrt{16} = 4$.' }), '1');
    await expectAccessible(page, '/history/{u}/{e} (correcteur)', { labelInName: true });
    await page.screenshot({ path: screenshot('history-grading.png'), fullPage: true });
    await page.getByRole('button', { name: 'Copie suivante' }).click();
    await expect.poll(() => new URL(page.url()).pathname.split('/')[2]).not.toBe([...graded.keys()][0]);
    graded.set(await gradeOne('0', { hide: true }), '0');
    await page.getByRole('button', { name: 'Copie suivante' }).click();
    await expect.poll(() => graded.has(new URL(page.url()).pathname.split('/')[2])).toBe(false);
    const longComment = 'Juste, mais la dernière ligne mériterait une justification.';
    graded.set(await gradeOne('1', { comment: longComment }), '1');
    expect(graded.size).toBe(3);
    // Nothing is left to grade on this exercise.
    await page.getByRole('button', { name: 'Copie suivante' }).click();
    await expect(page.getByText(/Aucune copie à corriger pour cet exercice/).first()).toBeVisible();

    // The table shows the three grades; the grade of Bruno (5 ≠ 4) is 0.
    await page.goto(`/grader/${chapterId}`);
    await expect(page.getByRole('link', { name: 'Alice Abel, Carrés : note 1' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Bruno Bernoulli, Carrés : note 0' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Chloé Cauchy, Carrés : note 1' })).toBeVisible();

    // Review: the three corrections with the comment cut at 40 characters.
    await page.getByRole('link', { name: 'Revue' }).click();
    await expect(page.getByRole('heading', { name: 'Aperçu des corrections' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Voir la copie de Alice Abel, Carrés/ })).toBeVisible();
    await expectAccessible(page, '/overview/{id}');
    // A keyboard user on a row reads its cells whole, as the mouse does by hovering (decision 141).
    const longRow = page.getByRole('row').filter({ hasText: 'Juste, mais la dernière ligne mériterait…' });
    const whole = longRow.getByText(longComment, { exact: true });
    await expect(whole).toBeHidden();
    // Reached with the keyboard (Tab back to it): a mouse press on the row's link leaves the row as it is.
    await longRow.getByRole('link').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(longRow.getByRole('link')).toBeFocused();
    await expect(whole).toBeVisible();
    await expect(longRow.getByText('Juste, mais la dernière ligne mériterait…', { exact: true })).toBeHidden();

    // The PDF copy in the viewer: pages drawn on canvases.
    await page.goto(`/viewer/${upload.path}`);
    await expect(page.getByRole('heading', { name: 'Visualisateur' })).toBeVisible();
    await expect(page.locator('canvas').first()).toBeVisible({ timeout: 20_000 });
    await expectAccessible(page, '/viewer/{path}');

    // The admin runs the automatic correction (Cubes, Racines) and exports the CSV.
    const adminContext = await browser.newContext();
    const adminTab = await adminContext.newPage();
    try {
      await adminPage(adminTab);
      await adminTab.goto(`/grader/${chapterId}`);
      await expect(adminTab.getByRole('link', { name: 'Alice Abel, Cubes : à corriger' })).toBeVisible();
      await adminTab.getByRole('button', { name: 'Correction automatique' }).click();
      // Decision 69: it asks first, with the count of copies it will grade.
      await adminTab
        .getByRole('dialog', { name: 'Lancer la correction automatique ?' })
        .getByRole('button', { name: 'Lancer la correction' })
        .click();
      await expect(adminTab.getByRole('link', { name: 'Alice Abel, Cubes : note 1' })).toBeVisible();
      await expect(adminTab.getByRole('link', { name: 'Chloé Cauchy, Cubes : note 0' })).toBeVisible();
      await expect(adminTab.getByRole('link', { name: 'Alice Abel, Racines : note 0' })).toBeVisible();
      // A person's grade is never overwritten: Bruno keeps the 0 given by hand on "Carrés".
      await expect(adminTab.getByRole('link', { name: 'Bruno Bernoulli, Carrés : note 0' })).toBeVisible();
      await expectAccessible(adminTab, '/grader/{id} (admin)');
      await expectNotCutAtBothWidths(adminTab, '/grader/{id} (admin)', [
        ['« Correction automatique »', adminTab.getByRole('button', { name: 'Correction automatique' })],
        ['« Exporter en CSV »', adminTab.getByRole('button', { name: 'Exporter en CSV' })],
      ]);
      const [download] = await Promise.all([
        adminTab.waitForEvent('download'),
        adminTab.getByRole('button', { name: 'Exporter en CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${title}_results.csv`);
      const csv = (await download.createReadStream()).setEncoding('utf8');
      let text = '';
      for await (const chunk of csv) text += chunk;
      const lines = text
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      expect(lines).toHaveLength(4);
      const alice = lines.find((l) => l.includes('"Abel"'));
      // Alice: Carrés 1 (by hand), Cubes 1, Racines 0 (automatic): total 2.
      expect(alice).toBeDefined();
      expect(alice!.split(';')).toEqual(expect.arrayContaining(['"1"', '"0"', '"2"']));
    } finally {
      await adminContext.close();
    }

    // The pupil sees no score before "Notes publiées"; then the scores and the comment.
    const pupilContext = await browser.newContext();
    const pupilTab = await pupilContext.newPage();
    try {
      await loginByApi(pupilTab, pupils[0].email);
      await pupilTab.goto(`/chapter/${chapterId}`);
      await expect(pupilTab.getByRole('heading', { name: 'Carrés' })).toBeVisible();
      await expect(pupilTab.getByText(/Score/)).toHaveCount(0);
      const early = await request.get(`/api/answer/history/${pupils[0].id}/${ex1}`, { headers: pupils[0].headers });
      expect(JSON.stringify(await early.json())).not.toContain('sqrt');

      // Decision 152: the three pupils who answered may still answer (a window without an end): the admin confirms them.
      await ok(await request.patch(`/api/chapter/${chapterId}`, { headers: admin, data: { analysis: true, confirm: 3 } }));
      await pupilTab.reload();
      await expect(pupilTab.getByText('Score total : 2')).toBeVisible();
      await expect(pupilTab.getByText('Score : 1').first()).toBeVisible();
      await expect(pupilTab.getByText('Commentaire :').first()).toBeVisible();
      await expect(pupilTab.locator('.katex').first()).toBeVisible();
      await expectAccessible(pupilTab, '/chapter/{id} (notes publiées)');
      await pupilTab.screenshot({ path: screenshot('chapter-published.png'), fullPage: true });
      // Her own history, read-only: the grade and the published comment.
      await pupilTab.goto(`/history/${pupils[0].id}/${ex1}`);
      await expect(pupilTab.getByRole('heading', { name: 'Résultat' })).toBeVisible();
      await expect(pupilTab.getByRole('textbox', { name: 'Note' })).toHaveCount(0);
      await expectAccessible(pupilTab, '/history/{u}/{e} (élève, lecture seule)', { labelInName: true });
      await pupilTab.setViewportSize({ width: 375, height: 800 });
      await pupilTab.screenshot({ path: screenshot('history-pupil-375.png'), fullPage: true });
      await pupilTab.setViewportSize({ width: 1280, height: 720 });
      // Another pupil's history stays closed to her.
      const other = await request.get(`/api/answer/history/${pupils[1].id}/${ex1}`, { headers: pupils[0].headers });
      expect(other.status()).toBe(403);
    } finally {
      await pupilContext.close();
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
    }
  });
});
