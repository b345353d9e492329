import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeHttp } from '../../../test/http-routes';
import { renderWithProviders } from '../../../test/render';
import { ScansSection, WAITING_TEXT } from './scans-section';

/**
 * The scans form over a fake tus-js-client (decision 91): the real api modules and hooks run, each
 * Upload the form creates is driven by the test through the callbacks it was given.
 */
interface FakeUpload {
  file: File;
  options: {
    chunkSize?: number;
    metadata?: Record<string, string>;
    fingerprint?: (file: File) => Promise<string>;
    onBeforeRequest?: (req: { setHeader(name: string, value: string): void }) => void | Promise<void>;
    onProgress?: (sent: number, total: number) => void;
    onSuccess?: (payload: { lastResponse: { getBody(): string } }) => void;
    onError?: (error: unknown) => void;
  };
  url: string | null;
  start: ReturnType<typeof vi.fn>;
  abort: ReturnType<typeof vi.fn>;
}
const tus = vi.hoisted(() => ({ uploads: [] as FakeUpload[] }));
vi.mock('tus-js-client', () => ({
  Upload: class {
    url: string | null = null;
    start = vi.fn();
    abort = vi.fn(async () => undefined);
    findPreviousUploads = vi.fn(async () => []);
    resumeFromPreviousUpload = vi.fn();
    constructor(
      public file: File,
      public options: FakeUpload['options'],
    ) {
      tus.uploads.push(this as unknown as FakeUpload);
    }
  },
}));

const api = vi.hoisted(() => ({ registerUnlabeled: vi.fn(), showNotice: vi.fn() }));
const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));
vi.mock('../../../api/notify', () => ({ showNotice: api.showNotice }));
vi.mock('../../../api/institutions', () => ({ usePublicConfig: () => ({ data: { tileUrl: '', maxScanMb: 200 } }) }));
routeHttp(http, [
  ['get', /^\/answer\/unlabeled\/([^/]+)$/, () => []],
  ['post', /^\/answer\/unlabeled\/([^/]+)$/, ([c], body) => api.registerUnlabeled(c, body)],
]);

const CHAPTER = '11111111-1111-4111-8111-111111111111';
const MB = 1024 * 1024;
let now = 0;

beforeEach(() => {
  tus.uploads.length = 0;
  vi.clearAllMocks();
  api.registerUnlabeled.mockResolvedValue({ _id: 'u1' });
  now = 1_000_000;
  vi.spyOn(Date, 'now').mockImplementation(() => now);
  localStorage.setItem('jwt', 'jeton');
});
afterEach(() => {
  vi.restoreAllMocks();
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
});

/** Chooses `file` through the drop zone and presses « Téléverser »; returns the Upload the form created. */
async function startUpload(file: File): Promise<FakeUpload> {
  renderWithProviders(<ScansSection chapterId={CHAPTER} userId="me" institutionId="school" />);
  const zone = (await screen.findByText(/Déposez ici les copies scannées/)).closest('div')!.parentElement!;
  fireEvent.drop(zone, { dataTransfer: { files: [file] } });
  fireEvent.click(screen.getByRole('button', { name: 'Téléverser' }));
  await waitFor(() => expect(tus.uploads[0]?.start).toHaveBeenCalled());
  return tus.uploads[0];
}

const scan = (size: number) => {
  const file = new File(['%PDF-1.7'], 'salle-12.pdf', { type: 'application/pdf', lastModified: 42 });
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

describe('ScansSection: resumable uploads of scans', () => {
  it('says the limit, shows a named progress bar with speed and time left, then files the copy', async () => {
    const upload = await startUpload(scan(100 * MB));
    // (Testing Library folds the no-break spaces into plain ones.)
    expect(screen.getByText(/200 Mo au plus par fichier/)).toBeTruthy();
    // What the server is told, and how a reload finds the upload again.
    expect(upload.options.metadata).toEqual({ filename: 'salle-12.pdf', filetype: 'application/pdf', chapter: CHAPTER });
    expect(upload.options.chunkSize).toBe(5 * MB);
    expect(await upload.options.fingerprint!(upload.file)).toBe(`olympe-upload:me:${CHAPTER}:salle-12.pdf:${100 * MB}:42`);
    const headers: Record<string, string> = {};
    // Decision 136: async, it renews a token about to expire first.
    await upload.options.onBeforeRequest!({ setHeader: (name, value) => (headers[name] = value) });
    expect(headers).toEqual({ Authorization: 'Bearer jeton' });

    act(() => upload.options.onProgress!(0, 100 * MB));
    now += 2000;
    act(() => upload.options.onProgress!(25 * MB, 100 * MB));
    const bar = screen.getByRole('progressbar', { name: 'Envoi de salle-12.pdf' });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    // 25 Mo in 2 s: 12,5 Mo/s, 75 Mo left in 6 s.
    expect(screen.getByText('25 % · 25,0 Mo sur 100 Mo · 12,5 Mo/s · quelques secondes restantes')).toBeTruthy();

    act(() => upload.options.onSuccess!({ lastResponse: { getBody: () => JSON.stringify({ path: 'pdfs/abc.pdf' }) } }));
    await waitFor(() => expect(api.registerUnlabeled).toHaveBeenCalledWith(CHAPTER, { answer: 'pdfs/abc.pdf', institution: 'school' }));
    await waitFor(() => expect(api.showNotice).toHaveBeenCalledWith('1 copie déposée.', 'green'));
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('waits for the connection after a cut and resumes by itself when it is back', async () => {
    const upload = await startUpload(scan(10 * MB));
    act(() => upload.options.onProgress!(4 * MB, 10 * MB));
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    act(() =>
      upload.options.onError!(Object.assign(new Error('tus: failed to upload chunk'), { originalRequest: {}, originalResponse: null })),
    );
    expect(screen.getByRole('alert').textContent).toBe(WAITING_TEXT);
    expect(upload.start).toHaveBeenCalledTimes(1);
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    // The same upload starts again: tus-js-client asks the server's offset (HEAD) and sends the rest.
    expect(upload.start).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).toBeNull();
    upload.url = '/api/uploads/0f0e0d0c-0b0a-4908-8706-050403020100';
    // The upload was complete on the server already (a HEAD says so, without a body): the path is its id.
    act(() => upload.options.onSuccess!({ lastResponse: { getBody: () => '' } }));
    await waitFor(() =>
      expect(api.registerUnlabeled).toHaveBeenCalledWith(CHAPTER, {
        answer: 'pdfs/0f0e0d0c-0b0a-4908-8706-050403020100.pdf',
        institution: 'school',
      }),
    );
  });

  it('keeps a refused file in the list with the server’s French message', async () => {
    const upload = await startUpload(scan(300 * MB));
    const message = 'Le fichier dépasse la taille maximale autorisée (200 Mo).';
    act(() =>
      upload.options.onError!(
        Object.assign(new Error('tus: unexpected response while creating upload'), {
          originalRequest: {},
          originalResponse: { getStatus: () => 413, getBody: () => JSON.stringify({ message, code: 'too_large' }) },
        }),
      ),
    );
    await waitFor(() => expect(api.showNotice).toHaveBeenCalledWith(`Erreur : ${message}`, 'red'));
    const chosen = await screen.findByRole('list', { name: 'Fichiers choisis' });
    expect(chosen.textContent).toContain('salle-12.pdf');
    expect(chosen.textContent).toContain(message);
    expect(api.registerUnlabeled).not.toHaveBeenCalled();
  });

  it('cancels: the server is told to drop the upload and the file stays chosen', async () => {
    const upload = await startUpload(scan(10 * MB));
    act(() => upload.options.onProgress!(1 * MB, 10 * MB));
    fireEvent.click(screen.getByRole('button', { name: 'Annuler l’envoi' }));
    await waitFor(() => expect(api.showNotice).toHaveBeenCalledWith('Envoi annulé.', 'yellow'));
    expect(upload.abort).toHaveBeenCalledWith(true);
    expect(screen.getByRole('list', { name: 'Fichiers choisis' }).textContent).toContain('salle-12.pdf');
    expect(api.registerUnlabeled).not.toHaveBeenCalled();
    expect(api.showNotice).not.toHaveBeenCalledWith(expect.stringMatching(/^Erreur/), 'red');
  });
});
