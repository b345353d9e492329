import { expect as baseExpect, test } from '@playwright/test';
import { adminHeaders, apiAccount, expectAccessible, loginByApi, ok, pupilProfile, screenshot, tag } from './fixtures.js';

// Several journeys share two cores: a page may take several seconds to answer after a navigation.
const expect = baseExpect.configure({ timeout: 10_000 });

const EXPECTED = ['0,5', '-3', '1000', '7'];

test.describe('Réponses numériques', () => {
  test('[ÉLÈVE] tape 0,5, -3 et 1 000 touche par touche : ils sont enregistrés tels quels et notés justes ; « abc » est refusé avec la raison', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const admin = await adminHeaders(request);
    const me = await apiAccount(request, 'nombres', pupilProfile({ firstName: 'Émilie', lastName: 'du Châtelet' }));
    const chapterId = (
      await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title: `Nombres ${tag()}` } }))
    )._id;
    try {
      await ok(await request.patch(`/api/chapter/${chapterId}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
      const exercises: Array<{ id: string; title: string }> = [];
      for (const [i, answer] of EXPECTED.entries()) {
        const title = `Question ${i + 1}`;
        const data = {
          title,
          answerFormat: 'numeric',
          chapter: chapterId,
          statementVersions: [{ content: '$\\frac{1}{2}$ s’écrit `0,5`.', answer }],
        };
        exercises.push({ id: (await ok<{ _id: string }>(await request.post('/api/exos', { headers: admin, data })))._id, title });
      }

      await loginByApi(page, me.email);
      await page.goto(`/chapter/${chapterId}`);
      const input = (i: number) => page.getByRole('region', { name: exercises[i].title }).getByRole('textbox', { name: 'Votre réponse :' });
      const state = (i: number) => page.getByTestId(`save-state-${exercises[i].id}`);

      // Typed key by key, as on a keyboard: no key is dropped, each value is saved as typed.
      const typed = ['0,5', '-3', '1 000'];
      for (const [i, text] of typed.entries()) {
        await input(i).pressSequentially(text, { delay: 30 });
        await expect(input(i)).toHaveValue(text);
        await expect(input(i)).not.toHaveAttribute('aria-invalid', 'true');
        await expect(state(i)).toHaveText('Enregistré');
      }

      // Not a number: the reason is shown and tied to the field, nothing is saved, never « Enregistré ».
      const reason = 'Réponse non reconnue : seuls les chiffres, la virgule, le signe moins et la barre de fraction / sont acceptés.';
      await input(3).pressSequentially('abc', { delay: 30 });
      await expect(input(3)).toHaveValue('abc');
      await expect(input(3)).toHaveAttribute('aria-invalid', 'true');
      await expect(input(3)).toHaveAccessibleDescription(reason);
      await expect(state(3)).toHaveText(`${reason} Cette valeur n’est pas enregistrée.`);
      await page.waitForTimeout(1_000);
      await expect(state(3)).not.toContainText('Enregistré');
      await expectAccessible(page, '/chapter/{id} (réponse non reconnue)', { labelInName: true });
      await page.screenshot({ path: screenshot('numeric-refused.png'), fullPage: true });

      const mine = await ok<Array<{ exercise: string; answer: string }>>(
        await request.get(`/api/answer/chapter/${chapterId}`, { headers: me.headers }),
      );
      const current = new Map(mine.map((a) => [a.exercise, a.answer]));
      expect(exercises.map((e) => current.get(e.id))).toEqual([...typed, undefined]);

      // A reload shows what was saved, as typed.
      await page.reload();
      for (const [i, text] of typed.entries()) await expect(input(i)).toHaveValue(text);
      await expect(input(3)).toHaveValue('');

      // The admin's automatic correction grades the three answers right.
      const auto = await ok<{ graded: number }>(await request.post(`/api/answer/auto/${chapterId}`, { headers: admin }));
      expect(auto.graded).toBe(3);
      const table = await ok<{ users: Record<string, { data: string[] }> }>(
        await request.get(`/api/answer/table/${chapterId}`, { headers: admin }),
      );
      expect(table.users[me.id].data).toEqual(['1', '1', '1', ' ']);
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
    }
  });
});
