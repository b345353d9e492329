import { expect, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { adminHeaders, adminPage, apiAccount, expectAccessible, ok, screenshot, tag } from './fixtures.js';

/** A one-page scan of a copy's page. */
async function scanPage(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([420, 595]).drawText(text, { x: 30, y: 500, size: 18, font });
  return Buffer.from(await doc.save());
}

/**
 * Decision 139: a page sorted after the grade joins the graded copy, which keeps its grade and is flagged « Pages
 * ajoutées après la note » at the grading desk and with a « + » in the grading table, until a corrector acts.
 */
test.describe('Pages ajoutées après la note', () => {
  test('[CORRECTEUR] une page triée sur une copie déjà notée : la note reste, la copie est signalée au bureau et dans la table', async ({
    page,
    request,
  }) => {
    test.setTimeout(150_000);
    const admin = await adminHeaders(request);
    const t = tag();
    const title = `Épreuve papier ${t}`;
    const chapterId = (await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title, offline: true } })))
      ._id;
    await ok(await request.patch(`/api/chapter/${chapterId}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
    const exerciseTitle = 'Combinatoire';
    const exerciseId = (
      await ok<{ _id: string }>(
        await request.post('/api/exos', {
          headers: admin,
          data: {
            title: exerciseTitle,
            answerFormat: 'pdf',
            chapter: chapterId,
            maxPoints: 7,
            statementVersions: [{ content: 'Dénombrez les chemins.' }],
          },
        }),
      )
    )._id;
    const school = (
      await ok<{ institution: { _id: string } }>(
        await request.post('/api/institution', {
          headers: admin,
          data: { name: `Collège Ajout ${t}`, address: '2 rue des Pages', latitude: 48.38, longitude: -4.5, confirmed: true },
        }),
      )
    ).institution._id;
    await ok(
      await request.patch(`/api/center/${chapterId}`, { headers: admin, data: { institution: school, opened: true, nb_places: 5 } }),
    );
    const pupil = await apiAccount(request, 'eleve-ajout', {
      firstName: 'Nina',
      lastName: `Carré${t}`,
      birthDate: '2010-05-04',
      gender: 'female',
      grade: '3eme',
      defaultChoice: 'local',
      emailParent: 'parent@e2e.test',
      institution: school,
    });
    await ok(await request.patch(`/api/center/user/${chapterId}`, { headers: pupil.headers, data: { institution: school } }));

    /** A scan uploaded, filed for the school and sorted as one page of the pupil's copy of the exercise. */
    const sortOnePage = async (text: string) => {
      const uploaded = await ok<{ path: string }>(
        await request.post('/api/pdfs', {
          headers: admin,
          multipart: { chapter: chapterId, file: { name: `${text}.pdf`, mimeType: 'application/pdf', buffer: await scanPage(text) } },
        }),
      );
      const copy = await ok<{ _id: string }>(
        await request.post(`/api/answer/unlabeled/${chapterId}`, { headers: admin, data: { answer: uploaded.path, institution: school } }),
      );
      return ok<{ message: string; answers: Array<{ _id: string }> }>(
        await request.post(`/api/answer/label/${copy._id}`, {
          headers: admin,
          data: [{ pageNum: 1, user: pupil.id, exercises: [exerciseId], rotation: 0 }],
        }),
      );
    };

    try {
      const [copy] = (await sortOnePage('Copie page 1')).answers;
      await ok(
        await request.post('/api/answer/grade', {
          headers: admin,
          data: { answerId: copy._id, grade: '5', grade_comment: 'Bien', expectedGradeTimestamp: null },
        }),
      );
      // A page found later in another room's scan, sorted to the same pupil and exercise.
      const later = await sortOnePage('Copie page 2');
      expect(later.message).toContain('garde sa note');
      expect(later.answers[0]._id).toBe(copy._id);

      await adminPage(page);
      const desk = `/history/${pupil.id}/${exerciseId}`;
      await page.goto(desk);
      const notice = page.getByRole('alert').filter({ hasText: 'Pages ajoutées après la note' });
      await expect(notice).toBeVisible({ timeout: 30_000 });
      await expect(notice).toContainText('la note est conservée');
      await page.setViewportSize({ width: 375, height: 800 });
      await notice.scrollIntoViewIfNeeded();
      await page.screenshot({ path: screenshot('pages-added-desk-375.png') });
      await page.setViewportSize({ width: 1280, height: 800 });
      await expectAccessible(page, '/history (pages ajoutées après la note)');

      // The grading table: the cell keeps the grade, with « + » and the notice in its name.
      await page.goto(`/grader/${chapterId}`);
      const cell = page.getByRole('link', { name: new RegExp(`${exerciseTitle}\\s: .*pages ajoutées après la note$`) });
      await expect(cell).toBeVisible({ timeout: 30_000 });
      await expect(cell).toContainText('5');
      await expect(cell).toContainText('+');
      await expectAccessible(page, '/grader/{id} (pages ajoutées après la note)');
      await page.setViewportSize({ width: 375, height: 800 });
      await page.screenshot({ path: screenshot('pages-added-table-375.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });

      // At the desk the corrector reads the copy again and removes the notice, keeping the grade.
      await page.goto(desk);
      await notice.getByRole('button', { name: 'Retirer l’avertissement' }).click();
      await expect(notice).toHaveCount(0);
      await expectAccessible(page, '/history (avertissement retiré)');
      await page.goto(`/grader/${chapterId}`);
      await expect(page.getByRole('link', { name: new RegExp(`${exerciseTitle}\\s: `) })).not.toContainText('+');
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
    }
  });
});
