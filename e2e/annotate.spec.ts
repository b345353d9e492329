import { expect, test, type Locator } from '@playwright/test';
import { adminHeaders, adminPage, apiAccount, expectAccessible, ok, pupilProfile, smallPdf, tag } from './fixtures.js';

/** Decisions 159–160 (docs/product.md#returned-copies): on a tablet, a corrector writes on the copy with a finger. */
test.use({ viewport: { width: 1024, height: 768 }, hasTouch: true });

/** A stroke of one finger through these points of the element (pointer events, pointerType touch). */
async function drawWithFinger(layer: Locator, points: Array<[number, number]>) {
  const box = (await layer.boundingBox())!;
  const at = ([x, y]: [number, number]) => ({
    pointerId: 11,
    pointerType: 'touch',
    isPrimary: true,
    bubbles: true,
    clientX: box.x + x * box.width,
    clientY: box.y + y * box.height,
  });
  await layer.dispatchEvent('pointerdown', at(points[0]!));
  for (const p of points.slice(1)) await layer.dispatchEvent('pointermove', at(p));
  await layer.dispatchEvent('pointerup', at(points.at(-1)!));
}

test('[CORRECTEUR] annote une copie au doigt, applique une remarque de la banque, note, et retrouve ses marques', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = await adminHeaders(request);
  const chapter = await ok<{ _id: string }>(
    await request.post('/api/chapter', { headers: admin, data: { title: `Annotations ${tag()}` } }),
  );
  await ok(await request.patch(`/api/chapter/${chapter._id}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
  const exercise = await ok<{ _id: string }>(
    await request.post('/api/exos', {
      headers: admin,
      data: {
        title: 'Rédaction',
        answerFormat: 'pdf',
        chapter: chapter._id,
        statementVersions: [{ content: 'Montrer que $n^2 \\geq n$.', answer: null }],
      },
    }),
  );
  await ok(await request.post(`/api/exos/${exercise._id}/comments`, { headers: admin, data: { text: 'Récurrence mal initialisée.' } }));
  const pupil = await apiAccount(request, 'eleve-annot', pupilProfile({ firstName: 'Émilie', lastName: 'Noether' }));
  const upload = await ok<{ path: string }>(
    await request.post('/api/pdfs', {
      headers: pupil.headers,
      multipart: {
        exercise: exercise._id,
        file: { name: 'copie.pdf', mimeType: 'application/pdf', buffer: await smallPdf('Copie d’Émilie') },
      },
    }),
  );
  await ok(await request.post('/api/answer', { headers: pupil.headers, data: { exerciseId: exercise._id, answer: upload.path, seq: 1 } }));

  await adminPage(page);
  await page.goto(`/history/${pupil.id}/${exercise._id}`);
  const layer = page.getByTestId('annotation-layer-0');
  // The page is drawn by pdf.js first: on a loaded machine this takes a while.
  await expect(layer).toBeVisible({ timeout: 30_000 });
  await page.getByText('Stylo', { exact: true }).click();
  await expect(layer).toHaveCSS('touch-action', 'none');
  await drawWithFinger(layer, [
    [0.2, 0.2],
    [0.3, 0.25],
    [0.4, 0.3],
    [0.5, 0.35],
  ]);
  await expect(layer.locator('[data-kind="ink"]')).toHaveCount(1);

  await page.getByRole('button', { name: /^Appliquer la remarque 1/ }).click();
  await page.getByRole('textbox', { name: 'Note', exact: true }).fill('1');
  await expect(page.getByTestId('grade-status')).toContainText('Enregistré');

  await page.reload();
  await expect(page.getByTestId('annotation-layer-0').locator('[data-kind="ink"]')).toHaveCount(1);
  await expect(page.getByText(/Page 1, en haut à gauche : Trait à main levée/)).toBeVisible();
  await expect(page.getByText('Récurrence mal initialisée.').first()).toBeVisible();
  await expectAccessible(page, '/history/{u}/{e} (annotations)', { labelInName: true });
});
