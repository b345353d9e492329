import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect as baseExpect, test, type APIRequestContext } from '@playwright/test';
import config from './playwright.config.js';
import {
  addToGroup,
  adminHeaders,
  apiAccount,
  expectAccessible,
  loginByApi,
  ok,
  pupilProfile,
  screenshot,
  tag,
  TEACHERS_GROUP_ID,
} from './fixtures.js';

type Headers = Record<string, string>;
const expect = baseExpect.configure({ timeout: 20_000 });

/**
 * Chromium's fake camera plays a Y4M file: the test writes there the convocation a pupil holds up,
 * printed by poppler (pdftoppm) as the real PDF renders, before the camera is switched on.
 */
const CAMERA = path.resolve(import.meta.dirname, `output/camera-${process.env.E2E_PORT ?? 3100}.y4m`);

/** A grey page (PGM) as one frame of 4:2:0 video, its sides made even as Y4M wants. */
function y4mOf(pgm: Buffer): Buffer {
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error('not a PGM');
  const [width, height] = [Number(header[1]), Number(header[2])];
  const pixels = pgm.subarray(header[0].length);
  const [w, h] = [width & ~1, height & ~1];
  const luma = Buffer.alloc(w * h);
  for (let y = 0; y < h; y++) pixels.copy(luma, y * w, y * width, y * width + w);
  const chroma = Buffer.alloc((w / 2) * (h / 2), 128);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${w} H${h} F5:1 Ip A1:1 C420jpeg\n`), Buffer.from('FRAME\n'), luma, chroma, chroma]);
}

function printToCamera(pdf: Buffer): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'olympe-camera-'));
  try {
    writeFileSync(path.join(dir, 'convocation.pdf'), pdf);
    execFileSync('pdftoppm', [
      '-gray',
      '-r',
      '120',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      path.join(dir, 'convocation.pdf'),
      path.join(dir, 'page'),
    ]);
    writeFileSync(CAMERA, y4mOf(readFileSync(path.join(dir, 'page.pgm'))));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The file must exist when Chromium starts; each test writes its own frame before using the camera.
mkdirSync(path.dirname(CAMERA), { recursive: true });
writeFileSync(CAMERA, y4mOf(Buffer.concat([Buffer.from('P5\n64 64\n255\n'), Buffer.alloc(64 * 64, 255)])));

const base = config.use?.launchOptions ?? {};
test.use({
  permissions: ['camera'],
  launchOptions: {
    ...base,
    args: [
      ...(base.args ?? []),
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${CAMERA}`,
    ],
  },
});

async function school(request: APIRequestContext, admin: Headers, name: string) {
  const created = await ok<{ institution: { _id: string } }>(
    await request.post('/api/institution', {
      headers: admin,
      data: { name, address: `3 rue des Mathématiques, ${name}`, latitude: 45.76, longitude: 4.83, confirmed: true },
    }),
  );
  return { id: created.institution._id, name };
}

/** Decision 59: on the day, staff check pupils in by holding their convocation up to the device's camera. */
test.describe('Émargement par QR code', () => {
  test('[ENSEIGNANT] scanne la convocation d’un élève avec la caméra : il est coché présent, l’autre reste absent', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const admin = await adminHeaders(request);
    const t = tag();
    const centre = await school(request, admin, `Collège Kovalevskaïa ${t}`);
    const chapterId = (
      await ok<{ _id: string }>(await request.post('/api/chapter', { headers: admin, data: { title: `Coupe papier ${t}`, offline: true } }))
    )._id;
    try {
      await ok(await request.patch(`/api/chapter/${chapterId}`, { headers: admin, data: { groups: [{ name: 'tous' }] } }));
      const teacher = await apiAccount(request, 'prof-qr', {
        firstName: 'Sofia',
        lastName: `Kovalevskaïa ${t}`,
        gender: 'female',
        institution: centre.id,
      });
      await addToGroup(request, admin, TEACHERS_GROUP_ID, teacher.email);
      await ok(
        await request.patch(`/api/center/${chapterId}`, {
          headers: teacher.headers,
          data: { opened: true, nb_places: 10, sittingAt: '2027-03-12T09:30', room: 'Salle 3' },
        }),
      );
      const pupils = [];
      for (const name of ['Germain', 'Noether']) {
        const p = await apiAccount(
          request,
          'eleve-qr',
          pupilProfile({ firstName: 'Léa', lastName: `${name} ${t}`, institution: centre.id }),
        );
        await ok(await request.patch(`/api/center/user/${chapterId}`, { headers: p.headers, data: { institution: centre.id } }));
        pupils.push(p);
      }
      const convocation = await request.get(`/api/center/convocation/${chapterId}.pdf`, { headers: pupils[0].headers });
      expect(convocation.status()).toBe(200);
      printToCamera(await convocation.body());

      await page.route(
        (url) => url.hostname !== 'localhost',
        (route) => route.abort(),
      );
      await loginByApi(page, teacher.email);
      await page.goto(`/centre/${chapterId}`);
      const first = page.getByRole('checkbox', { name: `Présent : Léa Germain ${t}` });
      const second = page.getByRole('checkbox', { name: `Présent : Léa Noether ${t}` });
      await expect(first).not.toBeChecked();
      await page.getByRole('button', { name: 'Scanner les convocations' }).click();
      await expect(page.getByRole('status').filter({ hasText: `Léa Germain ${t} : présent(e).` })).toBeVisible({ timeout: 60_000 });
      await expect(first).toBeChecked();
      await expect(second).not.toBeChecked();
      await expectAccessible(page, '/centre/{id} (caméra)');
      await page.screenshot({ path: screenshot('qr-check-in-1280.png'), fullPage: true });
      await page.getByRole('button', { name: 'Arrêter la caméra' }).click();

      await page.getByRole('button', { name: 'Enregistrer les présences' }).click();
      await expect(page.getByText('Présences enregistrées (2 élèves)').last()).toBeVisible();
      const saved = await ok<{ stats: { present: number; absent: number } }>(
        await request.get(`/api/center/${chapterId}`, { headers: teacher.headers }),
      );
      expect(saved.stats).toMatchObject({ present: 1, absent: 1 });
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
    }
  });
});
