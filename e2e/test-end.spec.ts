import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  addToGroup,
  adminHeaders,
  adminPage,
  apiAccount,
  expectAccessible,
  loginByApi,
  ok,
  pupilProfile,
  screenshot,
  smallPdf,
  tag,
} from './fixtures.js';

/**
 * The end of a timed test and a pupil's own time: extra time set on the members list shows in the
 * start confirmation and on the page; an incident extension reopens a test whose time was up; a
 * pupil finishes early, gets a receipt with a code staff recompute, and prints it alone.
 */

const HOUR = 3600_000;

async function timedChapter(request: APIRequestContext, admin: Record<string, string>, title: string, minutes = 60) {
  const { _id: chapterId } = await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title } }));
  await setWindow(request, admin, chapterId, minutes, new Date(Date.now() + 24 * HOUR));
  const numeric = await ok<{ _id: string }>(
    await request.post('/api/exos', {
      headers: admin,
      data: {
        title: 'Moitié',
        answerFormat: 'numeric',
        chapter: chapterId,
        // Markdown and LaTeX: the page must never show them raw while KaTeX loads.
        statementVersions: [{ content: 'Vous avez **60 minutes**. Combien vaut $\\frac{1}{2}$ ?', answer: '0,5' }],
      },
    }),
  );
  const pdf = await ok<{ _id: string }>(
    await request.post('/api/exos', {
      headers: admin,
      data: {
        title: 'Démonstration',
        answerFormat: 'pdf',
        chapter: chapterId,
        statementVersions: [{ content: 'Démontrez que $1 + 1 = 2$.' }],
      },
    }),
  );
  return { chapterId, numericId: numeric._id, pdfId: pdf._id };
}

async function setWindow(request: APIRequestContext, admin: Record<string, string>, chapterId: string, minutes: number, accessEnd: Date) {
  await ok(
    await request.patch(`/api/chapter/${chapterId}`, {
      headers: admin,
      data: {
        groups: [
          {
            name: 'tous',
            timeDuration: minutes,
            accessStart: new Date(Date.now() - 2 * HOUR).toISOString(),
            accessEnd: accessEnd.toISOString(),
          },
        ],
      },
    }),
  );
}

test.describe('Fin d’une épreuve chronométrée', () => {
  test('[ADMIN][ÉLÈVE] un tiers-temps de 33 % allonge l’épreuve annoncée ; une prolongation rouvre une épreuve finie', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(150_000);
    const admin = await adminHeaders(request);
    const title = `Tour tiers-temps ${tag()}`;
    const { chapterId, numericId } = await timedChapter(request, admin, title);
    const { _id: groupId } = await ok<{ _id: string }>(
      await request.post('/api/group', { headers: admin, data: { name: `Tiers-temps ${tag()}` } }),
    );
    try {
      const pupil = await apiAccount(request, 'tiers-temps', pupilProfile({ firstName: 'Ada', lastName: 'Byron' }));
      await addToGroup(request, admin, groupId, pupil.email);

      // The admin sets 33 % on the members list (« Tiers-temps » column, dialog).
      const adminContext = await browser.newContext();
      const adminTab = await adminContext.newPage();
      await adminPage(adminTab);
      await adminTab.goto(`/users/${groupId}`);
      await adminTab.getByRole('button', { name: 'Temps supplémentaire de Ada Byron : —' }).click();
      const dialog = adminTab.getByRole('dialog', { name: 'Temps supplémentaire de Ada Byron' });
      await dialog.getByRole('textbox', { name: 'Temps supplémentaire (%)' }).fill('33');
      await dialog.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(adminTab.getByRole('button', { name: 'Temps supplémentaire de Ada Byron : 33\u202f%' })).toBeVisible();

      // The pupil's page says it, and the start confirmation gives 60 min × 1,33 = 1 h 20.
      await loginByApi(page, pupil.email);
      await page.goto(`/chapter/${chapterId}`);
      const extraLine = 'Temps supplémentaire : 33\u202f% (inclus dans la durée affichée)';
      await expect(page.getByText(extraLine)).toBeVisible();
      await page.getByRole('button', { name: 'Commencer l’épreuve en temps limité' }).click();
      const confirm = page.getByRole('dialog', { name: 'Commencer l’épreuve ?' });
      await expect(confirm).toContainText(/Vous aurez 1\sh\s20\s: l’épreuve se terminera (le \d{1,2} \S+ \d{4} )?à/);
      await expect(confirm.getByText(extraLine)).toBeVisible();
      await expectAccessible(page, 'confirmation du départ avec tiers-temps');
      await page.screenshot({ path: screenshot('extra-time-confirm.png') });
      await confirm.getByRole('button', { name: 'Commencer maintenant' }).click();
      await expect(page.getByRole('timer')).toHaveText(/Temps restant\s: (79:\d{2}|80:00)/);
      await expect(page.getByText(extraLine)).toBeVisible();
      await page.getByRole('textbox', { name: 'Votre réponse :' }).fill('0,5');
      await expect(page.getByTestId(`save-state-${numericId}`)).toHaveText('Enregistré');

      // Time is up for her: the window closed 25 minutes ago (her 20 minutes more are past too).
      await setWindow(request, admin, chapterId, 60, new Date(Date.now() - 25 * 60_000));
      await page.reload();
      await expect(page.getByText('L’épreuve est terminée. Les résultats seront bientôt publiés sur cette page.')).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Reçu de vos réponses' })).toBeVisible();
      const late = await request.post('/api/answer', {
        headers: pupil.headers,
        data: { exerciseId: numericId, answer: '1', seq: Date.now() },
      });
      expect(late.status()).toBe(403);

      // An incident: the admin adds 10 minutes on the live page, by e-mail.
      await adminTab.goto(`/live/${chapterId}`);
      await adminTab.getByRole('textbox', { name: 'E-mail de l’élève' }).fill(pupil.email);
      await adminTab.getByRole('textbox', { name: 'Minutes ajoutées' }).fill('10');
      await adminTab.getByRole('textbox', { name: 'Raison' }).fill('Coupure de courant dans la salle');
      await adminTab.getByRole('button', { name: 'Ajouter la prolongation' }).click();
      await expect(adminTab.getByRole('table', { name: 'Prolongations' })).toContainText('Coupure de courant dans la salle');
      await expectAccessible(adminTab, '/live/{id} (prolongation ajoutée)');
      await adminContext.close();

      // She can answer again, for the minutes left (about 5: her window end + 20 + 10 minutes).
      await page.reload();
      await expect(page.getByRole('timer')).toHaveText(/Temps restant\s: 0[45]:\d{2}/);
      await page.getByRole('textbox', { name: 'Votre réponse :' }).fill('1/2');
      await expect(page.getByTestId(`save-state-${numericId}`)).toHaveText('Enregistré');
      const answers = await ok<Array<{ exercise: string; answer: string }>>(
        await request.get(`/api/answer/chapter/${chapterId}`, { headers: pupil.headers }),
      );
      expect(answers.find((a) => a.exercise === numericId)?.answer).toBe('1/2');
      await expectAccessible(page, 'épreuve rouverte par une prolongation');
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
      await request.delete(`/api/group/${groupId}`, { headers: admin });
    }
  });

  test('[ÉLÈVE] termine l’épreuve en avance, voit le reçu de ses réponses et l’imprime ; l’admin retrouve le même code', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const admin = await adminHeaders(request);
    const { chapterId, numericId, pdfId } = await timedChapter(request, admin, `Tour à terminer ${tag()}`);
    try {
      const pupil = await apiAccount(request, 'recu', pupilProfile({ firstName: 'Sophie', lastName: 'Germain' }));
      await loginByApi(page, pupil.email);

      // The statement never shows its raw source: it comes drawn by the server (decision 122), so there is no
      // placeholder either, and KaTeX's code is never requested.
      const rawSeen: string[] = [];
      await page.exposeFunction('reportText', (text: string) => void rawSeen.push(text));
      await page.addInitScript(() => {
        new MutationObserver(() => {
          const text = document.body?.innerText ?? '';
          if (text.includes('\\frac') || text.includes('**60')) (window as unknown as { reportText: (t: string) => void }).reportText(text);
        }).observe(document, { childList: true, subtree: true, characterData: true });
      });
      const mathCode: string[] = [];
      page.on('request', (r) => {
        if (/math-render/.test(r.url())) mathCode.push(r.url());
      });
      await page.goto(`/chapter/${chapterId}`);
      await page.getByRole('button', { name: 'Commencer l’épreuve en temps limité' }).click();
      await page.getByRole('dialog', { name: 'Commencer l’épreuve ?' }).getByRole('button', { name: 'Commencer maintenant' }).click();
      await expect(page.locator('.katex').first()).toBeVisible();
      await expect(page.getByText('60 minutes', { exact: true })).toBeVisible();
      await expect(page.getByRole('status', { name: 'Chargement de l’énoncé' })).toHaveCount(0);
      await expectAccessible(page, 'énoncé dessiné par le serveur', { labelInName: true });
      expect(rawSeen).toEqual([]);
      expect(mathCode).toEqual([]);

      await page.getByRole('textbox', { name: 'Votre réponse :' }).fill('0,5');
      await expect(page.getByTestId(`save-state-${numericId}`)).toHaveText('Enregistré');
      // A copy, then « Voir la copie » keeps her in the test: the way back and the time left.
      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: 'copie.pdf', mimeType: 'application/pdf', buffer: await smallPdf('Ma preuve') });
      await page.getByRole('button', { name: 'Téléverser' }).click();
      await page.getByRole('link', { name: 'Voir la copie' }).click();
      await expect(page).toHaveURL(new RegExp(`/history/.+/${pdfId}\\?epreuve=${chapterId}$`));
      const back = page.getByRole('link', { name: 'Retour à l’épreuve' });
      await expect(back).toBeVisible();
      await expect(page.getByTestId('return-countdown')).toHaveText(/Temps restant\s: (59|60):\d{2}/);
      await expectAccessible(page, '/history pendant l’épreuve');
      await page
        .getByRole('link', { name: /Visualiser/ })
        .first()
        .click();
      await expect(page).toHaveURL(new RegExp(`/viewer/pdfs/.+\\.pdf\\?epreuve=${chapterId}$`));
      await expect(page.getByTestId('return-countdown')).toHaveText(/Temps restant\s: (59|60):\d{2}/);
      await expectAccessible(page, '/viewer pendant l’épreuve');
      await page.getByRole('link', { name: 'Retour à l’épreuve' }).click();
      await expect(page).toHaveURL(new RegExp(`/chapter/${chapterId}$`));

      // « Terminer l'épreuve »: a confirmation first.
      await page.getByRole('button', { name: 'Terminer l’épreuve' }).click();
      const finish = page.getByRole('dialog', { name: 'Terminer l’épreuve ?' });
      await expect(finish).toContainText('lecture seule : vous ne pourrez plus les modifier ensuite');
      await expectAccessible(page, 'confirmation de fin');
      await finish.getByRole('button', { name: 'Terminer maintenant' }).click();

      const receipt = page.getByTestId('receipt');
      await expect(receipt.getByRole('heading', { name: 'Reçu de vos réponses' })).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'Votre réponse :' })).toHaveCount(0);
      const table = receipt.getByRole('table', { name: 'Reçu de vos réponses' });
      await expect(table.getByRole('row').nth(1)).toContainText('1. Moitié0,5');
      await expect(table.getByRole('row').nth(2)).toContainText('2. Démonstrationcopie PDF');
      const code = (await page.getByTestId('receipt-code').textContent()) ?? '';
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/);
      await expectAccessible(page, 'reçu après la fin');
      const refused = await request.post('/api/answer', {
        headers: pupil.headers,
        data: { exerciseId: numericId, answer: '2', seq: Date.now() },
      });
      expect(refused.status()).toBe(403);
      expect((await refused.json()).message).toBe('L’épreuve est terminée.');

      // Staff recompute the same code from the database.
      const checked = await ok<{ code: string }>(
        await request.get(`/api/chapter/receipt/${chapterId}?user=${pupil.id}`, { headers: admin }),
      );
      expect(checked.code).toBe(code);

      // The receipt stays after a reload, and prints alone (screen and print media, phone and desktop).
      await page.reload();
      await expect(page.getByTestId('receipt-code')).toHaveText(code);
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        // Loaded at that width: the navigation is laid out for it, not caught mid-transition.
        await page.reload();
        await expect(page.getByTestId('receipt-code')).toHaveText(code);
        await page.screenshot({ path: screenshot(`receipt-${width}.png`), fullPage: true });
        // Nothing in the receipt is wider than its box (no sideways scrolling on a phone).
        expect(await receipt.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        await page.emulateMedia({ media: 'print' });
        await expect(page.getByRole('button', { name: 'Imprimer le reçu' })).toBeHidden();
        await expect(page.getByRole('heading', { name: 'Reçu de vos réponses' })).toBeVisible();
        await page.screenshot({ path: screenshot(`receipt-print-${width}.png`), fullPage: true });
        await page.emulateMedia({ media: 'screen' });
      }
      // page.pdf prints with the print stylesheet unless screen media is emulated.
      await page.emulateMedia({ media: null });
      await page.pdf({ path: screenshot('receipt.pdf'), format: 'A4', printBackground: true });
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
    }
  });
});
