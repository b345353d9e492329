import { expect, test } from '@playwright/test';
import { adminHeaders, apiAccount, expectAccessible, ok, PASSWORD, pupilProfile, screenshot, tag } from './fixtures.js';

// This journey needs the app's service worker: the page must open again without a network.
test.use({ serviceWorkers: 'allow' });

test.describe('Épreuve en ligne sans réseau', () => {
  test('[ÉLÈVE] répond hors ligne, recharge la page sans réseau, et retrouve toutes ses réponses envoyées dans l’ordre', async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(120_000);
    const admin = await adminHeaders(request);
    const title = `Épreuve coupée ${tag()}`;
    const chapterId = (await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title } })))._id;
    try {
      await ok(
        await request.patch(`/api/chapter/${chapterId}`, { headers: admin, data: { groups: [{ name: 'tous', timeDuration: 30 }] } }),
      );
      const exercises: Array<{ id: string; title: string }> = [];
      for (let i = 1; i <= 5; i++) {
        const exTitle = `Question ${i}`;
        const created = await ok<{ _id: string }>(
          await request.post('/api/exos', {
            headers: admin,
            data: {
              title: exTitle,
              answerFormat: 'numeric',
              chapter: chapterId,
              statementVersions: [{ content: `Combien font ${i} + ${i} ?`, answer: String(2 * i) }],
            },
          }),
        );
        exercises.push({ id: created._id, title: exTitle });
      }

      const {
        email,
        headers: pupil,
        id: pupilId,
      } = await apiAccount(request, 'coupure', pupilProfile({ firstName: 'Émilie', lastName: 'Du Châtelet', birthDate: '2010-12-17' }));

      // A first visit, straight to the test: the account's token is stored from a page that is not the app
      // (it registers no service worker), so the chapter is the first page the worker sees. What the page loaded
      // before the worker took it must be kept all the same (web/src/offline/service-worker.ts).
      const { token } = await ok<{ token: string }>(await page.request.post('/api/auth/login', { data: { email, password: PASSWORD } }));
      await page.goto('/api/health');
      await page.evaluate((t) => localStorage.setItem('jwt', t), token);
      const pageToken = await page.evaluate(() => localStorage.getItem('jwt'));
      expect(pageToken).toBe(token);
      expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length))).toBe(0);
      await page.goto(`/chapter/${chapterId}`);
      await page.getByRole('button', { name: 'Commencer l’épreuve en temps limité' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Commencer maintenant' }).click();
      await expect(page.getByRole('timer')).toContainText(/Temps restant\s: (29:[0-5]\d|30:00)/);
      // The service worker has taken the page (and its assets) by now.
      const registered = await page.evaluate(async () => {
        const registration = await Promise.race([navigator.serviceWorker.ready, new Promise((r) => setTimeout(() => r(null), 20_000))]);
        return registration ? 'ready' : JSON.stringify((await navigator.serviceWorker.getRegistrations()).map((r) => r.scope));
      });
      expect(registered).toBe('ready');
      await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), { timeout: 30_000 }).toBe(true);
      // A forced reload (Ctrl+Maj+R, what a school computer gets when « ça ne marche pas ») opens the page outside
      // the worker; the page asks the worker to take it again, or offline it would load nothing it lacks.
      const devtools = await context.newCDPSession(page);
      await devtools.send('Page.reload', { ignoreCache: true });
      await expect(page.getByRole('timer')).toContainText(/Temps restant\s: (2\d|30):[0-5]\d/);
      await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), { timeout: 15_000 }).toBe(true);

      const input = (i: number) => page.getByRole('region', { name: exercises[i].title }).getByRole('textbox', { name: 'Votre réponse :' });
      const state = (i: number) => page.getByTestId(`save-state-${exercises[i].id}`);
      for (const i of [0, 1, 2]) {
        await input(i).fill(String(2 * (i + 1)));
        await expect(state(i)).toHaveText('Enregistré');
      }

      // The network goes; two more answers wait in the queue.
      await context.setOffline(true);
      for (const i of [3, 4]) {
        await input(i).fill(String(2 * (i + 1)));
        await expect(state(i)).toHaveText('Hors ligne — la réponse sera envoyée dès le retour du réseau');
      }
      // The last one is changed once more: only its latest value must win.
      await input(4).fill('11');
      await expect(state(4)).toHaveText('Hors ligne — la réponse sera envoyée dès le retour du réseau');
      await expectAccessible(page, '/chapter/{id} (hors ligne)');
      await page.screenshot({ path: screenshot('chapter-offline.png'), fullPage: true });

      // A reload without a network: the app opens from the service worker, the account is kept.
      await page.reload();
      await expect(page.getByText('Connexion au serveur… Les réponses non envoyées restent gardées sur cet appareil.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Se connecter' })).toHaveCount(0);
      await expectAccessible(page, '/chapter/{id} (rechargée sans réseau)');
      expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBe(pageToken);

      // The network returns: the page loads its chapter and the queue empties itself.
      await context.setOffline(false);
      for (const i of [3, 4]) await expect(state(i)).toHaveText('Enregistré', { timeout: 30_000 });
      await expect(input(4)).toHaveValue('11');

      const mine = await ok<Array<{ exercise: string; answer: string; seq: number }>>(
        await request.get(`/api/answer/chapter/${chapterId}`, { headers: pupil }),
      );
      const byExercise = new Map(mine.map((a) => [a.exercise, a]));
      expect(exercises.map((e) => byExercise.get(e.id)?.answer)).toEqual(['2', '4', '6', '8', '11']);
      // In order: each exercise's saves kept increasing sequence numbers, the history ends with the latest.
      const history = await ok<{ answers: Array<{ answer: string }> }>(
        await request.get(`/api/answer/history/${pupilId}/${exercises[4].id}`, { headers: pupil }),
      );
      expect(history.answers.map((a) => a.answer)).toContain('11');
      await expectAccessible(page, '/chapter/{id} (de retour en ligne)');
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
    }
  });
});
