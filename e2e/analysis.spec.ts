import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  adminHeaders,
  adminPage,
  apiAccount,
  columnHeaders,
  expectAccessible,
  expectNotCutAtBothWidths,
  ok,
  pupilProfile,
  screenshot,
  tag,
} from './fixtures.js';

const SCHOOL_IP = '198.51.100.10';
const OTHER_IP = '198.51.100.20';

type Headers = Record<string, string>;

/** A confirmed pupil with a complete profile whose calls come from `ip` (X-Forwarded-For: the server trusts its proxy). */
async function pupil(request: APIRequestContext, firstName: string, lastName: string, ip: string) {
  const { headers } = await apiAccount(request, 'eleve-analyse', pupilProfile({ firstName, lastName }), { 'X-Forwarded-For': ip });
  return { headers, name: `${firstName} ${lastName}` };
}

test.describe('Analyse de la triche', () => {
  test('[ADMIN] voit les scores des élèves et une paire suspecte sur une adresse partagée', async ({ page, request }) => {
    test.setTimeout(120_000);
    const admin = await adminHeaders(request);
    const suffix = tag();
    const title = `Épreuve chronométrée ${suffix}`;

    // A timed chapter (60 minutes) open now, three numeric exercises.
    const { _id: chapterId } = await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title } }));
    const now = Date.now();
    await ok(
      await request.patch(`/api/chapter/${chapterId}`, {
        headers: admin,
        data: {
          groups: [
            {
              name: 'tous',
              timeDuration: 60,
              accessStart: new Date(now - 10 * 60_000).toISOString(),
              accessEnd: new Date(now + 3 * 3600_000).toISOString(),
            },
          ],
        },
      }),
    );
    const exercise = async (name: string, answer: string) =>
      (
        await ok<{ _id: string }>(
          await request.post('/api/exos', {
            headers: admin,
            data: { title: name, answerFormat: 'numeric', chapter: chapterId, statementVersions: [{ content: `Énoncé ${name}`, answer }] },
          }),
        )
      )._id;
    const carres = await exercise('Carrés', '4');
    const cubes = await exercise('Cubes', '27');

    const ada = await pupil(request, 'Ada', `Lovelace ${suffix}`, SCHOOL_IP);
    const blaise = await pupil(request, 'Blaise', `Pascal ${suffix}`, SCHOOL_IP);
    const carl = await pupil(request, 'Carl', `Gauss ${suffix}`, OTHER_IP);
    const save = (p: { headers: Headers }, exerciseId: string, answer: string) =>
      request.post('/api/answer', { headers: p.headers, data: { exerciseId, answer } });
    const event = async (p: { headers: Headers }, eventType: 'blur' | 'focus') =>
      expect(await ok(await request.post(`/api/chapter/event/${chapterId}`, { headers: p.headers, data: { eventType } }))).toEqual({
        recorded: true,
      });
    for (const p of [ada, blaise, carl]) await ok(await request.post(`/api/chapter/start/${chapterId}`, { headers: p.headers }));

    // Ada leaves twice and answers "Cubes" right just after coming back; she and Blaise share a wrong 5.
    await event(ada, 'blur');
    await event(ada, 'focus');
    await ok(await save(ada, carres, '5'));
    await event(ada, 'blur');
    await event(ada, 'focus');
    await ok(await save(ada, cubes, '27'));
    await ok(await save(blaise, carres, '5'));
    await ok(await save(blaise, cubes, '27'));
    // Carl gives the same wrong answer from another address: no pair.
    await ok(await save(carl, carres, '5'));

    await adminPage(page);
    await page.goto(`/analysis/${chapterId}`);
    await expect(page.getByRole('heading', { name: `Analyse de la triche : ${title}` })).toBeVisible();
    await expect(page.getByText('Un indice, jamais un verdict')).toBeVisible();

    const table = page.getByRole('table', { name: 'Analyse individuelle' });
    const rows = table.getByRole('row');
    await expect(rows).toHaveCount(4);
    // Highest score first: Ada, 0 minute away (rounded) + 2 exits + 1 suspicious right answer.
    await expect(rows.nth(1).getByRole('cell')).toHaveText([ada.name, SCHOOL_IP, '2', '0,0', '1', /s$/, '3 (0 + 2 + 1)']);
    await expect(rows.nth(1).getByRole('link', { name: ada.name })).toHaveAttribute('href', new RegExp(`/history/[0-9a-f-]{36}/${cubes}$`));
    await expect(table.getByRole('row').filter({ hasText: carl.name }).getByRole('cell').nth(1)).toHaveText(OTHER_IP);

    const pairs = page.getByRole('table', { name: `Paires suspectes, adresse ${SCHOOL_IP}` });
    await expect(pairs.getByRole('row').nth(1).getByRole('cell')).toHaveText([
      ada.name,
      blaise.name,
      '1',
      'Carrés : 5 (fausse) ; Cubes : 27',
    ]);
    await expect(page.getByRole('table', { name: `Paires suspectes, adresse ${OTHER_IP}` })).toHaveCount(0);

    // Sorting by last name: Gauss first, then Pascal first the other way.
    await table.getByRole('button', { name: 'Élève' }).click();
    await expect(rows.nth(1).getByRole('cell').first()).toHaveText(carl.name);
    await table.getByRole('button', { name: 'Élève' }).click();
    await expect(rows.nth(1).getByRole('cell').first()).toHaveText(blaise.name);

    await expectAccessible(page, '/analysis/{id}');
    await expectNotCutAtBothWidths(page, '/analysis/{id}', [...(await columnHeaders(table)), ...(await columnHeaders(pairs))]);
    await page.screenshot({ path: screenshot('analysis.png'), fullPage: true });
  });
});
