import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import { api } from '../../api/client';
import { renderWithProviders } from '../../test/render';
import { NOT_A_PDF_TEXT, ViewerPage } from './viewer-page';
import { folded } from '../../test/text';

// The one HTTP client, mocked: every request the page could make goes through it.
vi.mock('../../api/client', () => ({ api: { get: vi.fn(), put: vi.fn(), post: vi.fn(), patch: vi.fn(), delete: vi.fn() } }));
vi.mock('../../components/PdfView/pdfjs', () => ({ openPdf: vi.fn(() => new Promise(() => {})) }));

const FILE = 'pdfs/0b8f3c52-6a0e-4d5c-9f0e-2a1b3c4d5e6f.pdf';
const CHAPTER = '5f1d2c3b-4a59-4e8d-9c7b-6a5f4e3d2c1b';

const renderViewer = (url: string) =>
  renderWithProviders(
    <Routes>
      <Route path="viewer/*" element={<ViewerPage />} />
    </Routes>,
    { route: url },
  );

const calls = () =>
  (['get', 'put', 'post', 'patch', 'delete'] as const).flatMap((m) =>
    vi.mocked(api[m]).mock.calls.map((c) => `${m.toUpperCase()} ${String(c[0])}`),
  );

beforeEach(() => {
  for (const m of ['get', 'put', 'post', 'patch', 'delete'] as const) vi.mocked(api[m]).mockReset();
  vi.mocked(api.get).mockImplementation(async (url: string) => {
    if (url.endsWith('/link')) return { data: { url: `/api/${FILE}?exp=1&sig=s` } };
    return { data: new ArrayBuffer(8) };
  });
});

describe('ViewerPage with a crafted link', () => {
  it.each([
    // GET /answer/unlabeled/select/{chapterId} reserves a copy for the caller.
    `/viewer/answer/unlabeled/select/${CHAPTER}`,
    `/viewer/answer/select/${CHAPTER}`,
    `/viewer/pdfs/../answer/unlabeled/select/${CHAPTER}`,
    `/viewer/pdfs%2F..%2Fanswer%2Funlabeled%2Fselect%2F${CHAPTER}`,
    `/viewer/${FILE}/../../answer/unlabeled/select/${CHAPTER}`,
    `/viewer/${FILE}?x=/answer/unlabeled/select/${CHAPTER}`,
    `/viewer/chapter/start/${CHAPTER}`,
    '/viewer/',
  ])('%s: sends no request at all and says why', async (url) => {
    renderViewer(url);
    expect(await screen.findByRole('heading', { name: 'Visualisateur' })).toBeTruthy();
    if (!url.includes('?')) expect(screen.getByText(folded(NOT_A_PDF_TEXT))).toBeTruthy();
    await new Promise((r) => setTimeout(r, 20));
    if (url.includes('?')) {
      // The query string is not part of the path: the file itself is the only thing read.
      expect(calls()).toEqual([`GET /${FILE}`]);
    } else {
      expect(calls()).toEqual([]);
      expect(screen.queryByRole('link', { name: /Télécharger/ })).toBeNull();
    }
  });
});

describe('ViewerPage with a stored PDF', () => {
  it('only reads the file on load; the signed download link waits for a click', async () => {
    renderViewer(`/viewer/${FILE}`);
    await waitFor(() => expect(calls()).toEqual([`GET /${FILE}`]));
    expect(vi.mocked(api.get).mock.calls[0][1]).toMatchObject({ responseType: 'arraybuffer' });

    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    fireEvent.click(screen.getByRole('link', { name: /Télécharger le PDF/ }));
    await waitFor(() => expect(calls()).toEqual([`GET /${FILE}`, `GET /${FILE}/link`]));
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    clicked.mockRestore();
  });
});

describe('ViewerPage opened from a running timed test', () => {
  const running = (remainingTime: number, status = 'started') => ({
    status,
    remainingTime,
    timed: true,
    duration: 3600,
    accessStart: null,
    accessEnd: null,
    startedAt: '2026-11-25T18:00:00.000Z',
    endTime: null,
    deadline: null,
    serverTime: new Date().toISOString(),
  });

  it('shows « Retour à l’épreuve » and the time left from the server’s state, and reads nothing else', async () => {
    vi.mocked(api.get).mockImplementation(async (url: string) => {
      if (url === `/chapter/start/${CHAPTER}`) return { data: running(600) };
      return { data: new ArrayBuffer(8) };
    });
    renderViewer(`/viewer/${FILE}?epreuve=${CHAPTER}`);
    const back = await screen.findByRole('link', { name: 'Retour à l’épreuve' });
    expect(back.getAttribute('href')).toBe(`/chapter/${CHAPTER}`);
    expect((await screen.findByRole('timer')).textContent).toMatch(/^Temps restant\s: (10:00|09:5\d)$/);
    await waitFor(() => expect(calls().sort()).toEqual([`GET /${FILE}`, `GET /chapter/start/${CHAPTER}`].sort()));
  });

  it('shows no way back without a test in its link, or with a malformed one', async () => {
    renderViewer(`/viewer/${FILE}?epreuve=../answer/select`);
    await waitFor(() => expect(calls()).toEqual([`GET /${FILE}`]));
    expect(screen.queryByRole('link', { name: 'Retour à l’épreuve' })).toBeNull();
  });
});
