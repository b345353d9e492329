import { expect as baseExpect, test, type Browser, type Locator, type Page } from '@playwright/test';
import {
  addToGroup,
  adminHeaders,
  adminPage,
  apiAccount,
  expectAccessible,
  expectNotCut,
  loginByApi,
  MEMBERS_GROUP_ID,
  ok,
  pupilProfile,
  screenshot,
  smallPdf,
  tag,
} from './fixtures.js';

// The machine is shared: a lazy page chunk can take seconds to arrive under load.
const expect = baseExpect.configure({ timeout: 15_000 });

/** A logged-in page of its own (one browser context per person: correctors never share a session). */
async function pageAs(browser: Browser, email: string | null): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  if (email) await loginByApi(page, email);
  else await adminPage(page);
  return page;
}

const EXERCISE = 'Somme des carrés des douze premiers entiers naturels';

test.describe('Double correction', () => {
  test('[CORRECTEUR, CORRECTEUR, ADMIN] corrigent à l’aveugle deux fois une copie anonyme, puis l’administrateur arbitre', async ({
    request,
    browser,
  }) => {
    // Three people, axe at both widths on five states: minutes on a shared machine.
    test.setTimeout(480_000);
    const admin = await adminHeaders(request);
    const title = `Double ${tag()}`;

    // An online chapter in anonymous double correction (tolerance 1 point), one PDF exercise on 4 points with a scheme.
    const chapter = await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title } }));
    const chapterId = chapter._id;
    await ok(await request.patch(`/api/chapter/${chapterId}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
    await ok(
      await request.patch(`/api/chapter/${chapterId}`, {
        headers: admin,
        data: { anonymousGrading: true, doubleGrading: true, gradingTolerance: 1 },
      }),
    );
    const exercise = await ok<{ _id: string }>(
      await request.post('/api/exos', {
        headers: admin,
        data: {
          title: EXERCISE,
          answerFormat: 'pdf',
          chapter: chapterId,
          statementVersions: [{ content: 'Montrer que $\\sum_{k=1}^{12} k^2 = 650$.', answer: null }],
          maxPoints: 4,
          schemeItems: [
            { text: 'Formule de la somme', points: 1 },
            { text: 'Récurrence', points: 2 },
            { text: 'Calcul final', points: 1 },
          ],
        },
      }),
    );

    // One pupil uploads a copy.
    const pupil = await apiAccount(request, 'eleve-double', pupilProfile({ firstName: 'Alice', lastName: 'Abel' }));
    const upload = await ok<{ path: string }>(
      await request.post('/api/pdfs', {
        headers: pupil.headers,
        multipart: {
          exercise: exercise._id,
          file: { name: 'copie.pdf', mimeType: 'application/pdf', buffer: await smallPdf('Copie d’Alice : 650') },
        },
      }),
    );
    await ok(
      await request.post('/api/answer', { headers: pupil.headers, data: { exerciseId: exercise._id, answer: upload.path, seq: 1 } }),
    );

    const first = await apiAccount(request, 'correcteur-1', { firstName: 'Paul', lastName: 'Premier' });
    const second = await apiAccount(request, 'correcteur-2', { firstName: 'Sophie', lastName: 'Second' });
    await addToGroup(request, admin, MEMBERS_GROUP_ID, first.email);
    await addToGroup(request, admin, MEMBERS_GROUP_ID, second.email);

    // First corrector: the table shows a pseudonym, never the pupil's name.
    const p1 = await pageAs(browser, first.email);
    await p1.goto(`/grader/${chapterId}`);
    await expect(p1.getByRole('heading', { name: `Correction : ${title}` })).toBeVisible();
    await expect(p1.getByRole('link', { name: /^Copie \d{4}, .*\s: à corriger$/ })).toBeVisible();
    await expect(p1.getByText('Abel')).toHaveCount(0);
    await expect(p1.getByRole('columnheader', { name: 'TOT sur 4' })).toBeVisible();
    await expect(p1.getByRole('table', { name: 'Double correction : copies par nombre de corrections' })).toBeVisible();
    await expectAccessible(p1, 'grader (correcteur, anonyme)');
    await p1.screenshot({ path: screenshot('double-grader-corrector-1280.png'), fullPage: true });

    // The desk: statement, points, scheme; « Non corrigé » and never « Enregistré » before a save.
    await p1.getByRole('button', { name: `Corriger la copie suivante : ${EXERCISE}` }).click();
    await expect(p1.getByRole('heading', { level: 1, name: new RegExp(`^Copie \\d{4} — ${EXERCISE}$`) })).toBeVisible();
    await expect(p1.getByText('Alice')).toHaveCount(0);
    await expect(p1.getByRole('heading', { name: 'Énoncé' })).toBeVisible();
    await expect(p1.getByText(/Version 1 · noté sur 4/)).toBeVisible();
    await expect(p1.getByRole('link', { name: title })).toHaveAttribute('href', `/grader/${chapterId}`);
    await expect(p1.getByText('Première correction', { exact: false })).toBeVisible();
    const status1 = p1.getByTestId('grade-status');
    await expect(status1).toHaveText(/Non corrigé/);
    await expect(status1).not.toContainText('Enregistré');
    await expect(p1.getByRole('img', { name: 'Copie, page 1 sur 1' })).toBeVisible();
    await expectAccessible(p1, 'history (desk, avant correction)', { labelInName: true });

    // Zoom: the page is drawn again wider (sharp), and « Ajuster à la largeur » brings it back.
    const canvas = p1.getByRole('img', { name: 'Copie, page 1 sur 1' });
    // Measured against the scroll region (the view), not a width read while the page may still be resizing.
    const ratio = () => canvas.evaluate((c) => c.getBoundingClientRect().width / c.closest('[role="region"]')!.clientWidth);
    await p1.getByRole('button', { name: 'Zoom avant' }).click();
    await expect(p1.getByTestId('pdf-zoom')).toHaveText('125\u202f%');
    await expect.poll(ratio).toBeGreaterThan(1.2);
    // Drawn again at the zoom (bitmap as wide as its CSS box times the device ratio), not stretched.
    await expect.poll(() => canvas.evaluate((c) => (c as HTMLCanvasElement).width / c.getBoundingClientRect().width)).toBeGreaterThan(0.95);
    await p1.getByRole('button', { name: 'Ajuster à la largeur' }).click();
    await expect(p1.getByTestId('pdf-zoom')).toHaveText('100\u202f%');

    // Keyboard only: tick two scheme items with Space; the grade is their sum (3).
    await p1.getByRole('checkbox', { name: 'Formule de la somme : 1 pt' }).focus();
    await p1.keyboard.press('Space');
    // Past the item's « Placer sur la copie » (decision 159) to the next item's box.
    await p1.keyboard.press('Tab');
    await p1.keyboard.press('Tab');
    await expect(p1.locator(':focus')).toHaveAttribute('type', 'checkbox');
    await p1.keyboard.press('Space');
    await expect(p1.getByRole('textbox', { name: 'Note' })).toHaveValue('3');
    await expect(status1).toHaveText(/Enregistré/);
    // The desk reads the copy again after the save: its double-correction state follows.
    await expect(p1.getByText('Une correction sur deux')).toBeVisible();
    await expect(p1.getByText('Pas encore corrigée')).toHaveCount(0);
    await expect(p1.getByRole('button', { name: 'Copie suivante' })).toBeVisible();
    await expectAccessible(p1, 'history (desk, enregistré)', { labelInName: true });
    await p1.screenshot({ path: screenshot('double-desk-1280.png'), fullPage: true });
    await p1.setViewportSize({ width: 375, height: 800 });
    await p1.screenshot({ path: screenshot('double-desk-375.png'), fullPage: true });

    // Second corrector: gets the same copy, blind (no trace of the first grade), types 0.5 and leaves with Ctrl + Entrée.
    const p2 = await pageAs(browser, second.email);
    await p2.goto(`/grader/${chapterId}`);
    await p2.getByRole('button', { name: `Corriger la copie suivante : ${EXERCISE}` }).click();
    await expect(p2.getByText('Deuxième correction', { exact: false })).toBeVisible();
    await expect(p2.getByRole('table', { name: 'Corrections de cette copie' })).toHaveCount(0);
    await expect(p2.getByRole('textbox', { name: 'Note' })).toHaveValue('');
    await p2.getByRole('textbox', { name: 'Note' }).fill('0.5');
    await p2.keyboard.press('Control+Enter');
    // Nothing left for this corrector: the server says so, the copy stays, its grade saved.
    await expect(p2.getByTestId('grade-status')).toHaveText(/Enregistré/);
    await expectAccessible(p2, 'history (deuxième correction)', { labelInName: true });

    // 3 and 0,5 are 2,5 apart (tolerance 1): the admin sees « ≠ », the names, and the arbitration list.
    const pa = await pageAs(browser, null);
    await pa.goto(`/grader/${chapterId}`);
    await expect(pa.getByRole('link', { name: `Alice Abel, ${EXERCISE} : à arbitrer (≠)` })).toBeVisible();
    await expect(pa.getByRole('heading', { name: 'À arbitrer (1)' })).toBeVisible();
    await expect(pa.getByRole('table', { name: 'Avancement par correcteur' })).toContainText('Sophie Second');
    await expectAccessible(pa, 'grader (admin, arbitrage)');
    await pa.screenshot({ path: screenshot('double-grader-admin-1280.png'), fullPage: true });
    await pa.setViewportSize({ width: 375, height: 800 });
    await pa.screenshot({ path: screenshot('double-grader-admin-375.png'), fullPage: true });
    await pa.setViewportSize({ width: 1280, height: 900 });

    // The admin opens it from the list, sees both gradings, and settles it at 2.
    await pa.getByRole('link', { name: `Alice Abel — ${EXERCISE}` }).click();
    await expect(pa.getByText('Arbitrage : votre note sera la note finale', { exact: false })).toBeVisible();
    const gradings = pa.getByRole('table', { name: 'Corrections de cette copie' });
    await expect(gradings).toContainText('Paul Premier');
    await expect(gradings).toContainText('Sophie Second');
    await pa.getByRole('textbox', { name: 'Note' }).fill('2');
    await expect(pa.getByTestId('grade-status')).toHaveText(/Enregistré/);
    await expectAccessible(pa, 'history (arbitrage)', { labelInName: true });
    await pa.goto(`/grader/${chapterId}`);
    await expect(pa.getByRole('link', { name: `Alice Abel, ${EXERCISE} : note 2` })).toBeVisible();
    await expect(pa.getByRole('heading', { name: 'À arbitrer (0)' })).toBeVisible();

    // The overview keeps both gradings and the arbitration, grades with the decimal comma and their maximum;
    // nothing in it is cut, at 1280 px as at 375 px.
    await pa.goto(`/overview/${chapterId}`);
    const overview = pa.getByRole('region', { name: 'Aperçu des corrections' });
    await expect(overview).toContainText('3 — Paul Premier');
    await expect(overview).toContainText('0,5 — Sophie Second');
    await expect(overview).toContainText('2\u00a0/\u00a04');
    await expect(pa.getByRole('button', { name: 'Exporter en CSV' })).toBeVisible();
    for (const width of [1280, 375]) {
      await pa.setViewportSize({ width, height: 900 });
      await expectNotCut(`/overview à ${width} px`, [
        ...['Élève', 'Exercice', 'Note', '1re correction', '2e correction', 'Arbitrage', 'Commentaire', 'Date'].map(
          (name) => [`« ${name} »`, pa.getByRole('columnheader', { name, exact: true })] as [string, Locator],
        ),
        ['l’exercice', overview.getByRole('cell', { name: EXERCISE, exact: true })],
        ['la première correction', overview.getByRole('cell', { name: '3 — Paul Premier', exact: true })],
      ]);
      await pa.screenshot({ path: screenshot(`double-overview-${width}.png`), fullPage: true });
    }
    await expectAccessible(pa, 'overview (double correction)');
    await pa.setViewportSize({ width: 1280, height: 900 });

    // Both correctors now see both gradings and the arbitration on the copy.
    await p2.reload();
    await expect(p2.getByRole('table', { name: 'Corrections de cette copie' })).toContainText('(arbitrage)');
  });
});
