import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnswerHistory } from '@olympe/contract';
import { api } from '../../api/client';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { NO_ROLES, type Roles } from '../../session/roles';
import { renderWithProviders } from '../../test/render';
import { HistoryPage } from './history-page';

/**
 * The states of docs/product.md#spec-2 "History (/history/{uid}/{eid})" (SPEC: title with the pupil's
 * first and last name and the exercise title; answers with « Visualiser » per PDF; « Aucune réponse enregistrée. »;
 * a non-member's grade read-only, « – » if none; « Remettre au triage » for an admin on a PDF exercise).
 */
vi.mock('../../api/client', () => ({ api: { get: vi.fn(), put: vi.fn(), post: vi.fn(), patch: vi.fn(), delete: vi.fn() } }));
vi.mock('../../components/PdfView/pdfjs', () => ({ openPdf: vi.fn(() => new Promise(() => {})) }));

const CHAPTER = '5f1d2c3b-4a59-4e8d-9c7b-6a5f4e3d2c1b';
const FILE_1 = 'pdfs/0b8f3c52-6a0e-4d5c-9f0e-2a1b3c4d5e6f.pdf';
const FILE_2 = 'pdfs/1c9a4d63-7b1f-4e6d-8a1f-3b2c4d5e6f70.pdf';

const base = (fields: Partial<AnswerHistory> = {}): AnswerHistory => ({
  user: { _id: 'u1', firstName: 'Sophie', lastName: 'Germain' },
  exercise: { _id: 'e1', title: 'Nombres premiers', answerFormat: 'pdf', chapter: CHAPTER, chapterTitle: 'Tour 2' },
  // Newest first, as the server sends them.
  answers: [
    { _id: 'a2', answer: FILE_2, timestamp: '2026-11-25T18:40:00.000Z' },
    { _id: 'a1', answer: FILE_1, timestamp: '2026-11-25T18:10:00.000Z' },
  ],
  result: null,
  canGrade: false,
  ...fields,
});
/** What a member or an admin gets: the full grade block of the latest answer (not graded yet). */
const staffResult = { answerId: 'a2', grade: null, grade_comment: '', hidden: false, grade_timestamp: null };

const ADMIN: Roles = { ...NO_ROLES, isAdmin: true, isMember: true, profileComplete: true };
const MEMBER: Roles = { ...NO_ROLES, isMember: true, profileComplete: true };
const PUPIL: Roles = { ...NO_ROLES, profileComplete: true };

function renderHistory(history: AnswerHistory, roles: Roles) {
  vi.mocked(api.get).mockImplementation(async (url: string) => {
    if (url.startsWith('/answer/history/')) return { data: history };
    if (url.endsWith('/comments')) return { data: [] };
    return { data: new ArrayBuffer(8) };
  });
  return renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, token: 't', roles }}>
      <Routes>
        <Route path="history/:uid/:eid" element={<HistoryPage />} />
      </Routes>
    </SessionContext.Provider>,
    { route: '/history/u1/e1' },
  );
}

/** Texts are matched whatever the apostrophes and spaces (’ or ', no-break spaces). */
const text = (words: string) => new RegExp(`^\\s*${words.replace(/'/g, "['’]").replace(/ /g, '\\s+').replace(/\./g, '\\.')}\\s*$`);

beforeEach(() => {
  vi.mocked(api.get).mockReset();
  vi.mocked(api.post).mockReset();
});
afterEach(() => vi.restoreAllMocks());

describe('History page: title and answers', () => {
  it('is titled with the pupil’s first and last name and the exercise title', async () => {
    renderHistory(base(), PUPIL);
    // The loading state's heading is « Historique des réponses »; the loaded page names the copy.
    const heading = await screen.findByRole('heading', { level: 1, name: /Germain/ });
    expect(heading.textContent).toMatch(/^Sophie\s+Germain\s+—\s+Nombres\s+premiers$/);
  });

  it('lists every answer newest first with its time and a « Visualiser » link to the viewer per PDF answer', async () => {
    renderHistory(base(), PUPIL);
    const table = await screen.findByRole('table', { name: /Réponses enregistrées/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    // Paris time (UTC+1 in November).
    expect(rows[0].textContent).toMatch(/19\s*[:h]\s*40/);
    expect(rows[1].textContent).toMatch(/19\s*[:h]\s*10/);
    const links = within(table).getAllByRole('link', { name: /Visualiser/ });
    expect(links.map((a) => a.getAttribute('href'))).toEqual([`/viewer/${FILE_2}`, `/viewer/${FILE_1}`]);
  });

  it('shows a numeric answer as text, with no « Visualiser »', async () => {
    renderHistory(
      base({
        exercise: { _id: 'e1', title: 'Somme', answerFormat: 'numeric', chapter: CHAPTER, chapterTitle: 'Tour 2' },
        answers: [{ _id: 'a1', answer: '3,14', timestamp: '2026-11-25T18:10:00.000Z' }],
      }),
      PUPIL,
    );
    const table = await screen.findByRole('table', { name: /Réponses enregistrées/ });
    expect(within(table).getByText('3,14')).toBeTruthy();
    expect(within(table).queryByRole('link', { name: /Visualiser/ })).toBeNull();
  });

  it('says « Aucune réponse enregistrée. » and shows no table when there is no answer', async () => {
    renderHistory(base({ answers: [] }), PUPIL);
    expect(await screen.findByText(text('Aucune réponse enregistrée.'))).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('link', { name: /Visualiser/ })).toBeNull();
  });
});

describe('History page: the grade block by role', () => {
  it('a pupil, once grades are published, reads « – » for an ungraded copy, read-only, with no triage button', async () => {
    renderHistory(base({ result: { grade: null, grade_comment: '' } }), PUPIL);
    expect(await screen.findByRole('heading', { name: 'Résultat' })).toBeTruthy();
    expect(screen.getByText(/^Note\s*:/).textContent).toMatch(/^Note\s*:\s*–$/);
    expect(screen.queryByRole('textbox', { name: 'Note' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Cacher la copie' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Remettre au triage/ })).toBeNull();
  });

  it('a pupil reads a published grade in French (decimal comma) and its comment, read-only', async () => {
    renderHistory(base({ result: { grade: '2.5', grade_comment: 'Bonne idée, rédaction à reprendre.' } }), PUPIL);
    expect((await screen.findByText(/^Note\s*:/)).textContent).toMatch(/^Note\s*:\s*2,5$/);
    // The comment is rich text, drawn once its renderer has loaded.
    expect(await screen.findByText(/Bonne idée, rédaction à reprendre\./, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Note' })).toBeNull();
  });

  it('a pupil before publication (the server sends no result) sees no grade at all', async () => {
    renderHistory(base({ result: null }), PUPIL);
    await screen.findByRole('table', { name: /Réponses enregistrées/ });
    expect(screen.queryByRole('heading', { name: 'Résultat' })).toBeNull();
    expect(screen.queryByText(/^Note\s*:/)).toBeNull();
  });

  it('an admin on a PDF exercise grades it and sees « Remettre au triage », which asks before sending the copy back', async () => {
    renderHistory(base({ canGrade: true, result: staffResult }), ADMIN);
    expect(await screen.findByRole('textbox', { name: 'Note' })).toBeTruthy();
    const button = screen.getByRole('button', { name: /Remettre au triage/ });
    fireEvent.click(button);
    // Asked in the one confirmation dialog; cancelled: nothing is sent.
    const dialog = await screen.findByRole('dialog', { name: /Remettre cette copie au triage/ });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    expect(api.post).not.toHaveBeenCalled();

    vi.mocked(api.post).mockResolvedValue({ data: {} });
    fireEvent.click(button);
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: /Remettre cette copie au triage/ })).getByRole('button', {
        name: 'Remettre au triage',
      }),
    );
    await waitFor(() => expect(api.post).toHaveBeenCalledWith('/answer/relabel/', { answerId: 'a2' }));
  });

  it('an admin on a numeric exercise has no « Remettre au triage » (only PDF copies are sorted)', async () => {
    renderHistory(
      base({
        exercise: { _id: 'e1', title: 'Somme', answerFormat: 'numeric', chapter: CHAPTER, chapterTitle: 'Tour 2' },
        answers: [{ _id: 'a2', answer: '12', timestamp: '2026-11-25T18:10:00.000Z' }],
        canGrade: true,
        result: staffResult,
      }),
      ADMIN,
    );
    expect(await screen.findByRole('textbox', { name: 'Note' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Remettre au triage/ })).toBeNull();
  });

  it('a corrector (member, not admin) grades the PDF copy but has no « Remettre au triage »', async () => {
    renderHistory(base({ canGrade: true, result: staffResult }), MEMBER);
    expect(await screen.findByRole('textbox', { name: 'Note' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Cacher la copie' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Remettre au triage/ })).toBeNull();
  });
});
