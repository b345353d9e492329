import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { renderWithProviders } from '../../test/render';
import { HistoryPage } from './history-page';

vi.mock('../../api/client', () => ({ api: { get: vi.fn(), put: vi.fn(), post: vi.fn(), patch: vi.fn(), delete: vi.fn() } }));
vi.mock('../../components/PdfView/pdfjs', () => ({ openPdf: vi.fn(() => new Promise(() => {})) }));

const CHAPTER = '5f1d2c3b-4a59-4e8d-9c7b-6a5f4e3d2c1b';
const FILE = 'pdfs/0b8f3c52-6a0e-4d5c-9f0e-2a1b3c4d5e6f.pdf';
const history = {
  user: { _id: 'u1', firstName: 'Emmy', lastName: 'Noether' },
  exercise: { _id: 'e1', title: 'Preuve', answerFormat: 'pdf', chapter: CHAPTER, chapterTitle: 'Tour 1' },
  answers: [{ _id: 'a1', answer: FILE, timestamp: '2026-11-25T18:10:00.000Z' }],
  result: null,
  canGrade: false,
};
const sessionState = {
  status: 'started',
  remainingTime: 1500,
  timed: true,
  duration: 3600,
  accessStart: null,
  accessEnd: null,
  startedAt: '2026-11-25T18:00:00.000Z',
  endTime: null,
  deadline: null,
  serverTime: new Date().toISOString(),
};

const renderHistory = (url: string) =>
  renderWithProviders(
    <Routes>
      <Route path="history/:uid/:eid" element={<HistoryPage />} />
    </Routes>,
    { route: url },
  );

beforeEach(() => {
  vi.mocked(api.get).mockReset();
  vi.mocked(api.get).mockImplementation(async (url: string) => {
    if (url === `/chapter/start/${CHAPTER}`) return { data: sessionState };
    if (url.startsWith('/answer/history/')) return { data: history };
    return { data: new ArrayBuffer(8) };
  });
});

describe('HistoryPage opened from a running timed test', () => {
  it('shows « Retour à l’épreuve » with the time left, and « Visualiser » keeps the test named', async () => {
    renderHistory(`/history/u1/e1?epreuve=${CHAPTER}`);
    expect((await screen.findByRole('link', { name: 'Retour à l’épreuve' })).getAttribute('href')).toBe(`/chapter/${CHAPTER}`);
    expect((await screen.findByRole('timer')).textContent).toMatch(/^Temps restant : (25:00|24:5\d)$/);
    expect((await screen.findByRole('link', { name: /Visualiser/ })).getAttribute('href')).toBe(`/viewer/${FILE}?epreuve=${CHAPTER}`);
  });

  it('is a plain history otherwise (a corrector’s, say): no way back, no session read', async () => {
    renderHistory('/history/u1/e1');
    expect((await screen.findByRole('link', { name: /Visualiser/ })).getAttribute('href')).toBe(`/viewer/${FILE}`);
    expect(screen.queryByRole('link', { name: 'Retour à l’épreuve' })).toBeNull();
    await waitFor(() => expect(vi.mocked(api.get).mock.calls.map((c) => c[0])).not.toContain(`/chapter/start/${CHAPTER}`));
  });
});
