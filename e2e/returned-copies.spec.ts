import { readFileSync } from 'node:fs';
import { expect as baseExpect, test } from '@playwright/test';
import { adminHeaders, apiAccount, expectAccessible, loginByApi, ok, pupilProfile, smallPdf, tag } from './fixtures.js';

// The machine is shared: a lazy page chunk can take seconds to arrive under load.
const expect = baseExpect.configure({ timeout: 15_000 });

test.use({ viewport: { width: 1280, height: 900 } });

/**
 * docs/product.md#returned-copies, decision 162: a graded copy comes back to its pupil with the corrector's marks, as
 * a PDF too, and her regrade request points at a region of it.
 */
test('[ÉLÈVE] voit sa copie corrigée, la télécharge et demande un réexamen sur une zone de la copie', async ({ page, request }) => {
  test.setTimeout(240_000);
  const admin = await adminHeaders(request);
  const chapter = await ok<{ _id: string }>(
    await request.post('/api/chapter', { headers: admin, data: { title: `Copies rendues ${tag()}` } }),
  );
  await ok(await request.patch(`/api/chapter/${chapter._id}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
  const exercise = await ok<{ _id: string }>(
    await request.post('/api/exos', {
      headers: admin,
      data: {
        title: 'Rédaction',
        answerFormat: 'pdf',
        chapter: chapter._id,
        maxPoints: 7,
        statementVersions: [{ content: 'Montrer que $n^2 \\geq n$.', answer: null }],
      },
    }),
  );
  const pupil = await apiAccount(request, 'eleve-rendue', pupilProfile({ firstName: 'Sophie', lastName: 'Germain' }));
  const upload = await ok<{ path: string }>(
    await request.post('/api/pdfs', {
      headers: pupil.headers,
      multipart: {
        exercise: exercise._id,
        file: { name: 'copie.pdf', mimeType: 'application/pdf', buffer: await smallPdf('Copie de Sophie') },
      },
    }),
  );
  await ok(await request.post('/api/answer', { headers: pupil.headers, data: { exerciseId: exercise._id, answer: upload.path, seq: 1 } }));

  // The admin grades with two marks: an ink stroke and a note pinned on the page.
  const history = await ok<{ result: { answerId: string } }>(
    await request.get(`/api/answer/history/${pupil.id}/${exercise._id}`, { headers: admin }),
  );
  await ok(
    await request.post('/api/answer/grade', {
      headers: admin,
      data: {
        answerId: history.result.answerId,
        grade: '4',
        grade_comment: 'Rédaction à reprendre.',
        expectedGradeTimestamp: null,
        annotations: [
          {
            id: 'ink-1',
            page: 0,
            kind: 'ink',
            color: 'red',
            points: [
              [0.2, 0.3],
              [0.4, 0.35],
              [0.6, 0.3],
            ],
          },
          { id: 'note-1', page: 0, kind: 'note', x: 0.1, y: 0.7, text: 'Hypothèse non justifiée' },
        ],
      },
    }),
  );

  // Published now with the copies returned (decision 139: the pupil still able to answer is confirmed), requests open a week.
  const publication = { mode: 'now', copiesReturned: true };
  const first = await request.put(`/api/results/${chapter._id}/publication`, { headers: admin, data: publication });
  if (first.status() === 409) {
    const { stillAnswering } = (await first.json()) as { stillAnswering: number };
    await ok(
      await request.put(`/api/results/${chapter._id}/publication`, { headers: admin, data: { ...publication, confirm: stillAnswering } }),
    );
  } else await ok(first);
  const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
  await ok(await request.put(`/api/regrade/window/${chapter._id}`, { headers: admin, data: { regradeUntil: until } }));

  // The pupil sees her copy with the marks over it and in words.
  await loginByApi(page, pupil.email);
  await page.goto(`/chapter/${chapter._id}`);
  await expect(page.getByRole('heading', { name: 'Vos copies corrigées' })).toBeVisible();
  const copy = page.getByRole('article', { name: /^Copie corrigée\s:\sRédaction$/ });
  await expect(copy.getByTestId('annotations-page-0').locator('polyline')).toHaveCount(1);
  await expect(copy.getByTestId('annotations-page-0').getByText('Hypothèse non justifiée')).toBeVisible();
  await expect(copy.getByText(/^Page 1\s: Hypothèse non justifiée$/)).toBeVisible();
  await expect(copy.getByText('Rédaction à reprendre.')).toBeVisible();
  await expectAccessible(page, '/chapter/{id} (copies corrigées)');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    copy.getByRole('button', { name: 'Télécharger ma copie corrigée' }).click(),
  ]);
  expect(
    readFileSync(await download.path())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');

  // She asks for a regrade, pointing at a box she drags on the page.
  const panel = page.getByRole('region', { name: 'Demandes de réexamen' });
  await panel.getByPlaceholder('Choisissez l’exercice').click();
  await page.getByRole('option', { name: 'Rédaction (4 sur 7)' }).click();
  await panel.getByLabel('Désigner une zone de la copie').check();
  const layer = panel.getByTestId('region-layer-0');
  await expect(layer).toBeVisible();
  await layer.scrollIntoViewIfNeeded();
  const box = (await layer.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.15, box.y + box.height * 0.2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.35, { steps: 4 });
  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.5, { steps: 4 });
  await page.mouse.up();
  await expect(layer.getByTestId('region-box')).toBeVisible();
  await expect(panel.getByPlaceholder('Cadre tracé')).toBeVisible();
  await expectAccessible(page, '/chapter/{id} (réexamen : zone de la copie)');
  await panel.getByLabel('Votre message').fill('L’hypothèse est justifiée à la ligne 2.');
  await panel.getByRole('button', { name: 'Demander un réexamen' }).click();

  const asked = panel.getByRole('article', { name: 'Réexamen : Rédaction' });
  await expect(asked.getByText('En attente')).toBeVisible();
  await expect(asked.getByText('Page 1, zone marquée')).toBeVisible();
  await expectAccessible(page, '/chapter/{id} (réexamen sur une zone envoyé)');
});
