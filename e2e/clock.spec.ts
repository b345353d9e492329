import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { adminHeaders, apiAccount, loginByApi, ok, pupilProfile, screenshot, tag } from './fixtures.js';

/**
 * The qualities of docs/product.md#design-4, clocks: the browser's clock 13 minutes off (Playwright's clock, flowing from a
 * shifted time) does not move the countdown — the page counts down from the server's remainingTime
 * (docs/product.md#spec-4) and stays within 2 s of what GET /api/chapter/start/{id} says, before and after a reload.
 */

const DURATION_MIN = 30;
const SKEW_MIN = 13;

/** A pupil with a complete profile; returns the e-mail and API headers. */
async function pupil(request: APIRequestContext) {
  return apiAccount(request, 'horloge', pupilProfile({ firstName: 'Émilie', lastName: 'Du Châtelet' }));
}

/** mm:ss of the page's role="timer", in seconds. */
async function pageRemaining(page: Page): Promise<number> {
  const text = (await page.getByRole('timer').textContent()) ?? '';
  const m = /Temps restant\s: (\d+):(\d{2})/.exec(text);
  expect(m, text).not.toBeNull();
  return Number(m![1]) * 60 + Number(m![2]);
}

/**
 * The page's countdown and the server's remainingTime, read together; their difference in seconds.
 * The page's text changes once a second: it is read right after a tick, so it is not up to 1 s stale.
 */
async function gap(page: Page, request: APIRequestContext, chapterId: string, headers: Record<string, string>) {
  const shown = await page.getByRole('timer').textContent();
  await expect(page.getByRole('timer')).not.toHaveText(shown ?? '', { timeout: 5_000 });
  const before = await pageRemaining(page);
  const server = await ok<{ status: string; remainingTime: number }>(await request.get(`/api/chapter/start/${chapterId}`, { headers }));
  const after = await pageRemaining(page);
  expect(server.status).toBe('started');
  // The server's value was read between the two page readings: compare with the closer one.
  const diff = Math.min(Math.abs(before - server.remainingTime), Math.abs(after - server.remainingTime));
  test.info().annotations.push({ type: 'countdown', description: `page ${before}→${after} s, server ${server.remainingTime} s` });
  return diff;
}

/** « 20 h 35 »: an instant as the page writes a Paris clock time (no-break spaces around the h, decision 101). */
function parisClock(ms: number): string {
  const [h, m] = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .format(ms)
    .split(':');
  return `${Number(h)}\u00a0h\u00a0${m}`;
}

test.describe('Horloge du navigateur décalée', () => {
  for (const skew of [SKEW_MIN, -SKEW_MIN]) {
    test(`[ÉLÈVE] horloge ${skew > 0 ? 'en avance' : 'en retard'} de ${SKEW_MIN} minutes : le temps restant affiché est celui du serveur (±2 s)`, async ({
      page,
      request,
    }) => {
      test.setTimeout(90_000);
      const admin = await adminHeaders(request);
      const title = `Épreuve chronométrée ${tag()}`;
      const { _id: chapterId } = await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title } }));
      try {
        await ok(
          await request.patch(`/api/chapter/${chapterId}`, {
            headers: admin,
            data: { groups: [{ name: 'tous', timeDuration: DURATION_MIN }] },
          }),
        );
        await ok(
          await request.post('/api/exos', {
            headers: admin,
            data: {
              title: 'Somme',
              answerFormat: 'numeric',
              chapter: chapterId,
              statementVersions: [{ content: 'Combien font 2 + 2 ?', answer: '4' }],
            },
          }),
        );
        const { email, headers } = await pupil(request);

        // The browser's clock flows normally, from a time 13 minutes off.
        await page.clock.install({ time: new Date(Date.now() + skew * 60_000) });
        await loginByApi(page, email);
        const browserNow = await page.evaluate(() => Date.now());
        expect(Math.abs(browserNow - Date.now() - skew * 60_000)).toBeLessThan(60_000);

        await page.goto(`/chapter/${chapterId}`);
        await page.getByRole('button', { name: 'Commencer l’épreuve en temps limité' }).click();
        // The confirmation's end time is the server's now + 30 min (this machine's clock), not the browser's.
        const confirm = page.getByRole('dialog', { name: 'Commencer l’épreuve ?' });
        const ends = [-1, 0].map((m) => parisClock(Date.now() + (DURATION_MIN + m) * 60_000));
        await expect(confirm).toContainText(
          new RegExp(`se terminera (le \\d{1,2} \\S+ \\d{4} )?à (${ends.join('|')}) \\(heure de Paris\\)`),
        );
        await confirm.getByRole('button', { name: 'Commencer maintenant' }).click();
        const timer = page.getByRole('timer');
        await expect(timer).toHaveText(/Temps restant\s: (29|30):\d{2}/);
        expect(await gap(page, request, chapterId, headers)).toBeLessThanOrEqual(2);

        // It counts down with the (shifted) clock flowing, still in step with the server.
        const first = await pageRemaining(page);
        await expect.poll(() => pageRemaining(page), { timeout: 10_000 }).toBeLessThanOrEqual(first - 2);
        expect(await gap(page, request, chapterId, headers)).toBeLessThanOrEqual(2);

        // A reload starts again from the server's value, not from the browser's clock.
        await page.reload();
        await expect(timer).toBeVisible();
        expect(await gap(page, request, chapterId, headers)).toBeLessThanOrEqual(2);
        await page.screenshot({ path: screenshot(`clock-${skew > 0 ? 'ahead' : 'behind'}.png`) });
      } finally {
        await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
      }
    });
  }
});
