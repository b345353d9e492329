import { expect, test } from '@playwright/test';
import { adminHeaders, apiAccount, expectAccessible, loginByApi, ok, pupilProfile, screenshot, tag } from './fixtures.js';

/**
 * Decision 139: a pupil who did not take part in a published chapter reads « Vous n’avez pas participé à ce
 * chapitre. », with no « 0 / 8 » card and no certificate button.
 */
test.describe('Résultats d’un élève qui n’a pas participé', () => {
  test('[ÉLÈVE] ouvre un chapitre publié sans y avoir répondu : ni carte de résultats ni attestation', async ({ page, request }) => {
    test.setTimeout(120_000);
    const admin = await adminHeaders(request);
    const title = `Tour de printemps ${tag()}`;
    const chapter = await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title } }));
    const url = `/api/chapter/${chapter._id}`;
    await ok(await request.patch(url, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
    const exercise = await ok<{ _id: string }>(
      await request.post('/api/exos', {
        headers: admin,
        data: {
          title: 'Partitions',
          answerFormat: 'numeric',
          chapter: chapter._id,
          maxPoints: 8,
          statementVersions: [{ content: 'Combien ?', answer: '42' }],
        },
      }),
    );
    const answered = await apiAccount(request, 'participe', pupilProfile({ firstName: 'Léa', lastName: 'Martin' }));
    await ok(await request.post('/api/answer', { headers: answered.headers, data: { exerciseId: exercise._id, answer: '42', seq: 1 } }));
    const absent = await apiAccount(request, 'absent', pupilProfile({ firstName: 'Hugo', lastName: 'Petit' }));
    // Published through the chapter's flag: the pupil who began may still answer (a window without an end), so the
    // admin confirms that one (decision 139).
    const refused = await request.patch(url, { headers: admin, data: { analysis: true } });
    expect(refused.status()).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'still_answering' });
    await ok(await request.patch(url, { headers: admin, data: { analysis: true, confirm: 1 } }));
    try {
      await loginByApi(page, absent.email);
      await page.goto(`/chapter/${chapter._id}`);
      const results = page.getByRole('region', { name: 'Vos résultats' });
      await expect(results).toBeVisible({ timeout: 30_000 });
      await expect(results.getByText('Vous n’avez pas participé à ce chapitre.')).toBeVisible();
      await expect(results.getByText(/\/\u00a08/)).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Télécharger mon attestation' })).toHaveCount(0);
      // The certificate route says the same (404 with the message).
      const certificate = await request.get(`/api/results/${chapter._id}/certificate.pdf`, { headers: absent.headers });
      expect(certificate.status()).toBe(404);
      await expectAccessible(page, '/chapter/{id} (non participant)');
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        // The menu slides into its drawer at 375 px (200 ms).
        await page.waitForTimeout(500);
        await page.screenshot({ path: screenshot(`non-participant-${width}.png`), fullPage: true });
      }
    } finally {
      await request.delete(url, { headers: admin });
    }
  });
});
