import { expect, test } from '@playwright/test';
import {
  addToGroup,
  adminHeaders,
  apiAccount,
  expectAccessible,
  loginByApi,
  MEMBERS_GROUP_ID,
  ok,
  pupilProfile,
  screenshot,
  tag,
} from './fixtures.js';

/**
 * Decision 141: a corrector reaches « À corriger » (/a-corriger) from the menu's « Corriger »: the chapters with copies
 * waiting, in each the exercises that are theirs to grade with their number of copies, and a way to the grading table.
 */
test.describe('À corriger', () => {
  test('[CORRECTEUR] ouvre « Corriger » dans le menu, voit les copies qui l’attendent et va à la table de correction', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const admin = await adminHeaders(request);
    const title = `Coupe d’hiver ${tag()}`;
    const chapter = await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title } }));
    await ok(await request.patch(`/api/chapter/${chapter._id}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
    const exercise = async (name: string) =>
      (
        await ok<{ _id: string }>(
          await request.post('/api/exos', {
            headers: admin,
            data: {
              title: name,
              answerFormat: 'numeric',
              chapter: chapter._id,
              maxPoints: 4,
              statementVersions: [{ content: `Énoncé de ${name}`, answer: '7' }],
            },
          }),
        )
      )._id;
    const sums = await exercise('Sommes télescopiques');
    const graphs = await exercise('Graphes et coloriages');
    // Two pupils answer the first exercise, one the second: 3 copies wait, none graded.
    for (const [name, both] of [
      ['a', true],
      ['b', false],
    ] as const) {
      const pupil = await apiAccount(request, `a-corriger-${name}`, pupilProfile({ firstName: 'Inès', lastName: `Roux ${name}` }));
      await ok(await request.post('/api/answer', { headers: pupil.headers, data: { exerciseId: sums, answer: '7', seq: 1 } }));
      if (both) await ok(await request.post('/api/answer', { headers: pupil.headers, data: { exerciseId: graphs, answer: '3', seq: 1 } }));
    }
    const corrector = await apiAccount(request, 'correcteur-a-corriger');
    await addToGroup(request, admin, MEMBERS_GROUP_ID, corrector.email);
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await loginByApi(page, corrector.email);
      await page.goto('/');
      await page.getByRole('navigation').getByRole('link', { name: 'Corriger', exact: true }).click();
      await expect(page).toHaveURL(/\/a-corriger$/);
      await expect(page.getByRole('heading', { name: 'À corriger', level: 1 })).toBeVisible();
      const card = page.getByRole('region', { name: title });
      await expect(card).toBeVisible({ timeout: 30_000 });
      await expect(card.getByText('3 copies à corriger', { exact: true })).toBeVisible();
      await expect(card.getByRole('listitem').filter({ hasText: 'Sommes télescopiques' })).toContainText('2 copies à corriger');
      await expect(card.getByRole('listitem').filter({ hasText: 'Graphes et coloriages' })).toContainText('1 copie à corriger');
      // The pointer leaves the menu's link it clicked: the hovered active link is the sidebar's own matter.
      await page.mouse.move(900, 700);
      await expectAccessible(page, '/a-corriger');
      await page.setViewportSize({ width: 375, height: 800 });
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: screenshot('to-grade-375.png'), fullPage: true });
      await card.getByRole('link', { name: 'Corriger' }).click();
      await expect(page).toHaveURL(new RegExp(`/grader/${chapter._id}$`));
    } finally {
      await request.delete(`/api/chapter/${chapter._id}`, { headers: admin });
    }
  });
});
