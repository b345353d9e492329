import { expect as baseExpect, test } from '@playwright/test';
import {
  addToGroup,
  adminHeaders,
  apiAccount,
  expectAccessible,
  loginByApi,
  MEMBERS_GROUP_ID,
  ok,
  PASSWORD,
  pupilProfile,
  screenshot,
  tabTo,
  tag,
} from './fixtures.js';

// Several journeys share two cores: a page may take several seconds to answer after a navigation.
const expect = baseExpect.configure({ timeout: 10_000 });
const HOUR = 3600_000;

/**
 * Keyboard-only journeys (RGAA 7.3, 10.7, 12.8): the pupil's timed test from the login form to the
 * receipt, and a corrector's « copie suivante » flow (sorting: e2e/sorting.spec.ts), with Tab, Shift+Tab, Enter and typing only —
 * never a click, never a `focus()` from the test. Every control reached shows where the focus is.
 */

test.describe('Au clavier seul', () => {
  test('[ÉLÈVE] se connecte, ouvre son épreuve, la commence, répond « 0,5 » et la termine sans souris', async ({ page, request }) => {
    test.setTimeout(120_000);
    const admin = await adminHeaders(request);
    const title = `Tour clavier ${tag()}`;
    const { _id: chapterId } = await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title } }));
    try {
      await ok(
        await request.patch(`/api/chapter/${chapterId}`, {
          headers: admin,
          data: {
            groups: [
              {
                name: 'tous',
                timeDuration: 60,
                accessStart: new Date(Date.now() - 2 * HOUR).toISOString(),
                accessEnd: new Date(Date.now() + 24 * HOUR).toISOString(),
              },
            ],
          },
        }),
      );
      const exercise = await ok<{ _id: string }>(
        await request.post('/api/exos', {
          headers: admin,
          data: {
            title: 'Moitié',
            answerFormat: 'numeric',
            chapter: chapterId,
            statementVersions: [{ content: 'Combien vaut $\\frac{1}{2}$ ?', answer: '0,5' }],
          },
        }),
      );
      const pupil = await apiAccount(request, 'clavier', pupilProfile({ firstName: 'Louis', lastName: 'Braille' }));

      // Decision 122: the pupil's statements come drawn by the server; KaTeX's code is never downloaded.
      const files: string[] = [];
      page.on('request', (r) => files.push(new URL(r.url()).pathname));

      // The login form, field after field.
      await page.goto('/login');
      await tabTo(page, page.getByLabel(/e-mail/i));
      await page.keyboard.type(pupil.email);
      await tabTo(page, page.locator('input[type="password"]'));
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Mon profil' })).toBeVisible({ timeout: 30_000 });

      // The chapter from the navigation.
      await tabTo(page, page.getByRole('navigation').getByRole('link', { name: title }));
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(new RegExp(`/chapter/${chapterId}`));

      // Start: a confirmation dialog that takes the focus, then gives it back to the page.
      await tabTo(page, page.getByRole('button', { name: /^Commencer l.épreuve en temps limité$/ }));
      await page.keyboard.press('Enter');
      const start = page.getByRole('dialog', { name: /Commencer l.épreuve/ });
      await expect(start).toBeVisible();
      await tabTo(page, start.getByRole('button', { name: 'Commencer maintenant' }));
      await page.keyboard.press('Enter');
      await expect(start).toBeHidden();

      // The statement's formula, drawn by the server, with its MathML for screen readers.
      const statement = page.getByRole('region', { name: 'Moitié' }).getByRole('group', { name: /^Énoncé\s:\sMoitié$/ });
      await expect(statement.locator('.katex-html')).toBeVisible();
      await expect(statement.locator('.katex-mathml annotation')).toHaveText('\\frac{1}{2}');
      expect(files.filter((f) => /math-render/.test(f))).toEqual([]);

      // The answer, typed as a French pupil types it; the save is announced.
      const input = page.getByRole('region', { name: 'Moitié' }).getByRole('textbox', { name: /Votre réponse/ });
      await tabTo(page, input);
      await page.keyboard.type('0,5', { delay: 30 });
      await expect(page.getByTestId(`save-state-${exercise._id}`)).toHaveText('Enregistré');
      await expectAccessible(page, '/chapter/{id} au clavier (réponse enregistrée)', { labelInName: true });
      await page.screenshot({ path: screenshot('keyboard-pupil-answer.png'), fullPage: true });

      // Finish, confirmed in a dialog, then the receipt.
      await tabTo(page, page.getByRole('button', { name: 'Terminer l’épreuve' }));
      await page.keyboard.press('Enter');
      const finish = page.getByRole('dialog', { name: 'Terminer l’épreuve ?' });
      await expect(finish).toBeVisible();
      await tabTo(page, finish.getByRole('button', { name: 'Terminer maintenant' }));
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('receipt').getByRole('heading', { name: 'Reçu de vos réponses' })).toBeVisible();

      const mine = await ok<Array<{ exercise: string; answer: string }>>(
        await request.get(`/api/answer/chapter/${chapterId}`, { headers: pupil.headers }),
      );
      expect(mine.map((a) => [a.exercise, a.answer])).toEqual([[exercise._id, '0,5']]);
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
    }
  });

  test('[CORRECTEUR] corrige deux copies par « copie suivante » sans souris, la note annoncée à chaque fois', async ({ page, request }) => {
    test.setTimeout(120_000);
    const admin = await adminHeaders(request);
    const title = `Correction clavier ${tag()}`;
    const { _id: chapterId } = await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title } }));
    try {
      await ok(await request.patch(`/api/chapter/${chapterId}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
      const { _id: exerciseId } = await ok<{ _id: string }>(
        await request.post('/api/exos', {
          headers: admin,
          data: {
            title: 'Carrés',
            answerFormat: 'numeric',
            chapter: chapterId,
            statementVersions: [{ content: 'Combien vaut $2^2$ ?', answer: '4' }],
          },
        }),
      );
      const pupils = [
        await apiAccount(request, 'clavier-a', pupilProfile({ firstName: 'Alice', lastName: 'Abel' })),
        await apiAccount(request, 'clavier-b', pupilProfile({ firstName: 'Bruno', lastName: 'Bernoulli' })),
      ];
      for (const [i, pupil] of pupils.entries()) {
        await ok(await request.post('/api/answer', { headers: pupil.headers, data: { exerciseId, answer: ['4', '5'][i], seq: 1 } }));
      }
      // A complete profile: the sidebar lists the chapters (with their « Corriger » icon) only then.
      const corrector = await apiAccount(request, 'correcteur-clavier', pupilProfile({ firstName: 'Camille', lastName: 'Jordan' }));
      await addToGroup(request, admin, MEMBERS_GROUP_ID, corrector.email);

      await loginByApi(page, corrector.email);
      await page.goto(`/grader/${chapterId}`);
      await expect(page.getByRole('heading', { name: `Correction : ${title}` })).toBeVisible();
      // The sidebar's chapter link takes its row but the « Corriger » icon (a title squeezed beside it would wrap: « Tour ⏎ 1 »).
      const sideLink = page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: title, exact: true });
      const widths = await sideLink.evaluate((el) => ({
        link: el.getBoundingClientRect().width,
        row: el.parentElement!.getBoundingClientRect().width,
      }));
      expect(widths.link).toBeGreaterThan(widths.row - 40);
      await tabTo(page, page.getByRole('button', { name: 'Corriger la copie suivante : Carrés' }));
      await page.keyboard.press('Enter');

      for (const grade of ['1', '0']) {
        await expect(page.getByRole('heading', { name: 'Résultat' })).toBeVisible();
        const note = page.getByRole('textbox', { name: 'Note' });
        await tabTo(page, note);
        await page.keyboard.type(grade);
        await expect(
          page
            .getByRole('status')
            .filter({ hasText: /Enregistr/ })
            .first(),
        ).toBeVisible();
        if (grade === '1') {
          await expectAccessible(page, '/history au clavier (note enregistrée)');
          await page.screenshot({ path: screenshot('keyboard-corrector-grade.png'), fullPage: true });
          await tabTo(page, page.getByRole('button', { name: 'Copie suivante' }));
          await page.keyboard.press('Enter');
          await expect(note).toHaveValue('');
        }
      }

      const table = await ok<{ users: Record<string, { data: string[] }> }>(
        await request.get(`/api/answer/table/${chapterId}`, { headers: admin }),
      );
      expect(pupils.map((p) => table.users[p.id].data[0]).sort()).toEqual(['0', '1']);
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
    }
  });
});
