import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect as baseExpect, test, type APIRequestContext, type Page, type Request } from '@playwright/test';
import { PDFDocument } from '@cantoo/pdf-lib';
import { addToGroup, adminHeaders, apiAccount, expectAccessible, loginByApi, ok, screenshot, tag, TEACHERS_GROUP_ID } from './fixtures.js';

/**
 * « Big scans that arrive » (decision 91): a school secretary sends a copier scan as a
 * resumable upload; the page is reloaded and the network cut on the way, and the upload goes on from
 * the bytes the server already holds instead of starting over.
 */

// Two cores shared with other journeys: the server may take a few seconds to answer.
const expect = baseExpect.configure({ timeout: 15_000 });

const MB = 1024 * 1024;
const CHUNK = 5 * MB;

/** A 30-page « scan » of about 16 MB whose bytes do not compress (a random attachment), on disk so its date stays the same. */
async function scanOnDisk(name: string): Promise<{ file: string; size: number }> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < 30; i++) doc.addPage([595, 842]);
  const noise = Buffer.alloc(16 * MB);
  for (let i = 0; i < noise.length; i += 4) noise.writeUInt32LE((Math.random() * 0xffffffff) >>> 0, i);
  await doc.attach(noise, 'bruit.bin', { mimeType: 'application/octet-stream' });
  const bytes = Buffer.from(await doc.save({ useObjectStreams: false }));
  const dir = path.join(import.meta.dirname, 'output', 'files');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return { file, size: bytes.length };
}

async function school(request: APIRequestContext, admin: Record<string, string>, name: string) {
  const created = await ok<{ institution: { _id: string } }>(
    await request.post('/api/institution', {
      headers: admin,
      data: { name, address: `3 rue du Copieur, ${name}`, latitude: 47.2, longitude: -1.55, confirmed: true },
    }),
  );
  return created.institution._id;
}

/** Upload requests the page sends, in order: method, Upload-Offset (PATCH) and body length. */
function recordUploads(page: Page) {
  const sent: Array<{ method: string; offset: number | null }> = [];
  page.on('request', (req: Request) => {
    if (!new URL(req.url()).pathname.startsWith('/api/uploads')) return;
    const offset = req.headers()['upload-offset'];
    sent.push({ method: req.method(), offset: offset === undefined ? null : Number(offset) });
  });
  return sent;
}

/**
 * Slows the page's uploads to `bytesPerSecond` (Chromium's network emulation, kept across reloads) so
 * a cut lands mid-way. Its session's conditions weigh as much as setOffline's: `offline` says the same
 * on both, so the page never sees the network come back before it does.
 */
async function throttleUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const conditions = (offline: boolean, throughput: number) =>
    cdp.send('Network.emulateNetworkConditions', {
      offline,
      latency: offline ? 0 : 20,
      downloadThroughput: -1,
      uploadThroughput: throughput,
    });
  await conditions(false, bytesPerSecond);
  return {
    async offline() {
      await conditions(true, -1);
      await page.context().setOffline(true);
    },
    /** Back online, at full speed. */
    async online() {
      await page.context().setOffline(false);
      await conditions(false, -1);
    },
  };
}

const progressOf = async (page: Page, name: string) =>
  Number(
    (await page
      .getByRole('progressbar', { name: `Envoi de ${name}` })
      .getAttribute('aria-valuenow')
      .catch(() => null)) ?? -1,
  );

test.describe('Copies scannées : envoi reprenable', () => {
  test('[ENSEIGNANT] envoie un scan de 30 pages : après un rechargement puis une coupure réseau, l’envoi reprend là où il s’était arrêté', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const admin = await adminHeaders(request);
    const t = tag();
    const schoolId = await school(request, admin, `Collège Marie Curie ${t}`);
    const chapterId = (
      await ok<{ _id: string }>(
        await request.post('/api/chapter', { headers: admin, data: { title: `Épreuve papier ${t}`, offline: true } }),
      )
    )._id;
    try {
      const teacher = await apiAccount(request, 'secretariat', {
        firstName: 'Jeanne',
        lastName: 'Baret',
        gender: 'female',
        institution: schoolId,
      });
      await addToGroup(request, admin, TEACHERS_GROUP_ID, teacher.email);
      const name = `scan-salle-12-${t}.pdf`;
      const scan = await scanOnDisk(name);
      const requests = recordUploads(page);
      await page.route(
        (url) => url.hostname !== 'localhost',
        (route) => route.abort(),
      );

      await loginByApi(page, teacher.email);
      await page.goto(`/chapter/${chapterId}`);
      const section = page.getByRole('region', { name: 'Copies scannées' });
      await expect(section.getByText(/200\sMo au plus par fichier/)).toBeVisible();
      const throttle = await throttleUploads(page, 1.5 * MB);

      const choose = async () => {
        const chooser = page.waitForEvent('filechooser');
        await section.getByRole('button', { name: 'Choisir des fichiers PDF' }).click();
        await (await chooser).setFiles(scan.file);
        await section.getByRole('button', { name: 'Téléverser' }).click();
      };
      await choose();
      const bar = section.getByRole('progressbar', { name: `Envoi de ${name}` });
      await expect(bar).toBeVisible();
      await expect(section.getByText(/Mo\/s · environ .* restantes?$|Mo\/s · quelques secondes restantes$/)).toBeVisible();

      // 1. The page is reloaded mid-way: choosing the same file again resumes the same upload.
      await expect.poll(() => progressOf(page, name), { timeout: 30_000 }).toBeGreaterThanOrEqual(15);
      await page.reload();
      const beforeResume = requests.length;
      await choose();
      await expect(bar).toBeVisible();
      await expect.poll(() => requests.slice(beforeResume).find((r) => r.method === 'PATCH')?.offset ?? null).toBeGreaterThan(0);
      expect(requests.slice(beforeResume).map((r) => r.method)).not.toContain('POST');
      expect(requests.slice(beforeResume)[0].method).toBe('HEAD');

      // 2. The network is cut mid-way: the page says it waits, and resumes by itself when it is back.
      await expect.poll(() => progressOf(page, name), { timeout: 30_000 }).toBeGreaterThanOrEqual(40);
      await throttle.offline();
      const waiting = section.getByRole('alert');
      await expect(waiting).toHaveText('Connexion interrompue : l’envoi reprendra tout seul là où il s’est arrêté dès son retour.');
      await expect(bar).toBeVisible();
      await expectAccessible(page, '/chapter/{id} (envoi d’un scan interrompu par une coupure réseau)');
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await section.screenshot({ path: screenshot(`scan-upload-waiting-${width}.png`) });
      }
      const beforeCut = requests.length;
      await throttle.online();

      await expect(page.getByText('1 copie déposée.')).toBeVisible({ timeout: 60_000 });
      const afterCut = requests.slice(beforeCut);
      expect(afterCut[0].method).toBe('HEAD');
      expect(afterCut.find((r) => r.method === 'PATCH')!.offset).toBeGreaterThan(0);
      // One upload from start to end, and less than the whole file sent twice.
      expect(requests.filter((r) => r.method === 'POST')).toHaveLength(1);
      const patches = requests.filter((r) => r.method === 'PATCH').map((r) => r.offset!);
      const bytesSent = patches.reduce((sum, offset) => sum + Math.min(CHUNK, scan.size - offset), 0);
      expect(bytesSent - scan.size).toBeLessThan(scan.size);
      expect(bytesSent).toBeGreaterThanOrEqual(scan.size);

      // The copy is filed for sorting like any other, its 30 pages read by the server.
      const copies = section.getByRole('table', { name: 'Copies déposées' });
      const row = copies.getByRole('row').filter({ hasText: name });
      await expect(row).toContainText('30');
      await expect(row).toContainText('À trier');
      await expect(bar).toHaveCount(0);
      await expect(section.getByRole('list', { name: 'Fichiers choisis' })).toHaveCount(0);
      await expectAccessible(page, '/chapter/{id} (scan déposé)');
      const filed = await ok<Array<{ originalName: string; pages: number }>>(
        await request.get(`/api/answer/unlabeled/${chapterId}`, { headers: teacher.headers }),
      );
      expect(filed).toEqual([expect.objectContaining({ originalName: name, pages: 30 })]);
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
    }
  });

  test('[ENSEIGNANT] un fichier qui n’est pas un PDF est refusé une fois reçu, avec le message en français à côté du fichier', async ({
    page,
    request,
  }) => {
    const admin = await adminHeaders(request);
    const t = tag();
    const schoolId = await school(request, admin, `Lycée Sophie Germain ${t}`);
    const chapterId = (
      await ok<{ _id: string }>(
        await request.post('/api/chapter', { headers: admin, data: { title: `Épreuve papier ${t}`, offline: true } }),
      )
    )._id;
    try {
      const teacher = await apiAccount(request, 'secretariat', {
        firstName: 'Louise',
        lastName: 'Michel',
        gender: 'female',
        institution: schoolId,
      });
      await addToGroup(request, admin, TEACHERS_GROUP_ID, teacher.email);
      await page.route(
        (url) => url.hostname !== 'localhost',
        (route) => route.abort(),
      );
      await loginByApi(page, teacher.email);
      await page.goto(`/chapter/${chapterId}`);
      const section = page.getByRole('region', { name: 'Copies scannées' });
      const chooser = page.waitForEvent('filechooser');
      await section.getByRole('button', { name: 'Choisir des fichiers PDF' }).click();
      await (
        await chooser
      ).setFiles({ name: 'photo-du-tableau.pdf', mimeType: 'application/pdf', buffer: Buffer.from('GIF89a'.padEnd(4096, '.')) });
      await section.getByRole('button', { name: 'Téléverser' }).click();
      await expect(page.getByText('Erreur : Ce fichier n’est pas un PDF.')).toBeVisible();
      const chosen = section.getByRole('list', { name: 'Fichiers choisis' });
      await expect(chosen).toContainText('photo-du-tableau.pdf');
      await expect(chosen).toContainText('Ce fichier n’est pas un PDF.');
      await expect(section.getByText('Aucune copie déposée pour l’instant.')).toBeVisible();
      await expectAccessible(page, '/chapter/{id} (scan refusé)');
    } finally {
      await request.delete(`/api/chapter/${chapterId}`, { headers: admin });
    }
  });
});
