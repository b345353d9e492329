import { expect as baseExpect, test, type APIRequestContext, type Page, type Route } from '@playwright/test';
import {
  adminHeaders,
  apiAccount,
  expectAccessible,
  expectNotCutAtBothWidths,
  loginByApi,
  ok,
  pupilProfile,
  screenshot,
  smallPdf,
  tag,
} from './fixtures.js';

const START = 'Commencer l’épreuve en temps limité';
const ENDED = 'L’épreuve est terminée. Les résultats seront bientôt publiés sur cette page.';
const OFFLINE = 'Hors ligne — la réponse sera envoyée dès le retour du réseau';

type Headers = Record<string, string>;

// Five journeys share two cores: a page may take several seconds to answer after a navigation.
const expect = baseExpect.configure({ timeout: 10_000 });

/** A confirmed pupil with a complete profile, logged in through the API. */
async function pupil(request: APIRequestContext) {
  return apiAccount(request, 'epreuve', pupilProfile({ firstName: 'Sophie', lastName: 'Germain', birthDate: '2010-04-01' }));
}

/** A timed online chapter with numeric exercises (answer 2·i) and optionally one PDF exercise. */
async function timedChapter(
  request: APIRequestContext,
  admin: Headers,
  options: { title: string; numeric: number; pdf: boolean; group: Record<string, unknown> },
) {
  const chapterId = (await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title: options.title } })))._id;
  await ok(await request.patch(`/api/chapter/${chapterId}`, { headers: admin, data: { groups: [{ name: 'tous', ...options.group }] } }));
  const exercises: Array<{ id: string; title: string }> = [];
  for (let i = 1; i <= options.numeric; i++) {
    const title = `Calcul ${i}`;
    const created = await ok<{ _id: string }>(
      await request.post('/api/exos', {
        headers: admin,
        data: {
          title,
          answerFormat: 'numeric',
          chapter: chapterId,
          statementVersions: [{ content: `Combien font $${i} + ${i}$ ?`, answer: String(2 * i) }],
        },
      }),
    );
    exercises.push({ id: created._id, title });
  }
  let pdfExercise: { id: string; title: string } | null = null;
  if (options.pdf) {
    const title = 'Rédaction';
    const created = await ok<{ _id: string }>(
      await request.post('/api/exos', {
        headers: admin,
        data: {
          title,
          answerFormat: 'pdf',
          chapter: chapterId,
          statementVersions: [{ content: 'Démontrez que $\\sqrt{2}$ est irrationnel.', answer: null }],
        },
      }),
    );
    pdfExercise = { id: created._id, title };
  }
  return { chapterId, exercises, pdfExercise };
}

/** Seconds shown by the countdown ("Temps restant : mm:ss"). */
async function shownSeconds(page: Page): Promise<number> {
  const text = (await page.getByRole('timer').textContent()) ?? '';
  const m = /Temps restant\s: (\d+):(\d\d)/.exec(text);
  expect(m, text).not.toBeNull();
  return Number(m![1]) * 60 + Number(m![2]);
}

const isAnswerSave = (url: URL) => url.pathname === '/api/answer';

test.describe('Épreuve en ligne', () => {
  test('[ÉLÈVE] commence l’épreuve chronométrée, répond en ligne, hors ligne et après un rechargement, et téléverse sa copie PDF', async ({
    page,
    context,
    request,
  }) => {
    // About 30 s alone; the margin is for a machine shared with other journeys.
    test.setTimeout(150_000);
    const admin = await adminHeaders(request);
    const me = await pupil(request);
    const { chapterId, exercises, pdfExercise } = await timedChapter(request, admin, {
      title: `Épreuve en ligne ${tag()}`,
      numeric: 5,
      pdf: true,
      group: { timeDuration: 30 },
    });
    try {
      await loginByApi(page, me.email);
      await page.goto(`/chapter/${chapterId}`);

      // Pending: only the start button, no exercise yet.
      const start = page.getByRole('button', { name: START });
      await expect(start).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'Votre réponse :' })).toHaveCount(0);
      await expect(page.getByRole('timer')).toHaveCount(0);
      await expectAccessible(page, '/chapter/{id} (en attente)', { labelInName: true });
      await expectNotCutAtBothWidths(page, '/chapter/{id} (en attente)', [[`« ${START} »`, start]]);
      await page.screenshot({ path: screenshot('chapter-pending.png'), fullPage: true });

      // Starting cannot be undone: the pupil confirms, having read how long, until when, and that there is no pause.
      await start.click();
      const confirm = page.getByRole('dialog', { name: 'Commencer l’épreuve ?' });
      await expect(confirm).toContainText(
        /Vous aurez 30 minutes\s: l’épreuve se terminera (le \d{1,2} \S+ \d{4} )?à \d{1,2}\sh\s\d{2} \(heure de Paris\)\./,
      );
      await expect(confirm).toContainText('Le chronomètre ne peut pas être mis en pause');
      await expectAccessible(page, '/chapter/{id} (confirmation du début)');
      await confirm.getByRole('button', { name: 'Commencer maintenant' }).click();
      const timer = page.getByRole('timer');
      await expect(timer).toHaveText(/^Temps restant\s: (30:00|29:[0-5]\d)$/);
      await expect(start).toHaveCount(0);
      const first = await shownSeconds(page);
      await expect.poll(() => shownSeconds(page), { timeout: 5_000 }).toBeLessThan(first);

      const card = (i: number) => page.getByRole('region', { name: exercises[i].title });
      const input = (i: number) => card(i).getByRole('textbox', { name: 'Votre réponse :' });
      const state = (i: number) => page.getByTestId(`save-state-${exercises[i].id}`);
      // On a phone the remaining time stays on screen, under the header, down to the last exercise.
      await page.setViewportSize({ width: 375, height: 740 });
      await card(exercises.length - 1).scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      await expect(timer).toBeInViewport();
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await expect(input(0)).toHaveAttribute('placeholder', '?');
      await expect(card(0).getByRole('link', { name: 'Historique' })).toHaveAttribute(
        'href',
        `/history/${me.id}/${exercises[0].id}?epreuve=${chapterId}`,
      );

      // Online: saved after the debounce.
      for (const i of [0, 1]) {
        await input(i).fill(String(2 * (i + 1)));
        await expect(state(i)).toHaveText('Enregistré');
      }
      await expectAccessible(page, '/chapter/{id} (commencée)');
      await page.screenshot({ path: screenshot('chapter-started.png'), fullPage: true });

      // The network goes: the answers wait on this device, and the pupil is told so.
      await context.setOffline(true);
      for (const i of [2, 3, 4]) {
        await input(i).fill(String(2 * (i + 1)));
        await expect(state(i)).toHaveText(OFFLINE);
      }
      await context.setOffline(false);
      for (const i of [2, 3, 4]) await expect(state(i)).toHaveText('Enregistré', { timeout: 20_000 });

      // Only the saves are cut: the typed value is kept in local storage, and the page warns before leaving.
      let blocked = true;
      const cut = async (route: Route) => {
        if (blocked && route.request().method() === 'POST') await route.abort('internetdisconnected');
        else await route.continue();
      };
      await page.route(isAnswerSave, cut);
      await input(0).click();
      await input(0).fill('3');
      await expect(state(0)).toHaveText(OFFLINE);
      const stored = await page.evaluate(() => localStorage.getItem('olympe.answerQueue'));
      expect(JSON.parse(stored ?? '{}')[`${me.id}:${exercises[0].id}`]).toMatchObject({ answer: '3' });
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.type());
        void dialog.accept();
      });
      await page.reload();
      expect(dialogs).toEqual(['beforeunload']);
      // After the reload the value typed on this device is shown, still waiting.
      await expect(input(0)).toHaveValue('3');
      await expect(state(0)).toHaveText(OFFLINE);
      await expect(timer).toBeVisible();
      blocked = false;
      await expect(state(0)).toHaveText('Enregistré', { timeout: 20_000 });
      await page.unroute(isAnswerSave, cut);

      // Changed twice quickly, then again while a save is in flight: the latest value wins.
      await input(1).fill('41');
      await input(1).fill('42');
      await expect(state(1)).toHaveText('Enregistré');
      let delayFirst = true;
      const slow = async (route: Route) => {
        if (delayFirst && route.request().method() === 'POST') {
          delayFirst = false;
          await new Promise((r) => setTimeout(r, 1_500));
        }
        await route.continue();
      };
      await page.route(isAnswerSave, slow);
      const inFlight = page.waitForRequest((r) => isAnswerSave(new URL(r.url())) && r.method() === 'POST');
      await input(1).fill('43');
      await inFlight;
      await input(1).fill('44');
      await expect(state(1)).toHaveText('Enregistré', { timeout: 10_000 });
      await page.unroute(isAnswerSave, slow);

      // The server holds the last value typed for each of the five exercises.
      const mine = await ok<Array<{ exercise: string; answer: string }>>(
        await request.get(`/api/answer/chapter/${chapterId}`, { headers: me.headers }),
      );
      const current = new Map(mine.map((a) => [a.exercise, a.answer]));
      expect(exercises.map((e) => current.get(e.id))).toEqual(['3', '44', '6', '8', '10']);
      const history = await ok<{ answers: Array<{ answer: string }> }>(
        await request.get(`/api/answer/history/${me.id}/${exercises[1].id}`, { headers: admin }),
      );
      expect(history.answers[0].answer).toBe('44');
      expect(history.answers.map((a) => a.answer)).toEqual(expect.arrayContaining(['4', '42', '43', '44']));
      const table = await ok<{ users: Record<string, { data: string[] }> }>(
        await request.get(`/api/answer/table/${chapterId}`, { headers: admin }),
      );
      expect(table.users[me.id].data).toEqual(['?', '?', '?', '?', '?', ' ']);

      // PDF copy: choose, remove, choose again, upload (offline first), then see it from the history page.
      const pdfCard = page.getByRole('region', { name: pdfExercise!.title });
      const upload = pdfCard.getByRole('button', { name: 'Téléverser' });
      await expect(upload).toBeDisabled();
      await expect(pdfCard.getByRole('link', { name: 'Voir la copie' })).toHaveCount(0);
      await expectNotCutAtBothWidths(page, '/chapter/{id} (copie PDF)', [
        ['« Choisir un fichier PDF »', pdfCard.getByRole('button', { name: 'Choisir un fichier PDF' })],
        ['« Téléverser »', upload],
      ]);
      const choose = async () => {
        const chooser = page.waitForEvent('filechooser');
        await pdfCard.getByRole('button', { name: 'Choisir un fichier PDF' }).click();
        await (await chooser).setFiles({ name: 'ma-copie.pdf', mimeType: 'application/pdf', buffer: await smallPdf('Copie de Sophie') });
      };
      await choose();
      await expect(pdfCard.getByText('ma-copie.pdf')).toBeVisible();
      await expect(upload).toBeEnabled();
      await pdfCard.getByRole('button', { name: 'Retirer ma-copie.pdf' }).click();
      await expect(pdfCard.getByText('ma-copie.pdf')).toHaveCount(0);
      await expect(upload).toBeDisabled();
      await choose();
      // Sent without network: the copy waits on the page, then leaves by itself when the network returns.
      await context.setOffline(true);
      await upload.click();
      await expect(page.getByTestId(`save-state-${pdfExercise!.id}`)).toHaveText(OFFLINE);
      await expect(pdfCard.getByText('ma-copie.pdf')).toBeVisible();
      await expectAccessible(page, '/chapter/{id} (copie PDF en attente du réseau)');
      await context.setOffline(false);
      await expect(page.getByTestId(`save-state-${pdfExercise!.id}`)).toHaveText('Enregistré', { timeout: 15_000 });
      await expect(pdfCard.getByText('ma-copie.pdf')).toHaveCount(0);
      const seeCopy = pdfCard.getByRole('link', { name: 'Voir la copie' });
      await expect(seeCopy).toBeVisible();
      await expectNotCutAtBothWidths(page, '/chapter/{id} (copie envoyée)', [['« Voir la copie »', seeCopy]]);
      await seeCopy.click();
      // Opened from the running test: the page keeps the way back to it (« Retour à l’épreuve »).
      await expect(page).toHaveURL(new RegExp(`/history/${me.id}/${pdfExercise!.id}\\?epreuve=${chapterId}$`));
      await expect(page.getByRole('link', { name: 'Retour à l’épreuve' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Sophie Germain — Rédaction' })).toBeVisible();
      await expectNotCutAtBothWidths(page, '/history/{u}/{e}', [['« Visualiser »', page.getByRole('link', { name: 'Visualiser' })]]);
      await page.getByRole('link', { name: 'Visualiser' }).click();
      await expect(page).toHaveURL(new RegExp(`/viewer/pdfs/[0-9a-f-]{36}\\.pdf\\?epreuve=${chapterId}$`));
      await expect(page.locator('canvas').first()).toBeVisible({ timeout: 20_000 });
      await pinchOnPhone(page);
      const after = await ok<{ users: Record<string, { data: string[] }> }>(
        await request.get(`/api/answer/table/${chapterId}`, { headers: admin }),
      );
      expect(after.users[me.id].data[5]).toBe('?');
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
    }
  });

  test('[ÉLÈVE] voit le temps restant arriver à zéro, puis la fin de l’épreuve ; le serveur refuse une réponse tardive', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const admin = await adminHeaders(request);
    const me = await pupil(request);
    const { chapterId, exercises } = await timedChapter(request, admin, {
      title: `Épreuve courte ${tag()}`,
      numeric: 1,
      pdf: false,
      group: { timeDuration: 1 },
    });
    try {
      await loginByApi(page, me.email);
      await page.goto(`/chapter/${chapterId}`);
      const start = page.getByRole('button', { name: START });
      await expect(start).toBeVisible();
      // The server is the clock: the window of this 1-minute test now closes 15 s from now, before the minute is over.
      const end = Date.now() + 15_000;
      await ok(
        await request.patch(`/api/chapter/${chapterId}`, {
          headers: admin,
          data: { groups: [{ name: 'tous', timeDuration: 1, accessEnd: new Date(end).toISOString() }] },
        }),
      );
      await start.click();
      await page.getByRole('dialog').getByRole('button', { name: 'Commencer maintenant' }).click();
      await expect(page.getByText(/^Contenu disponible jusqu’au \d/)).toBeVisible();
      const timer = page.getByRole('timer');
      await expect(timer).toHaveText(/^Temps restant\s: 00:(0\d|1[0-5])$/);
      const input = page.getByRole('textbox', { name: 'Votre réponse :' });
      await input.fill('2');
      await expect(page.getByTestId(`save-state-${exercises[0].id}`)).toHaveText('Enregistré');

      // At zero the page asks the server again and shows the end.
      await expect(page.getByText(ENDED)).toBeVisible({ timeout: 30_000 });
      await expect(timer).toHaveCount(0);
      await expect(input).toHaveCount(0);
      expect(Date.now()).toBeGreaterThanOrEqual(end - 1_500);
      await expectAccessible(page, '/chapter/{id} (terminée)');
      await page.screenshot({ path: screenshot('chapter-ended.png'), fullPage: true });
      const state = await ok<{ status: string; remainingTime: number }>(
        await request.get(`/api/chapter/start/${chapterId}`, { headers: me.headers }),
      );
      expect(state).toMatchObject({ status: 'after', remainingTime: 0 });

      // Past the 5 s grace for saves in flight, a save is refused and changes nothing.
      const wait = end + 5_500 - Date.now();
      if (wait > 0) await page.waitForTimeout(wait);
      const late = await request.post('/api/answer', {
        headers: me.headers,
        data: { exerciseId: exercises[0].id, answer: '99', seq: Date.now() },
      });
      expect(late.status()).toBe(403);
      expect(await late.json()).toEqual({ message: 'L’épreuve est terminée.', code: 'test_finished' });
      const history = await ok<{ answers: Array<{ answer: string }> }>(
        await request.get(`/api/answer/history/${me.id}/${exercises[0].id}`, { headers: admin }),
      );
      expect(history.answers.map((a) => a.answer)).toEqual(['2']);
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
    }
  });
});

/**
 * Decision 65: on a phone (375 px), two fingers moved apart on the viewer's page zoom it, within the buttons' range,
 * and the page is drawn again at the new size (sharp, not stretched). Real touches through Chromium's input.
 */
async function pinchOnPhone(page: Page) {
  await page.setViewportSize({ width: 375, height: 740 });
  const zoom = page.getByTestId('pdf-zoom');
  const canvas = page.getByRole('img', { name: 'PDF, page 1 sur 1' });
  const ratio = () => canvas.evaluate((c) => c.getBoundingClientRect().width / c.closest('[role="region"]')!.clientWidth);
  await expect(zoom).toHaveText('100\u202f%');
  await expect.poll(ratio).toBeLessThan(1.05);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + Math.min(box.height, 200) / 2;
  const fingers = (apart: number) => [
    { x: x - apart, y, id: 0 },
    { x: x + apart, y, id: 1 },
  ];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(40) });
  for (const apart of [55, 70, 85, 100]) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(apart) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await expect(zoom).toHaveText('250\u202f%');
  await expect.poll(ratio).toBeGreaterThan(2.4);
  // Drawn again at the zoom: the bitmap is as wide as its box times the device ratio.
  await expect.poll(() => canvas.evaluate((c) => (c as HTMLCanvasElement).width / c.getBoundingClientRect().width)).toBeGreaterThan(0.95);
  // The whole app was not zoomed by the browser: the page is still 375 px wide.
  expect(await page.evaluate(() => window.visualViewport?.scale ?? 1)).toBe(1);
  // The point between the fingers (the page's middle) stays under them: the view scrolls sideways (~1.5 × half a page).
  expect(await canvas.evaluate((c) => c.closest('[role="region"]')!.scrollLeft)).toBeGreaterThan(200);
  await page.screenshot({ path: screenshot('viewer-pinch-375.png') });
  await expectAccessible(page, '/viewer (zoomé au pincement)');
  await page.getByRole('button', { name: 'Ajuster à la largeur' }).click();
  await expect(zoom).toHaveText('100\u202f%');
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: false });
  await cdp.detach();
}
