import { expect, test, type Page } from '@playwright/test';
import { adminHeaders, apiAccount, expectAccessible, loginByApi, ok, pupilProfile, screenshot, tag } from './fixtures.js';

/**
 * A phone's photo of a handwritten page: a 600 × 800 JPEG drawn by the browser's own canvas (no image tool needed
 * on the machine), given to the file input as the phone's camera would.
 */
async function photo(page: Page, name: string, text: string) {
  const base64 = await page.evaluate((line) => {
    const canvas = document.createElement('canvas');
    canvas.width = 600;
    canvas.height = 800;
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#fdfcf7';
    g.fillRect(0, 0, 600, 800);
    g.fillStyle = '#1a1a60';
    g.font = '36px serif';
    g.fillText(line, 40, 120);
    return canvas.toDataURL('image/jpeg', 0.85).split(',')[1];
  }, text);
  return { name, mimeType: 'image/jpeg', buffer: Buffer.from(base64, 'base64') };
}

/**
 * Decision 140: on a PDF exercise, a pupil who wrote her proof on paper sends photos taken with her phone. She sees
 * each page's thumbnail in the order they will be sent, puts them in order, sends them: the server makes them one PDF.
 */
test.describe('Copie en photos', () => {
  test('[ÉLÈVE] choisit deux photos de sa copie, voit leur aperçu, les remet dans l’ordre et les envoie', async ({ page, request }) => {
    test.setTimeout(120_000);
    const admin = await adminHeaders(request);
    const chapter = await ok<{ _id: string }>(
      await request.post('/api/chapter', { headers: admin, data: { title: `Rédactions ${tag()}` } }),
    );
    await ok(await request.patch(`/api/chapter/${chapter._id}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
    const title = 'Démonstration';
    await ok(
      await request.post('/api/exos', {
        headers: admin,
        data: {
          title,
          answerFormat: 'pdf',
          chapter: chapter._id,
          statementVersions: [{ content: 'Montrez que $\\sqrt{2}$ est irrationnel.', answer: null }],
        },
      }),
    );
    const pupil = await apiAccount(request, 'photos', pupilProfile({ firstName: 'Chloé', lastName: 'Durand' }));
    try {
      await page.setViewportSize({ width: 375, height: 800 });
      await loginByApi(page, pupil.email);
      await page.goto(`/chapter/${chapter._id}`);
      const second = await photo(page, 'IMG_0002.jpg', 'Page 2 : donc p est pair');
      const first = await photo(page, 'IMG_0001.jpg', 'Page 1 : supposons √2 = p/q');
      const card = page.getByRole('region', { name: title });
      await expect(card.getByText('Aucune copie envoyée pour l’instant.')).toBeVisible({ timeout: 30_000 });
      // Taken one at a time, in the wrong order: the second page first.
      await card.locator('input[type="file"]').setInputFiles(second);
      await expect(card.getByRole('button', { name: 'Ajouter une photo' })).toBeVisible();
      await card.locator('input[type="file"]').setInputFiles(first);
      const pages = card.getByRole('group', { name: 'Photos de la copie' });
      await expect(pages.getByText(/Votre copie en photos \(2 pages\)/)).toBeVisible();
      // The preview: each photo drawn by the browser, named by its page and file.
      const thumbnail = (page: number, name: string) => pages.getByRole('img', { name: new RegExp(`^Page ${page}\\s: ${name}$`) });
      await expect(thumbnail(1, 'IMG_0002.jpg')).toBeVisible();
      await expect.poll(() => thumbnail(1, 'IMG_0002.jpg').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(600);
      await pages.getByRole('button', { name: 'Mettre la page 2 avant' }).click();
      await expect(thumbnail(1, 'IMG_0001.jpg')).toBeVisible();
      await expect(thumbnail(2, 'IMG_0002.jpg')).toBeVisible();
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: screenshot('photos-preview-375.png'), fullPage: true });
      await expectAccessible(page, '/chapter/{id} (photos de la copie)');

      const sent = page.waitForResponse((r) => r.url().endsWith('/api/pdfs/photos') && r.request().method() === 'POST');
      await pages.getByRole('button', { name: 'Envoyer les photos' }).click();
      expect((await sent).status()).toBe(200);
      await expect(card.getByRole('link', { name: 'Voir la copie' })).toBeVisible({ timeout: 30_000 });
      await expect(pages).toHaveCount(0);
      await page.screenshot({ path: screenshot('photos-sent-375.png'), fullPage: true });
      // Stored as one PDF of two pages, the answer of the exercise.
      const mine = await ok<Array<{ answer: string }>>(await request.get(`/api/answer/chapter/${chapter._id}`, { headers: pupil.headers }));
      expect(mine).toHaveLength(1);
      expect(mine[0].answer).not.toBe('');
    } finally {
      await request.delete(`/api/chapter/${chapter._id}`, { headers: admin });
    }
  });
});
