import { fireEvent, screen, waitFor } from '@testing-library/react';
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
    if (url.endsWith('/comments')) return { data: [] };
    return { data: new ArrayBuffer(8) };
  });
});

describe('HistoryPage opened from a running timed test', () => {
  it('shows « Retour à l’épreuve » with the time left, and « Visualiser » keeps the test named', async () => {
    renderHistory(`/history/u1/e1?epreuve=${CHAPTER}`);
    expect((await screen.findByRole('link', { name: 'Retour à l’épreuve' })).getAttribute('href')).toBe(`/chapter/${CHAPTER}`);
    expect((await screen.findByRole('timer')).textContent).toMatch(/^Temps restant\s: (25:00|24:5\d)$/);
    expect((await screen.findByRole('link', { name: /Visualiser/ })).getAttribute('href')).toBe(`/viewer/${FILE}?epreuve=${CHAPTER}`);
  });

  it('is a plain history otherwise (a corrector’s, say): no way back, no session read', async () => {
    renderHistory('/history/u1/e1');
    expect((await screen.findByRole('link', { name: /Visualiser/ })).getAttribute('href')).toBe(`/viewer/${FILE}`);
    expect(screen.queryByRole('link', { name: 'Retour à l’épreuve' })).toBeNull();
    await waitFor(() => expect(vi.mocked(api.get).mock.calls.map((c) => c[0])).not.toContain(`/chapter/start/${CHAPTER}`));
  });
});

describe('HistoryPage as the corrector’s desk', () => {
  const SCHEME = [
    { id: '7c1b2a3d-0000-4000-8000-000000000001', text: 'Initialisation', points: 1 },
    { id: '7c1b2a3d-0000-4000-8000-000000000002', text: 'Hérédité', points: 1.5 },
  ];
  const deskHistory = {
    user: { _id: 'u1', firstName: null, lastName: null, pseudonym: 'Copie 0042' },
    exercise: { _id: 'e1', title: 'Somme des carrés', answerFormat: 'numeric', chapter: CHAPTER, chapterTitle: 'Tour 1' },
    answers: [{ _id: 'a1', answer: '650', timestamp: '2026-11-25T18:10:00.000Z' }],
    result: { answerId: 'a1', grade: null, grade_comment: '', hidden: false, grade_timestamp: null },
    canGrade: true,
    desk: {
      chapter: { _id: CHAPTER, title: 'Tour 1', anonymousGrading: true, doubleGrading: true, gradingTolerance: 1 },
      statement: 'Calculer $1^2 + \\dots + 12^2$.',
      version: 2,
      expectedAnswer: '650',
      maxPoints: 2.5,
      schemeItems: SCHEME,
      status: 'partial',
      gradings: [],
      role: 'second',
      items: [],
    },
  };

  beforeEach(() => {
    vi.mocked(api.get).mockImplementation(async (url: string) => {
      if (url.startsWith('/answer/history/')) return { data: deskHistory };
      return { data: url.endsWith('/comments') ? [] : {} };
    });
    vi.mocked(api.post).mockResolvedValue({
      data: { answerId: 'a1', grade: '2.5', grade_comment: '', hidden: false, grade_timestamp: '2026-11-25T18:20:00.000Z' },
    });
  });

  it('shows the pseudonym, the version’s expected answer, the points and the chapter link ; never « Enregistré » before a save', async () => {
    renderHistory('/history/u1/e1');
    expect(await screen.findByRole('heading', { level: 1, name: /Copie 0042 — Somme des carrés/ })).toBeTruthy();
    expect(screen.getByText(/Version 2 · noté sur 2,5/)).toBeTruthy();
    expect(screen.getByText('Réponse attendue :').textContent).toContain('650');
    expect(screen.getByRole('link', { name: 'Tour 1' }).getAttribute('href')).toBe(`/grader/${CHAPTER}`);
    expect(screen.getByText(/Deuxième correction/)).toBeTruthy();
    expect(screen.getByRole('status', { name: '' }).textContent).not.toContain('Enregistré');
    expect(screen.getByText('Non corrigé')).toBeTruthy();
    expect(screen.getByText(/enregistre la note et ouvre la copie suivante/).textContent).toMatch(/Raccourci\s: Ctrl \+ Entrée/);
  });

  it('reads the desk again after a save: the double-correction badge follows the copy, the grade typed stays', async () => {
    let reads = 0;
    vi.mocked(api.get).mockImplementation(async (url: string) => {
      if (!url.startsWith('/answer/history/')) return { data: url.endsWith('/comments') ? [] : {} };
      reads++;
      if (reads === 1) return { data: deskHistory };
      const gradings = [1, 2].map((n) => ({
        grader: { _id: `g${n}`, firstName: 'Correcteur', lastName: String(n) },
        grade: n === 1 ? '2' : '2.5',
        grade_comment: '',
        items: [],
        timestamp: '2026-11-25T18:20:00.000Z',
        arbitration: false,
      }));
      return { data: { ...deskHistory, desk: { ...deskHistory.desk, status: 'settled', gradings } } };
    });
    vi.mocked(api.post).mockResolvedValue({
      data: {
        answerId: 'a1',
        grade: '2.5',
        grade_comment: '',
        hidden: false,
        grade_timestamp: '2026-11-25T18:20:00.000Z',
        items: [],
        status: 'settled',
        finalGrade: '2.25',
      },
    });
    renderHistory('/history/u1/e1');
    expect(await screen.findByText('Une correction sur deux')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Note' }), { target: { value: '2.5' } });
    expect(await screen.findByText('Réglée : moyenne des deux notes', {}, { timeout: 3000 })).toBeTruthy();
    expect(reads).toBe(2);
    expect(screen.queryByText('Une correction sur deux')).toBeNull();
    expect((screen.getByRole('textbox', { name: 'Note' }) as HTMLInputElement).value).toBe('2.5');
  });

  it('draws a scheme item’s formulas and Markdown in its label, never the raw source (decision 141)', async () => {
    const items = [{ ...SCHEME[0], text: 'Montre que $n^2 + 1$ est **impair**' }];
    vi.mocked(api.get).mockImplementation(async (url: string) =>
      url.startsWith('/answer/history/') ? { data: { ...deskHistory, desk: { ...deskHistory.desk, schemeItems: items } } } : { data: {} },
    );
    // The formulas' chunk, loaded before: on a busy machine its first import outlasts the wait for the label.
    await import('../../components/MathText/math-render');
    renderHistory('/history/u1/e1');
    // Found by its drawn formula: KaTeX's MathML is beyond the accessible-name computation of the test DOM.
    await waitFor(() => expect(document.querySelector('.mantine-Checkbox-label .katex')).not.toBeNull(), { timeout: 10_000 });
    const label = document.querySelector('.mantine-Checkbox-label .katex')!.closest('label')!;
    expect(label.textContent).toMatch(/\u00a0: 1 pt$/);
    expect(label.querySelector('.katex')).not.toBeNull();
    expect(label.querySelector('strong')?.textContent).toBe('impair');
    expect(label.textContent).not.toContain('$');
    expect(label.textContent).not.toContain('**');
  });

  it('makes the grade the sum of the ticked items', async () => {
    await import('../../components/MathText/math-render');
    renderHistory('/history/u1/e1');
    fireEvent.click(await screen.findByRole('checkbox', { name: /^Initialisation\s+: 1 pt$/ }, { timeout: 10_000 }));
    fireEvent.click(screen.getByRole('checkbox', { name: /^Hérédité\s+: 1,5 pts$/ }));
    expect((screen.getByRole('textbox', { name: 'Note' }) as HTMLInputElement).value).toBe('2.5');
  });
});
