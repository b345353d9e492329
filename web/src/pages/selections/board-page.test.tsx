import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import type { Board, Selection } from '@olympe/contract';
import { ApiError } from '../../api/client';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { NO_ROLES } from '../../session/roles';
import { routeHttp } from '../../test/http-routes';
import { renderWithProviders } from '../../test/render';
import { SelectionBoardPage } from './board-page';

const server = vi.hoisted(() => ({
  selection: null as unknown,
  board: null as unknown,
  cutoff: vi.fn(),
  decision: vi.fn(),
  freeze: vi.fn(),
  changes: vi.fn(),
}));
const http = vi.hoisted(() => ({ get: vi.fn(), put: vi.fn(), post: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));
routeHttp(http, [
  ['get', /^\/selection\/s1$/, () => server.selection],
  ['get', /^\/selection\/s1\/board$/, () => server.board],
  ['put', /^\/selection\/s1\/categories\/(k1)\/cutoff$/, (_ids, body) => server.cutoff(body)],
  ['put', /^\/selection\/s1\/decision$/, (_ids, body) => server.decision(body)],
  ['post', /^\/selection\/s1\/freeze$/, (_ids, body) => server.freeze(body)],
  [
    'get',
    /^\/selection\/s1\/versions\/(\d+)\/changes$/,
    ([n], options) => server.changes(n, (options as { params: { from: number } }).params.from),
  ],
]);

const CATEGORY = {
  _id: 'k1',
  name: 'Collège',
  genders: [],
  grades: [],
  birthDateMin: null,
  birthDateMax: null,
  cutoff: null,
  atCutoff: null,
  minGirls: null,
  maxPerSchool: null,
} satisfies Selection['categories'][number];

const SELECTION: Selection = {
  _id: 's1',
  title: 'Sélection 2026',
  chapters: [{ chapterId: 'c1', title: 'Tour 1', weight: 1 }],
  categories: [CATEGORY],
  nextRoundTitle: 'la finale',
  nextRoundDate: null,
  nextRoundPlace: '',
  juryGroupId: 'g1',
  juryRight: 'decide',
  publishAt: null,
  published: false,
  namesShown: false,
  versions: [],
  right: 'decide',
};

const BOARD: Board = {
  exercises: [{ chapterTitle: 'Tour 1', title: 'Somme', maxPoints: 20 }],
  maxScore: 20,
  keys: ['C-AAAAA', 'C-BBBBB', 'C-CCCCC', 'C-DDDDD'],
  names: null,
  scores: [18, 15, 15, 9],
  masks: [1, 1, 1, 1],
  girls: [0, 1, 0, 1],
  schools: [0, 0, 1, -1],
  schoolTable: [
    { sector: 'public', academy: 'Lyon', name: null },
    { sector: 'private', academy: 'Paris', name: null },
  ],
  exerciseScores: [18, 15, 15, 9],
  decisions: [],
  drift: [],
};

function setup(selection: Selection = SELECTION) {
  server.selection = selection;
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, token: 't', roles: NO_ROLES }}>
      <Routes>
        <Route path="/selections/:id" element={<SelectionBoardPage />} />
      </Routes>
    </SessionContext.Provider>,
    { route: '/selections/s1' },
  );
}

const count = () => screen.getByText(/sélectionné\(e\)s? sur 4/).textContent;

describe('SelectionBoardPage (docs/product.md#selections)', { timeout: 20_000 }, () => {
  beforeEach(() => {
    server.board = BOARD;
    server.cutoff.mockReset().mockImplementation((body: object) => ({ ...CATEGORY, ...body }));
    server.decision.mockReset();
    server.freeze.mockReset();
  });

  it('counts live as the cut-off is typed, without a request, and saves it when the field is left', async () => {
    setup();
    expect(await screen.findByText('0 sélectionné(e) sur 4, dont 0 fille')).toBeTruthy();
    const field = screen.getByLabelText('Seuil (points)');
    fireEvent.change(field, { target: { value: '10' } });
    expect(count()).toBe('3\u00a0sélectionné(e)s sur 4, dont 1\u00a0fille');
    fireEvent.change(field, { target: { value: '16' } });
    expect(count()).toBe('1\u00a0sélectionné(e) sur 4, dont 0\u00a0fille');
    expect(server.cutoff).not.toHaveBeenCalled();
    fireEvent.blur(field);
    await waitFor(() => expect(server.cutoff).toHaveBeenCalledWith({ cutoff: 16, atCutoff: null, minGirls: null, maxPerSchool: null }));
    expect(await screen.findByText('Enregistré')).toBeTruthy();
  });

  it('lists the pupils at the cut-off and includes or excludes them as one group', async () => {
    setup();
    const field = await screen.findByLabelText('Seuil (points)');
    fireEvent.change(field, { target: { value: '15' } });
    expect(screen.getByText(/2 élèves exactement au seuil/)).toBeTruthy();
    expect(screen.getByText('C-BBBBB, C-CCCCC')).toBeTruthy();
    expect(screen.getByText(/Départagez les ex æquo/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Inclure les ex æquo' }));
    expect(count()).toBe('3\u00a0sélectionné(e)s sur 4, dont 1\u00a0fille');
    await waitFor(() =>
      expect(server.cutoff).toHaveBeenCalledWith({ cutoff: 15, atCutoff: 'include', minGirls: null, maxPerSchool: null }),
    );
    expect(screen.queryByText(/Départagez les ex æquo/)).toBeNull();
  });

  it('asks the reason of a decision on one pupil, then shows it as the pupil’s reason', async () => {
    server.decision.mockImplementation((body: { categoryId: string; key: string; decision: 'exclude'; reason: string }) => [
      { ...body, by: 'Jury', at: '2026-05-01T10:00:00Z' },
    ]);
    setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Exclure C-AAAAA' }));
    const dialog = await screen.findByRole('dialog', { name: 'Exclure C-AAAAA' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Exclure' }));
    expect(await within(dialog).findByText('Indiquez le motif de la décision.')).toBeTruthy();
    expect(server.decision).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText(/Motif/), { target: { value: 'Déjà qualifié(e) par ailleurs' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Exclure' }));
    await waitFor(() =>
      expect(server.decision).toHaveBeenCalledWith({
        categoryId: 'k1',
        key: 'C-AAAAA',
        decision: 'exclude',
        reason: 'Déjà qualifié(e) par ailleurs',
      }),
    );
    expect(await screen.findByText('Décision du jury : Déjà qualifié(e) par ailleurs')).toBeTruthy();
  });

  it('shows the server’s refusal to freeze in the dialog, and requires a reason from the second version', async () => {
    const version = { number: 1, frozenAt: '2026-05-01T10:00:00Z', frozenBy: 'Jury', reason: '', qualified: 3, participants: 4 };
    server.freeze.mockRejectedValue(
      new ApiError('http', { status: 409, data: { message: 'Fixez le seuil de la catégorie «\u00a0Collège\u00a0».', code: 'conflict' } }),
    );
    setup({ ...SELECTION, versions: [version] });
    fireEvent.click(await screen.findByRole('button', { name: 'Geler la liste' }));
    const dialog = await screen.findByRole('dialog', { name: 'Geler la liste (version 2)' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Geler la liste' }));
    expect(await within(dialog).findByText(/obligatoire à partir de la version 2/)).toBeTruthy();
    expect(server.freeze).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText(/Motif/), { target: { value: 'Une copie regradée' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Geler la liste' }));
    expect(await within(dialog).findByText('Fixez le seuil de la catégorie « Collège ».')).toBeTruthy();
    expect(server.freeze).toHaveBeenCalledWith({ reason: 'Une copie regradée' });
  });

  it('gives a read-only jury no control that writes', async () => {
    setup({ ...SELECTION, right: 'read', categories: [{ ...CATEGORY, cutoff: 15, atCutoff: 'exclude' }] });
    expect(await screen.findByText('Seuil : 15 points ; ex æquo exclus.')).toBeTruthy();
    expect(count()).toBe('1\u00a0sélectionné(e) sur 4, dont 0\u00a0fille');
    expect(screen.queryByRole('button', { name: 'Geler la liste' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Exclure/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Inclure les ex æquo' })).toBeNull();
    expect(screen.queryByLabelText('Seuil (points)')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Lever l’anonymat' })).toBeNull();
  });

  it('says since which version pupils would change status (the drift)', async () => {
    const version = { number: 2, frozenAt: '2026-05-01T10:00:00Z', frozenBy: 'Jury', reason: 'Regrade', qualified: 3, participants: 4 };
    server.board = { ...BOARD, drift: [{ key: 'C-DDDDD', categoryId: 'k1', was: false, now: true, score: 16.5 }] };
    setup({ ...SELECTION, versions: [version] });
    expect(await screen.findByText('Depuis la version 2, 1 élève changerait de statut')).toBeTruthy();
    expect(screen.getByText(/C-DDDDD \(Collège, 16,5 points\)/)).toBeTruthy();
  });

  it('lists the versions and who changed status between the last two', async () => {
    const v = (number: number, reason: string) => ({
      number,
      frozenAt: '2026-05-01T10:00:00Z',
      frozenBy: 'Jury',
      reason,
      qualified: 3,
      participants: 4,
    });
    server.changes.mockReturnValue([{ key: 'C-DDDDD', name: 'Ada Lovelace', categoryId: 'k1', before: false, after: true }]);
    setup({ ...SELECTION, namesShown: true, versions: [v(1, ''), v(2, 'Une copie regradée')] });
    expect(await screen.findByRole('cell', { name: 'Une copie regradée' })).toBeTruthy();
    expect(await screen.findByText('Ada Lovelace (Collège) : non sélectionné(e) → sélectionné(e)')).toBeTruthy();
    expect(server.changes).toHaveBeenCalledWith('2', 1);
  });
});
