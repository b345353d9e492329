import { expect, test, type APIRequestContext } from '@playwright/test';
import { adminHeaders, adminPage, apiAccount, expectAccessible, loginByApi, ok, pupilProfile, screenshot, tag } from './fixtures.js';

/** A Paris wall clock as the date-time field takes it (« 08/12/2026 14:05 »), `ms` from now, to the minute. */
function parisInput(ms: number): string {
  const parts = new Intl.DateTimeFormat('fr-FR', {
    timeZone: 'Europe/Paris',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(Date.now() + ms));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('day')}/${get('month')}/${get('year')} ${get('hour')}:${get('minute')}`;
}

/** An online chapter open to all, with two numeric exercises worth 4 and 6 points. */
async function tourOne(request: APIRequestContext, admin: Record<string, string>, title: string) {
  const chapter = await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title } }));
  await ok(await request.patch(`/api/chapter/${chapter._id}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
  const exercise = async (name: string, answer: string, maxPoints: number) =>
    (
      await ok<{ _id: string }>(
        await request.post('/api/exos', {
          headers: admin,
          data: { title: name, answerFormat: 'numeric', chapter: chapter._id, maxPoints, statementVersions: [{ content: name, answer }] },
        }),
      )
    )._id;
  return { id: chapter._id, exercises: [await exercise('Carrés', '385', 4), await exercise('Cercle', '5', 6)] };
}

test.describe('Sélection', () => {
  test('[ADMIN][ÉLÈVE] le jury fixe deux seuils, départage des ex æquo, gèle et publie à un instant ; la qualifiée voit le tour 2, pas l’autre', async ({
    page,
    request,
    browser,
  }) => {
    test.setTimeout(300_000);
    const admin = await adminHeaders(request);
    const t = tag();
    const tour1 = await tourOne(request, admin, `Tour 1 ${t}`);

    // Alice (3e) 10 points; Bruno (3e) 4; Chloé and David (2de) 4 each: a tie at the Lycée's cut-off.
    const pupils = {
      alice: await apiAccount(request, 'sel-a', pupilProfile({ firstName: 'Alice', lastName: 'Abel', grade: '3eme', gender: 'female' })),
      bruno: await apiAccount(request, 'sel-b', pupilProfile({ firstName: 'Bruno', lastName: 'Borel', grade: '3eme', gender: 'male' })),
      chloe: await apiAccount(request, 'sel-c', pupilProfile({ firstName: 'Chloé', lastName: 'Cantor', grade: '2nde', gender: 'female' })),
      david: await apiAccount(request, 'sel-d', pupilProfile({ firstName: 'David', lastName: 'Dedekind', grade: '2nde', gender: 'male' })),
    };
    const answers: Record<keyof typeof pupils, [string, string]> = {
      alice: ['385', '5'],
      bruno: ['385', '4'],
      chloe: ['385', '4'],
      david: ['385', '4'],
    };
    for (const [who, [a, b]] of Object.entries(answers) as Array<[keyof typeof pupils, [string, string]]>) {
      const headers = pupils[who].headers;
      await ok(await request.post('/api/answer', { headers, data: { exerciseId: tour1.exercises[0], answer: a, seq: 1 } }));
      await ok(await request.post('/api/answer', { headers, data: { exerciseId: tour1.exercises[1], answer: b, seq: 1 } }));
    }
    await ok(await request.post(`/api/answer/auto/${tour1.id}`, { headers: admin }));
    // Tour 1's results are published (the pupils' results page carries the selection's outcome).
    const publish = await request.put(`/api/results/${tour1.id}/publication`, { headers: admin, data: { mode: 'now' } });
    if (publish.status() === 409) {
      const { stillAnswering } = (await publish.json()) as { stillAnswering: number };
      await ok(
        await request.put(`/api/results/${tour1.id}/publication`, { headers: admin, data: { mode: 'now', confirm: stillAnswering } }),
      );
    } else expect(publish.ok()).toBe(true);

    const title = `Sélection ${t}`;
    const selection = await ok<{ _id: string }>(
      await request.post('/api/selection', {
        headers: admin,
        data: {
          title,
          chapters: [{ chapterId: tour1.id, weight: 1 }],
          categories: [
            { name: 'Collège', grades: ['5eme', '4eme', '3eme'] },
            { name: 'Lycée', grades: ['2nde', '1ere', 'Tale'] },
          ],
          nextRoundTitle: `le tour 2 ${t}`,
          nextRoundDate: '2027-03-13',
          nextRoundPlace: 'Lycée Louis-le-Grand, Paris',
        },
      }),
    );
    // Tour 2 opens only to the qualified of this selection (decision 157).
    const tour2Title = `Tour 2 ${t}`;
    const tour2 = await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title: tour2Title } }));
    await ok(
      await request.patch(`/api/chapter/${tour2._id}`, {
        headers: admin,
        data: { groups: [{ name: 'qualifiés', requiredSelectionId: selection._id }] },
      }),
    );

    // The jury's board: anonymous, the Collège's cut-off typed, the live count.
    await adminPage(page);
    await page.goto(`/selections/${selection._id}`);
    await expect(page.getByRole('heading', { name: title })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Alice')).toHaveCount(0);
    const cutoff = page.getByLabel('Seuil (points)');
    await cutoff.fill('5');
    await cutoff.blur();
    await expect(page.getByText(/^1\u00a0sélectionné\(e\) sur 2/)).toBeVisible();
    await expect(page.getByText('Enregistré')).toBeVisible();
    await expectAccessible(page, '/selections/{id} (tableau du jury)');
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: screenshot(`selection-board-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // The Lycée: 4 points puts Chloé and David exactly at the cut-off; freezing waits for the tie to be resolved.
    await page.getByRole('tab', { name: 'Lycée' }).click();
    await page.getByLabel('Seuil (points)').fill('4');
    await page.getByLabel('Seuil (points)').blur();
    await expect(page.getByText(/^2\u00a0élèves exactement au seuil/)).toBeVisible();
    await page.getByRole('button', { name: 'Geler la liste' }).click();
    const freeze = page.getByRole('dialog', { name: 'Geler la liste (version 1)' });
    await freeze.getByRole('button', { name: 'Geler la liste' }).click();
    await expect(freeze.getByText(/Départagez les ex æquo au seuil de la catégorie « Lycée »/)).toBeVisible();
    await freeze.getByRole('button', { name: 'Annuler' }).click();
    await page.getByRole('button', { name: 'Inclure les ex æquo' }).click();
    await expect(page.getByText(/^2\u00a0sélectionné\(e\)s sur 2/)).toBeVisible();
    await expect(page.getByText('Enregistré')).toBeVisible();

    // Frozen: version 1, and the names are now shown.
    await page.getByRole('button', { name: 'Geler la liste' }).click();
    await expectAccessible(page, '/selections/{id} (gel de la liste)');
    await freeze.getByRole('button', { name: 'Geler la liste' }).click();
    await expect(freeze).toHaveCount(0);
    await expect(page.getByText('Chloé Cantor').first()).toBeVisible();

    // Published at an instant a minute or so ahead, in Paris time.
    await page.getByRole('button', { name: 'Publication', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Publication : ${title}` });
    await dialog.getByLabel('Programmer').check();
    const when = dialog.getByLabel('Date et heure de publication (heure de Paris)');
    await when.fill(parisInput(90_000));
    await when.blur();
    await expectAccessible(page, '/selections/{id} (publication)');
    await dialog.getByRole('button', { name: 'Programmer' }).click();
    await page.getByRole('dialog', { name: 'Programmer la publication ?' }).getByRole('button', { name: 'Programmer' }).click();
    await expect(dialog).toHaveCount(0);

    // Before the instant nobody reads anything, nor opens Tour 2.
    expect(await ok<unknown[]>(await request.get('/api/selection/mine', { headers: pupils.alice.headers }))).toEqual([]);
    await expect
      .poll(async () => (await ok<unknown[]>(await request.get('/api/selection/mine', { headers: pupils.alice.headers }))).length, {
        timeout: 150_000,
        intervals: [5_000],
      })
      .toBe(1);
    const visible = async (who: keyof typeof pupils) =>
      (await ok<Array<{ title: string }>>(await request.get('/api/chapter', { headers: pupils[who].headers }))).some(
        (c) => c.title === tour2Title,
      );
    expect(await visible('alice')).toBe(true);
    expect(await visible('chloe')).toBe(true);
    expect(await visible('bruno')).toBe(false);

    // Alice reads her qualification on Tour 1's results; Bruno reads « Non qualifié(e) ».
    for (const [who, words] of [
      ['alice', `Qualifié(e) pour le tour 2 ${t}`],
      ['bruno', 'Non qualifié(e)'],
    ] as const) {
      const context = await browser.newContext();
      const tab = await context.newPage();
      try {
        await loginByApi(tab, pupils[who].email);
        await tab.goto(`/chapter/${tour1.id}`);
        await expect(tab.getByText(words)).toBeVisible({ timeout: 30_000 });
        await expect(tab.getByText('Catégorie\u00a0: Collège')).toBeVisible();
        if (who === 'alice') {
          await expect(tab.getByRole('button', { name: 'Télécharger la lettre de qualification' })).toBeVisible();
          await expectAccessible(tab, '/chapter/{id} (qualification)');
          await tab.screenshot({ path: screenshot('selection-qualified-1280.png'), fullPage: true });
        } else {
          await expect(tab.getByRole('button', { name: 'Télécharger la lettre de qualification' })).toHaveCount(0);
        }
      } finally {
        await context.close();
      }
    }
  });
});
