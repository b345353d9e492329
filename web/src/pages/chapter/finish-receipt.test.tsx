import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChapterPage as ChapterPageData, Receipt, SessionStateView, User } from '@olympe/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { routeHttp } from '../../test/http-routes';
import { renderWithProviders } from '../../test/render';
import { ChapterPage, UNSENT_BEFORE_FINISH } from './chapter-page';
import { READ_ONLY_WARNING } from './finish-confirm-modal';
import { formatSaveTime, ReceiptView } from './receipt-panel';
import { folded } from '../../test/text';

const api = vi.hoisted(() => ({
  fetchSessionState: vi.fn(),
  startChapter: vi.fn(),
  finishChapter: vi.fn(),
  fetchReceipt: vi.fn(),
  fetchChapterPage: vi.fn(),
  sendFocusEvent: vi.fn(),
  fetchMyAnswers: vi.fn(),
  saveAnswer: vi.fn(),
}));
// The reads, the start and the finish go through the real hooks to the client, each answered by the mock named after its fetcher.
const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));
routeHttp(http, [
  ['get', /^\/chapter\/start\/([^/]+)$/, ([c]) => api.fetchSessionState(c)],
  ['post', /^\/chapter\/start\/([^/]+)$/, ([c]) => api.startChapter(c)],
  ['post', /^\/chapter\/finish\/([^/]+)$/, ([c]) => api.finishChapter(c)],
  ['get', /^\/chapter\/receipt\/([^/]+)$/, ([c]) => api.fetchReceipt(c)],
  ['get', /^\/exos\/chapter\/([^/]+)$/, ([c]) => api.fetchChapterPage(c)],
  ['get', /^\/answer\/chapter\/([^/]+)$/, ([c]) => api.fetchMyAnswers(c)],
]);
// The page's own calls (focus events, the answer queue) are mocked where it imports them.
vi.mock('../../api/sessions', async (importOriginal) => ({ ...(await importOriginal<object>()), sendFocusEvent: api.sendFocusEvent }));
vi.mock('../../answering/requests', async (importOriginal) => ({ ...(await importOriginal<object>()), saveAnswer: api.saveAnswer }));
vi.mock('react-router', async (importOriginal) => ({ ...(await importOriginal<object>()), useParams: () => ({ id: CHAPTER }) }));

const CHAPTER = '11111111-1111-4111-8111-111111111111';
let userCounter = 0;
let userId: string;

const state = (s: Partial<SessionStateView> = {}): SessionStateView => ({
  status: 'started',
  remainingTime: null,
  timed: false,
  duration: null,
  accessStart: null,
  accessEnd: null,
  startedAt: null,
  endTime: null,
  deadline: null,
  serverTime: new Date().toISOString(),
  ...s,
});
const RUNNING = state({ status: 'started', timed: true, remainingTime: 1800, duration: 3600, startedAt: '2026-11-25T18:00:00.000Z' });
const FINISHED = state({
  status: 'after',
  timed: true,
  remainingTime: 0,
  duration: 3600,
  startedAt: '2026-11-25T18:00:00.000Z',
  finishedAt: '2026-11-25T18:30:00.000Z',
});
const chapterPage = (p: Partial<ChapterPageData> = {}): ChapterPageData => ({
  _id: CHAPTER,
  title: 'Coupe Animath — Tour 1',
  offline: false,
  analysis: false,
  headerStudents: '',
  exercises: [
    { _id: 'e-num', title: 'Exercice 1', answerFormat: 'numeric', chapter: CHAPTER, statement: 'Combien font 2 + 2 ?' },
    { _id: 'e-pdf', title: 'Exercice 2', answerFormat: 'pdf', chapter: CHAPTER, statement: 'Démontrez.' },
  ],
  ...p,
});
const RECEIPT: Receipt = {
  chapter: { _id: CHAPTER, title: 'Coupe Animath — Tour 1' },
  user: { _id: 'u', name: 'Emmy Noether' },
  endedAt: '2026-11-25T18:30:00.000Z',
  finished: true,
  lines: [
    {
      exercise: 'e-num',
      title: 'Exercice 1',
      position: 0,
      answerFormat: 'numeric',
      answer: '0,5',
      seq: 3,
      timestamp: '2026-11-25T18:12:07.120Z',
    },
    {
      exercise: 'e-pdf',
      title: 'Exercice 2',
      position: 1,
      answerFormat: 'pdf',
      answer: 'pdfs/0b8f3c52-6a0e-4d5c-9f0e-2a1b3c4d5e6f.pdf',
      seq: 1,
      timestamp: '2026-11-25T18:20:00.000Z',
    },
    { exercise: 'e-3', title: 'Exercice 3', position: 2, answerFormat: 'numeric', answer: null, seq: null, timestamp: null },
  ],
  code: 'K7Q2-M9XD-41',
  generatedAt: '2026-11-25T18:30:01.000Z',
};

function renderPage(user: Partial<User> = {}) {
  const session = { ...LOGGED_OUT, token: 'jwt', user: { _id: userId, ...user } as User };
  return renderWithProviders(
    <SessionContext.Provider value={session}>
      <ChapterPage />
    </SessionContext.Provider>,
    { route: `/chapter/${CHAPTER}` },
  );
}

beforeEach(() => {
  userId = `user-${++userCounter}`;
  for (const fn of Object.values(api)) fn.mockReset();
  api.fetchChapterPage.mockResolvedValue(chapterPage());
  api.fetchMyAnswers.mockResolvedValue([]);
  api.fetchReceipt.mockResolvedValue(RECEIPT);
  api.sendFocusEvent.mockResolvedValue(undefined);
  api.saveAnswer.mockImplementation(async (e: { exerciseId: string; seq: number }) => ({
    exercise: e.exerciseId,
    seq: e.seq,
    current: true,
    duplicate: false,
  }));
});

describe('« Terminer l’épreuve »', () => {
  it('asks first (answers become read-only), then finishes and shows the receipt instead of the fields', async () => {
    api.fetchSessionState.mockResolvedValue(RUNNING);
    api.finishChapter.mockImplementation(async () => {
      api.fetchSessionState.mockResolvedValue(FINISHED);
      return FINISHED;
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Terminer l’épreuve' }));
    let dialog = await screen.findByRole('dialog', { name: 'Terminer l’épreuve ?' });
    expect(within(dialog).getByText(folded(READ_ONLY_WARNING))).toBeTruthy();
    expect(within(dialog).getByText('Il vous reste 30 minutes.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continuer l’épreuve' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.finishChapter).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Terminer l’épreuve' }));
    dialog = await screen.findByRole('dialog', { name: 'Terminer l’épreuve ?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Terminer maintenant' }));
    expect(await screen.findByRole('heading', { name: 'Reçu de vos réponses' })).toBeTruthy();
    expect(api.finishChapter).toHaveBeenCalledWith(CHAPTER);
    expect(screen.getByText(/Vous avez terminé l’épreuve\s: vos réponses ne peuvent plus être modifiées/)).toBeTruthy();
    expect(screen.queryByLabelText('Votre réponse :')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Terminer l’épreuve' })).toBeNull();
    expect(screen.queryByTestId('countdown')).toBeNull();
  });

  it('sends the answers still on this device first, and finishes nothing while one cannot be sent', async () => {
    api.fetchSessionState.mockResolvedValue(RUNNING);
    api.saveAnswer.mockRejectedValue(new ApiError('network'));
    renderPage();
    fireEvent.change(await screen.findByLabelText('Votre réponse :'), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Terminer l’épreuve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Terminer l’épreuve ?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Terminer maintenant' }));
    expect(await within(dialog).findByText(folded(UNSENT_BEFORE_FINISH))).toBeTruthy();
    expect(api.saveAnswer).toHaveBeenCalled();
    expect(api.finishChapter).not.toHaveBeenCalled();
  });

  it('is not offered on an untimed chapter, nor before the start', async () => {
    api.fetchSessionState.mockResolvedValue(state({ status: 'started', accessEnd: '2030-01-01T00:00:00.000Z', remainingTime: 5000 }));
    renderPage();
    await screen.findByLabelText('Votre réponse :');
    expect(screen.queryByRole('button', { name: 'Terminer l’épreuve' })).toBeNull();
  });
});

describe('the receipt', () => {
  it('gives the full date of a save made on another day than the end', () => {
    expect(formatSaveTime('2026-11-24T22:59:59.000Z', '2026-11-25T18:30:00.000Z')).toBe(
      '24 novembre 2026 à 23\u00a0h 59\u00a0min 59\u00a0s',
    );
    expect(formatSaveTime('2026-11-24T23:00:01.000Z', '2026-11-25T18:30:00.000Z')).toBe('0\u00a0h 00\u00a0min 01\u00a0s');
  });

  it('stays on the page once time is up : each exercise, the answer held (« copie PDF »), its server time to the second, the code', async () => {
    api.fetchSessionState.mockResolvedValue(
      state({ status: 'after', timed: true, remainingTime: 0, startedAt: '2026-11-25T18:00:00.000Z' }),
    );
    renderPage();
    const table = await screen.findByRole('table', { name: 'Reçu de vos réponses' });
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => r.textContent);
    // Saved on the day the test ended: the time alone, to the second (Paris time); the date is above.
    expect(rows).toEqual([
      'ExerciceRéponseReçue à',
      '1. Exercice 10,519\u00a0h 12\u00a0min 07\u00a0s',
      '2. Exercice 2copie PDF19\u00a0h 20\u00a0min 00\u00a0s',
      '3. Exercice 3aucune réponse—',
    ]);
    expect(screen.getByText(/Épreuve terminée par vous le 25 novembre 2026 à 19 h 30 min 00 s \(heure de Paris\)/)).toBeTruthy();
    expect(screen.getByTestId('receipt-code').textContent).toBe('K7Q2-M9XD-41');
    // Decision 141: a phone's narrow columns wrap between words, never inside one (« m/in »).
    expect(table.getAttribute('lang')).toBe('fr');
    expect([table.style.overflowWrap, table.style.wordBreak, table.style.hyphens]).toEqual(['normal', 'normal', 'auto']);
    expect(screen.getByText('L’épreuve est terminée. Les résultats seront bientôt publiés sur cette page.')).toBeTruthy();
    expect(api.fetchReceipt).toHaveBeenCalledWith(CHAPTER);
  });

  it('is not asked for a timed test the pupil never started, nor while it runs', async () => {
    api.fetchSessionState.mockResolvedValue(state({ status: 'after', timed: true, remainingTime: 0 }));
    renderPage();
    await screen.findByText('L’épreuve est terminée. Les résultats seront bientôt publiés sur cette page.');
    expect(api.fetchReceipt).not.toHaveBeenCalled();
  });

  it('prints with the browser’s print dialog', () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    renderWithProviders(<ReceiptView receipt={RECEIPT} />);
    fireEvent.click(screen.getByRole('button', { name: 'Imprimer le reçu' }));
    expect(print).toHaveBeenCalledTimes(1);
    print.mockRestore();
  });
});

describe('extra time and links during the test', () => {
  it('says the pupil’s own extra time on the page and in the start confirmation', async () => {
    api.fetchSessionState.mockResolvedValue(state({ status: 'pending', timed: true, duration: 4788 }));
    renderPage({ extraTimePercent: 33 });
    // « 33 % » with a narrow no-break space (the queries below see spaces normalised).
    const line = 'Temps supplémentaire : 33\u202f% (inclus dans la durée affichée)';
    expect((await screen.findByTestId('extra-time')).textContent).toBe(line);
    fireEvent.click(screen.getByRole('button', { name: 'Commencer l’épreuve en temps limité' }));
    const dialog = await screen.findByRole('dialog', { name: 'Commencer l’épreuve ?' });
    expect(within(dialog).getByText('Temps supplémentaire : 33 % (inclus dans la durée affichée)')).toBeTruthy();
    expect(within(dialog).getByText(/Vous aurez 1 h 20\s:/)).toBeTruthy();
  });

  it('says nothing about extra time without any, or on an untimed chapter', async () => {
    api.fetchSessionState.mockResolvedValue(state({ status: 'started' }));
    renderPage({ extraTimePercent: 33 });
    await screen.findByLabelText('Votre réponse :');
    expect(screen.queryByText(/Temps supplémentaire/)).toBeNull();
  });

  it('keeps the test named in « Historique » and « Voir la copie » while it runs, not otherwise', async () => {
    api.fetchSessionState.mockResolvedValue(RUNNING);
    api.fetchMyAnswers.mockResolvedValue([{ exercise: 'e-pdf', answer: 'pdfs/x.pdf', seq: 1, timestamp: '2026-11-25T18:10:00.000Z' }]);
    const { unmount } = renderPage();
    expect((await screen.findByRole('link', { name: 'Voir la copie' })).getAttribute('href')).toBe(
      `/history/${userId}/e-pdf?epreuve=${CHAPTER}`,
    );
    expect(screen.getByRole('link', { name: 'Historique' }).getAttribute('href')).toBe(`/history/${userId}/e-num?epreuve=${CHAPTER}`);
    unmount();
    api.fetchSessionState.mockResolvedValue(state({ status: 'started' }));
    renderPage();
    expect((await screen.findByRole('link', { name: 'Voir la copie' })).getAttribute('href')).toBe(`/history/${userId}/e-pdf`);
  });
});
