import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import { ApiError } from '../../api/client';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { NO_ROLES } from '../../session/roles';
import { routeHttp } from '../../test/http-routes';
import { renderWithProviders } from '../../test/render';
import { NewSelectionPage } from './selection-form-page';

const CHAPTER = '11111111-1111-4111-8111-111111111111';
const server = vi.hoisted(() => ({ create: vi.fn() }));
const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));
routeHttp(http, [
  ['get', /^\/group$/, () => [{ _id: '22222222-2222-4222-8222-222222222222', name: 'Jury national' }]],
  ['post', /^\/selection$/, (_ids, body) => server.create(body)],
]);

function setup() {
  renderWithProviders(
    <SessionContext.Provider
      value={{
        ...LOGGED_OUT,
        token: 't',
        roles: { ...NO_ROLES, isAdmin: true },
        chapters: [{ _id: CHAPTER, title: 'Tour 1', analysis: true, offline: false }],
      }}
    >
      <Routes>
        <Route path="/selections/new" element={<NewSelectionPage />} />
        <Route path="/selections/:id" element={<p>Tableau du jury</p>} />
      </Routes>
    </SessionContext.Provider>,
    { route: '/selections/new' },
  );
}

async function pickChapter() {
  const input = screen.getAllByLabelText(/Chapitre 1/).find((el) => el.tagName === 'INPUT')!;
  fireEvent.click(input);
  fireEvent.click(await screen.findByRole('option', { name: 'Tour 1', hidden: true }));
}

describe('NewSelectionPage (admins, decision 149)', { timeout: 60_000 }, () => {
  beforeEach(() => {
    server.create.mockReset();
  });

  it('shows the contract’s French messages on the fields and sends nothing', async () => {
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'Créer la sélection' }));
    expect(await screen.findByText('Indiquez le titre de la sélection.')).toBeTruthy();
    expect(screen.getByText('Indiquez le nom de la catégorie.')).toBeTruthy();
    expect(screen.getByText('Indiquez le tour suivant.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Corrigez les champs signalés\u00a0: rien n’a été enregistré.');
    expect(server.create).not.toHaveBeenCalled();
  });

  it('creates the selection with its chapters, categories and jury, then opens its board', async () => {
    server.create.mockResolvedValue({ _id: 's1' });
    setup();
    fireEvent.change(screen.getByLabelText(/Titre de la sélection/), { target: { value: 'Sélection 2026' } });
    await pickChapter();
    fireEvent.change(screen.getByLabelText(/Nom de la catégorie/), { target: { value: 'Collège' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ajouter une catégorie' }));
    fireEvent.change(screen.getAllByLabelText(/Nom de la catégorie/)[1]!, { target: { value: 'Lycée' } });
    fireEvent.click(screen.getByRole('button', { name: 'Monter la catégorie «\u00a0Lycée\u00a0»' }));
    fireEvent.change(screen.getByLabelText(/Titre du tour suivant/), { target: { value: 'la finale' } });
    fireEvent.click(screen.getByRole('button', { name: 'Créer la sélection' }));
    await waitFor(() => expect(server.create).toHaveBeenCalledTimes(1));
    expect(server.create.mock.calls[0][0]).toMatchObject({
      title: 'Sélection 2026',
      chapters: [{ chapterId: CHAPTER, weight: 1 }],
      categories: [{ name: 'Lycée' }, { name: 'Collège' }],
      nextRoundTitle: 'la finale',
      juryRight: 'read',
    });
    expect(await screen.findByText('Tableau du jury')).toBeTruthy();
  });

  it('puts the server’s refusal beside its field', async () => {
    server.create.mockRejectedValue(
      new ApiError('http', {
        status: 400,
        data: { message: 'Données invalides', code: 'bad_request', fields: { 'categories.0.name': 'Ce nom est déjà pris.' } },
      }),
    );
    setup();
    fireEvent.change(screen.getByLabelText(/Titre de la sélection/), { target: { value: 'Sélection 2026' } });
    await pickChapter();
    fireEvent.change(screen.getByLabelText(/Nom de la catégorie/), { target: { value: 'Collège' } });
    fireEvent.change(screen.getByLabelText(/Titre du tour suivant/), { target: { value: 'la finale' } });
    fireEvent.click(screen.getByRole('button', { name: 'Créer la sélection' }));
    expect(await screen.findByText('Ce nom est déjà pris.')).toBeTruthy();
  });
});
