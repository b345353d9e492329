import { expect, test, type Download, type Page } from '@playwright/test';
import { adminHeaders, adminPage, apiAccount, loginByApi, ok, tag, TEACHERS_GROUP_ID } from './fixtures.js';

/**
 * The qualities of docs/product.md#design-4, XSS (docs/product.md#design-4: user-written text is rendered as text or sanitised Markdown):
 * payloads stored through the API in every user-written field, then every screen showing them is
 * opened in Chromium. CSP is bypassed on purpose so the rendering itself is tested (the CSP is a
 * second wall, tested in server/test/security.test.ts): an injected handler would run and set
 * window.__xss or open a dialog. CSV exports must neutralise cells that look like formulas.
 */
test.use({ bypassCSP: true });

type Headers = Record<string, string>;

/** Short payloads fit names (100 characters); each carries a visible marker to know the field was shown. */
const short = (marker: string) => `${marker} <img src=x onerror="window.__xss=1;alert(1)"> <svg onload=window.__xss=1>`;
/** Rich-text payloads: raw HTML, javascript: links in Markdown and in KaTeX. */
const rich = (marker: string) =>
  [
    `${marker} **gras**`,
    '<img src=x onerror="window.__xss=1;alert(1)">',
    '<script>window.__xss=1;alert(1)</script>',
    '<svg onload="window.__xss=1"></svg>',
    '<iframe src="javascript:window.__xss=1"></iframe>',
    '<a href="javascript:window.__xss=1">lien html</a>',
    '[lien piégé](javascript:window.__xss=1)',
    '[autre](JaVaScRiPt:alert(1))',
    '$\\href{javascript:window.__xss=1}{formule piégée}$ et $x^2$',
    '$$\\url{javascript:alert(1)}$$',
  ].join('\n\n');

/** Cells a spreadsheet would run as formulas (docs/product.md#design-4). */
const FORMULAS = { cmd: "=cmd|' /C calc'!A0", plus: '+1', minus: '-1', at: '@SUM(1+1)', link: '=HYPERLINK("http://evil.example","x")' };

const pupilProfile = (firstName: string, lastName: string, institution: string) => ({
  firstName,
  lastName,
  birthDate: '2010-05-04',
  gender: 'female',
  grade: '3eme',
  defaultChoice: 'local',
  emailParent: 'parent@e2e.test',
  institution,
});

/** Records dialogs; the page must never open one. */
function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return dialogs;
}

/** Waits until every marker is on the page (text, or the value of a field), so the payloads were really rendered. */
async function expectShown(page: Page, markers: string[]) {
  for (const marker of markers) {
    await expect
      .poll(
        () =>
          page.evaluate((m) => {
            if (document.body.innerText.includes(m)) return true;
            const fields = [...document.querySelectorAll('input, textarea')] as Array<HTMLInputElement | HTMLTextAreaElement>;
            if (fields.some((f) => f.value.includes(m))) return true;
            return [...document.querySelectorAll('[title], [alt], [aria-label]')].some((el) =>
              ['title', 'alt', 'aria-label'].some((a) => el.getAttribute(a)?.includes(m)),
            );
          }, marker),
        { message: `"${marker}" shown on ${page.url()}`, timeout: 15_000 },
      )
      .toBe(true);
  }
}

/** Nothing ran and nothing executable was written to the DOM. */
async function expectClean(page: Page, dialogs: string[], label: string) {
  // Lazy chunks (KaTeX, Markdown) and images get a moment to load and fire their handlers.
  await page.waitForTimeout(500);
  const found = await page.evaluate(() => {
    const bad: string[] = [];
    if ((window as unknown as { __xss?: unknown }).__xss !== undefined) bad.push('window.__xss was set');
    for (const el of document.querySelectorAll('*')) {
      for (const attr of el.attributes) {
        if (/^on/i.test(attr.name)) bad.push(`<${el.tagName.toLowerCase()} ${attr.name}>`);
        if (/^\s*(javascript|vbscript|data:text\/html)/i.test(attr.value) && /href|src|action|formaction|xlink/i.test(attr.name)) {
          bad.push(`<${el.tagName.toLowerCase()} ${attr.name}="${attr.value}">`);
        }
      }
    }
    for (const el of document.querySelectorAll('iframe, object, embed, img[src="x"], svg[onload]'))
      bad.push(`<${el.tagName.toLowerCase()}>`);
    for (const s of document.querySelectorAll('script')) if (!s.src) bad.push(`inline <script>: ${s.textContent?.slice(0, 60)}`);
    return bad;
  });
  expect(found, label).toEqual([]);
  expect(dialogs, `${label}: dialogs`).toEqual([]);
}

async function visit(page: Page, dialogs: string[], url: string, markers: string[]) {
  await page.goto(url);
  await expectShown(page, markers);
  await expectClean(page, dialogs, url);
}

async function csvOf(download: Download): Promise<string[][]> {
  let text = '';
  for await (const chunk of (await download.createReadStream()).setEncoding('utf8')) text += chunk;
  return text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean)
    .map((line) =>
      line
        .slice(1, -1)
        .split('";"')
        .map((f) => f.replaceAll('""', '"')),
    );
}

/** No cell may start like a formula; the formula texts are still there, behind a quote. */
function expectNeutralised(rows: string[][], label: string) {
  const cells = rows.flat();
  expect(
    cells.filter((c) => /^[=+\-@\t\r]/.test(c)),
    label,
  ).toEqual([]);
  for (const formula of [FORMULAS.cmd, FORMULAS.plus, FORMULAS.minus, FORMULAS.at]) expect(cells, label).toContain(`'${formula}`);
}

test.describe('XSS et injection de formules', () => {
  test('[ADMIN, ÉLÈVE, ENSEIGNANT] les textes saisis s’affichent sans jamais s’exécuter, les CSV neutralisent les formules', async ({
    page,
    request,
    browser,
  }) => {
    test.setTimeout(240_000);
    const admin: Headers = await adminHeaders(request);
    const id = tag();
    const m = (field: string) => `${field}${id}`;

    // A school (every field), a group, an online chapter (header, exercise title and statement),
    // a paper chapter (headers) with an open centre (instructions).
    const school = (
      await ok<{ institution: { _id: string } }>(
        await request.post('/api/institution', {
          headers: admin,
          data: {
            name: short(m('Ecole')),
            address: short(m('Adresse')),
            email: `ecole-${id}@e2e.test`,
            latitude: 47.2,
            longitude: -1.55,
            confirmed: true,
          },
        }),
      )
    ).institution;
    const pupil = await apiAccount(request, 'xss-eleve', pupilProfile(short(m('Prenom')), short(m('Nom')), school._id));
    const formulaPupil = await apiAccount(request, 'xss-formule', pupilProfile(FORMULAS.cmd, FORMULAS.at, school._id));
    const signPupil = await apiAccount(request, 'xss-signe', pupilProfile(FORMULAS.plus, FORMULAS.minus, school._id));
    const teacher = await apiAccount(request, 'xss-prof', {
      firstName: short(m('Prof')),
      lastName: 'Xss',
      gender: 'male',
      institution: school._id,
    });
    const teachers = await ok<{ members: Array<{ email: string }> }>(
      await request.get(`/api/group/${TEACHERS_GROUP_ID}`, { headers: admin }),
    );
    await ok(
      await request.patch(`/api/group/${TEACHERS_GROUP_ID}`, {
        headers: admin,
        data: { members: [...new Set([...teachers.members.map((x) => x.email), teacher.email])] },
      }),
    );
    const group = await ok<{ _id: string }>(await request.post('/api/group', { headers: admin, data: { name: short(m('Groupe')) } }));
    await ok(
      await request.patch(`/api/group/${group._id}`, {
        headers: admin,
        data: { members: [pupil.email, formulaPupil.email, signPupil.email] },
      }),
    );

    const online = await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title: short(m('Chapitre')) } }));
    await ok(
      await request.patch(`/api/chapter/${online._id}`, {
        headers: admin,
        data: { groups: [{ name: short(m('Acces')) }], headerStudents: rich(m('EnteteEleves')) },
      }),
    );
    const exercise = await ok<{ _id: string }>(
      await request.post('/api/exos', {
        headers: admin,
        data: {
          chapter: online._id,
          title: `${FORMULAS.link} ${short(m('Exercice'))}`,
          answerFormat: 'numeric',
          statementVersions: [{ content: rich(m('Enonce')), answer: '1' }],
        },
      }),
    );
    for (const p of [pupil, formulaPupil, signPupil]) {
      await ok(await request.post('/api/answer', { headers: p.headers, data: { exerciseId: exercise._id, answer: '1' } }));
    }
    const history = await ok<{ result: { answerId: string; grade_timestamp: string | null } }>(
      await request.get(`/api/answer/history/${pupil.id}/${exercise._id}`, { headers: admin }),
    );
    await ok(
      await request.post('/api/answer/grade', {
        headers: admin,
        data: {
          answerId: history.result.answerId,
          grade: '1',
          grade_comment: rich(m('Commentaire')),
          hidden: false,
          expectedGradeTimestamp: history.result.grade_timestamp ?? null,
        },
      }),
    );
    // Decision 152: the three pupils who answered may still answer (a window without an end): the admin confirms them.
    await ok(await request.patch(`/api/chapter/${online._id}`, { headers: admin, data: { analysis: true, confirm: 3 } }));

    const paper = await ok<{ _id: string }>(
      await request.post('/api/chapter', { headers: admin, data: { title: short(m('Papier')), offline: true } }),
    );
    await ok(
      await request.patch(`/api/chapter/${paper._id}`, {
        headers: admin,
        data: { groups: [{ name: 'tous' }], headerStudents: rich(m('PapierEleves')), headerCenters: rich(m('PapierCentres')) },
      }),
    );
    await ok(
      await request.patch(`/api/center/${paper._id}`, {
        headers: admin,
        data: { institution: school._id, opened: true, nb_places: 5, instructions: rich(m('Consignes')) },
      }),
    );
    await ok(await request.patch(`/api/center/user/${paper._id}`, { headers: pupil.headers, data: { institution: school._id } }));

    // The admin's screens.
    const dialogs = watchDialogs(page);
    await adminPage(page);
    await visit(page, dialogs, '/chapters', [m('Chapitre'), m('Papier')]);
    await visit(page, dialogs, `/exos/${online._id}`, [m('Exercice'), m('Enonce'), m('EnteteEleves')]);
    await visit(page, dialogs, `/chapter/${online._id}`, [m('Enonce'), m('EnteteEleves')]);
    await visit(page, dialogs, `/access/${online._id}`, [m('Acces')]);
    await visit(page, dialogs, `/grader/${online._id}`, [m('Prenom'), m('Exercice')]);
    const [results] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exporter en CSV' }).click()]);
    const resultRows = await csvOf(results);
    expectNeutralised(resultRows, 'grading CSV');
    // The header says the exercise's maximum after its title (decision 61).
    expect(resultRows[0]).toContain(`'${FORMULAS.link} ${short(m('Exercice'))} (/ 1)`);
    await visit(page, dialogs, `/history/${pupil.id}/${exercise._id}`, [m('Prenom'), m('Exercice'), m('Commentaire')]);
    await visit(page, dialogs, `/overview/${online._id}`, [m('Prenom'), m('Commentaire')]);
    // The cheat analysis names the pupil who answered; the sorting page shows a filed scan.
    await visit(page, dialogs, `/analysis/${online._id}`, [m('Prenom')]);
    await visit(page, dialogs, '/groups', [m('Groupe')]);
    await visit(page, dialogs, `/users/${group._id}`, [m('Prenom'), m('Groupe')]);
    const [members] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exporter en CSV' }).click()]);
    expectNeutralised(await csvOf(members), 'members CSV');
    await visit(page, dialogs, `/chapter/${paper._id}`, [m('Papier'), m('PapierEleves')]);
    await visit(page, dialogs, `/registrations/${paper._id}`, [m('Prenom'), m('Ecole')]);
    await visit(page, dialogs, `/sorting/${paper._id}`, []);
    await visit(page, dialogs, '/map', []);
    const marker = page.locator(`.leaflet-marker-icon[title*="${m('Ecole')}"]`).first();
    await expect(marker).toBeAttached({ timeout: 15_000 });
    await marker.click({ force: true });
    await expectShown(page, [m('Ecole')]);
    await expectClean(page, dialogs, '/map (popup)');

    // The pupil's screens: profile, the chapter with the published comment, the history, the centre choice.
    const pupilContext = await browser.newContext({ bypassCSP: true });
    const pupilPage = await pupilContext.newPage();
    const pupilDialogs = watchDialogs(pupilPage);
    try {
      await loginByApi(pupilPage, pupil.email);
      await visit(pupilPage, pupilDialogs, '/profile', [m('Prenom'), m('Nom'), m('Ecole')]);
      await visit(pupilPage, pupilDialogs, `/chapter/${online._id}`, [m('Enonce'), m('EnteteEleves'), m('Commentaire')]);
      await visit(pupilPage, pupilDialogs, `/history/${pupil.id}/${exercise._id}`, [m('Exercice'), m('Commentaire')]);
      await visit(pupilPage, pupilDialogs, `/chapter/${paper._id}`, [m('PapierEleves'), m('Ecole'), m('Consignes')]);
    } finally {
      await pupilContext.close();
    }

    // The school's teacher: the centre panel (instructions, registered pupils).
    const teacherContext = await browser.newContext({ bypassCSP: true });
    const teacherPage = await teacherContext.newPage();
    const teacherDialogs = watchDialogs(teacherPage);
    try {
      await loginByApi(teacherPage, teacher.email);
      await visit(teacherPage, teacherDialogs, `/chapter/${paper._id}`, [m('PapierCentres'), m('Prenom')]);
      await visit(teacherPage, teacherDialogs, '/profile', [m('Prof'), m('Ecole')]);
    } finally {
      await teacherContext.close();
    }
  });
});
