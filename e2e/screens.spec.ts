import { expect as baseExpect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import {
  addToGroup,
  adminHeaders,
  adminPage,
  apiAccount,
  expectAccessible,
  loginByApi,
  MEMBERS_GROUP_ID,
  ok,
  pupilProfile,
  screenshot,
  smallPdf,
  tag,
  TEACHERS_GROUP_ID,
} from './fixtures.js';

// Two cores shared with other journeys: a page may take a few seconds after a navigation.
const expect = baseExpect.configure({ timeout: 10_000 });

type Headers = Record<string, string>;

/**
 * Each role's main screens (decision 104), at 1280 px and 375 px, saved as `<role>-<screen>-<width>.png` under
 * e2e/output/screens (looked at by a person; never committed) and checked by axe at both widths.
 */
async function shoot(page: Page, role: string, name: string, ready: Locator) {
  await expect(ready).toBeVisible();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    // The sidebar slides into its drawer: the picture is taken once it has moved, from the top of the page.
    await page.waitForFunction(() =>
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
    );
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshot(`${role}-${name}-${width}.png`), fullPage: true });
    // Reflow (RGAA 10.11): the page is never wider than the screen; a wide table scrolls in its own region.
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${role} : ${name} à ${width} px`).toBeLessThanOrEqual(width);
  }
  await expectAccessible(page, `${role} : ${name}`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** One online chapter (a numeric and a PDF exercise) and one paper chapter, open to everyone, and a school. */
async function setUp(request: APIRequestContext, admin: Headers) {
  const t = tag();
  const chapter = async (title: string, offline: boolean) => {
    const id = (await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title, offline } })))._id;
    await ok(await request.patch(`/api/chapter/${id}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
    return id;
  };
  const exercise = async (chapterId: string, title: string, answerFormat: 'numeric' | 'pdf', answer: string | null) =>
    (
      await ok<{ _id: string }>(
        await request.post('/api/exos', {
          headers: admin,
          data: { title, answerFormat, chapter: chapterId, statementVersions: [{ content: `Énoncé de ${title} : $x^2 = 4$`, answer }] },
        }),
      )
    )._id;
  const online = await chapter(`Tour en ligne ${t}`, false);
  const numeric = await exercise(online, 'Carrés', 'numeric', '2');
  const pdf = await exercise(online, 'Rédaction', 'pdf', null);
  const paper = await chapter(`Épreuve papier ${t}`, true);
  await exercise(paper, 'Démonstration', 'pdf', null);
  const school = await ok<{ institution: { _id: string } }>(
    await request.post('/api/institution', {
      headers: admin,
      data: { name: `Collège Hypatie ${t}`, address: '1 rue de l’École, Paris', latitude: 48.8566, longitude: 2.3522, confirmed: true },
    }),
  );
  return { t, online, numeric, pdf, paper, schoolId: school.institution._id, schoolName: `Collège Hypatie ${t}` };
}

test.describe('Écrans principaux de chaque rôle', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('[ÉLÈVE, ENSEIGNANT, CORRECTEUR, ADMIN] écrans principaux à 1280 et 375 px', async ({ page, request }) => {
    // About 70 s alone (14 screens, axe at two widths each); the margin is for a machine shared with other journeys.
    // /map is left to e2e/profile.spec.ts, which shows and checks it.
    test.setTimeout(240_000);
    const admin = await adminHeaders(request);
    const data = await setUp(request, admin);
    // Map tiles come from outside: refused, so no screen waits on the network.
    await page.route(
      (url) => url.hostname !== 'localhost',
      (route) => route.abort(),
    );
    try {
      // The pupil has answered the numeric exercise and sent a PDF copy.
      const pupil = await apiAccount(request, 'ecrans-eleve', pupilProfile({ firstName: 'Alice', lastName: 'Abel' }));
      await ok(await request.post('/api/answer', { headers: pupil.headers, data: { exerciseId: data.numeric, answer: '2', seq: 1 } }));
      const upload = await ok<{ path: string }>(
        await request.post('/api/pdfs', {
          headers: pupil.headers,
          multipart: {
            exercise: data.pdf,
            file: { name: 'copie.pdf', mimeType: 'application/pdf', buffer: await smallPdf('Copie d’Alice') },
          },
        }),
      );
      await ok(await request.post('/api/answer', { headers: pupil.headers, data: { exerciseId: data.pdf, answer: upload.path, seq: 1 } }));

      await loginByApi(page, pupil.email);
      await page.goto('/profile');
      await shoot(page, 'eleve', 'profil', page.getByRole('heading', { name: 'Mon profil', level: 1 }));
      await page.goto(`/chapter/${data.online}`);
      await shoot(
        page,
        'eleve',
        'epreuve-en-ligne',
        page.getByRole('region', { name: 'Carrés' }).getByRole('textbox', { name: 'Votre réponse :' }),
      );
      await page.goto(`/history/${pupil.id}/${data.pdf}`);
      await shoot(page, 'eleve', 'copie', page.getByRole('link', { name: 'Visualiser' }));
      await page.goto(`/chapter/${data.paper}`);
      await shoot(page, 'eleve', 'epreuve-papier', page.getByRole('region', { name: 'Centre d’examen' }));

      const teacher = await apiAccount(request, 'ecrans-enseignant', {
        firstName: 'Émile',
        lastName: 'Borel',
        gender: 'male',
        institution: data.schoolId,
      });
      await addToGroup(request, admin, TEACHERS_GROUP_ID, teacher.email);
      await loginByApi(page, teacher.email);
      await page.goto(`/chapter/${data.paper}`);
      await shoot(page, 'enseignant', 'centre', page.getByRole('region', { name: `Centre d’examen : ${data.schoolName}` }));
      await page.goto('/eleves/import');
      await shoot(page, 'enseignant', 'inscrire-des-eleves', page.getByRole('heading', { name: 'Inscrire des élèves', level: 1 }));

      const corrector = await apiAccount(request, 'ecrans-correcteur', { firstName: 'Paul', lastName: 'Premier', gender: 'male' });
      await addToGroup(request, admin, MEMBERS_GROUP_ID, corrector.email);
      await loginByApi(page, corrector.email);
      await page.goto(`/grader/${data.online}`);
      await shoot(page, 'correcteur', 'tableau', page.getByRole('link', { name: 'Alice Abel, Carrés : à corriger' }));
      await page.goto(`/history/${pupil.id}/${data.pdf}`);
      await shoot(page, 'correcteur', 'copie', page.getByRole('img', { name: 'Copie, page 1 sur 1' }));
      await page.goto(`/overview/${data.online}`);
      await shoot(page, 'correcteur', 'revue', page.getByRole('heading', { name: 'Aperçu des corrections', level: 1 }));

      await adminPage(page);
      await page.goto('/chapters');
      await shoot(
        page,
        'admin',
        'chapitres',
        page
          .getByRole('textbox', { name: new RegExp(`Tour en ligne ${data.t}`) })
          .or(page.getByText(`Tour en ligne ${data.t}`))
          .first(),
      );
      await page.goto(`/exos/${data.online}`);
      await shoot(page, 'admin', 'exercices', page.getByRole('heading', { name: 'Gestion du chapitre', level: 1 }));
      await page.goto(`/access/${data.online}`);
      await shoot(page, 'admin', 'acces', page.getByRole('textbox', { name: 'Nom du groupe 1' }));
      await page.goto('/groups');
      await shoot(page, 'admin', 'groupes', page.getByRole('heading', { name: 'Gestion des groupes', level: 1 }));
    } finally {
      await request.delete(`/api/chapter/${data.online}`, { headers: admin });
      await request.delete(`/api/chapter/${data.paper}`, { headers: admin });
    }
  });
});
