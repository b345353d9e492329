import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import type { GroupDetail } from '@olympe/contract';
import { ApiError } from '../../api/client';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { renderWithProviders } from '../../test/render';
import { makeMember } from '../../test/fixtures';
import { UsersPage } from './users-page';

const api = vi.hoisted(() => ({ logto: vi.fn() }));
vi.mock('../../api/users', () => ({ logto: api.logto }));
// GET /group/g1, PATCH /group/g1 (members), PUT /user/{uid}/extra-time, POST /user/{uid}/anonymise.
const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), patch: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));

const GROUP: GroupDetail = {
  _id: 'g1',
  name: 'Stage d’été',
  system: false,
  members: [
    makeMember('u1', {
      firstName: 'Chloé',
      lastName: 'Lefèvre',
      email: 'chloe@x.fr',
      gender: 'female',
      birthDate: '2010-03-04',
      emailNotifications: true,
    }),
    makeMember('u2', {
      firstName: 'Hugo',
      lastName: 'Abel',
      email: 'hugo@x.fr',
      gender: 'male',
      emailNotifications: false,
      extraTimePercent: 33,
    }),
    makeMember('u3', { firstName: 'Ada', lastName: 'Zorn', email: 'admin@x.fr', gender: 'other', isAdmin: true }),
  ],
};

function setup() {
  const login = vi.fn().mockResolvedValue(undefined);
  localStorage.setItem('jwt', 'admin-token');
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, token: 'admin-token', login }}>
      <Routes>
        <Route path="/users/:id" element={<UsersPage />} />
      </Routes>
    </SessionContext.Provider>,
    { route: '/users/g1', targets: { '/profile': 'Page profil' } },
  );
  return { login };
}
const textarea = () => screen.getByLabelText(/Liste d’adresses e-mail/) as HTMLTextAreaElement;

describe('UsersPage', () => {
  beforeEach(() => {
    [...Object.values(api), ...Object.values(http)].forEach((fn) => fn.mockReset());
    http.get.mockResolvedValue({ data: GROUP });
  });

  it('shows the title, the counter, the rows by last name with SPEC display values, and searches', async () => {
    setup();
    expect(await screen.findByRole('heading', { name: 'Gestion du groupe Stage d’été' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('3/3 membres')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Membres du groupe Stage d’été' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[1].textContent)).toEqual(['Abel', 'Lefèvre', 'Zorn']);
    const chloe = within(rows[1])
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(chloe.slice(3, 7)).toEqual(['F', 'chloe@x.fr', '04-03-2010', 'Oui']);
    expect(within(rows[0]).getAllByRole('cell')[6].textContent).toBe('Non');
    // No "Simuler" onto an admin.
    expect(within(rows[2]).queryByRole('button', { name: /Simuler/ })).toBeNull();

    fireEvent.change(screen.getByLabelText('Rechercher'), { target: { value: 'LEFEVRE' } });
    await waitFor(() => expect(screen.getByText('1/3 membres')).toBeTruthy(), { timeout: 5000 });
  });

  it('shows each member’s extra time and lets the admin set it', async () => {
    http.put.mockResolvedValue({ data: undefined });
    setup();
    expect(await screen.findByRole('button', { name: 'Temps supplémentaire de Hugo Abel : 33\u202f%' }, { timeout: 5000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Temps supplémentaire de Chloé Lefèvre : —' }));
    const field = await screen.findByLabelText('Temps supplémentaire (%)');
    fireEvent.change(field, { target: { value: '250' } });
    expect(await screen.findByText('Un nombre entier de 0 à 200.')).toBeTruthy();
    fireEvent.change(field, { target: { value: '33' } });
    const dialog = screen.getByRole('dialog', { name: 'Temps supplémentaire de Chloé Lefèvre' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(http.put).toHaveBeenCalledWith('/user/u1/extra-time', { percent: 33 }));
  });

  it('adds with the split rule and saves the full list', async () => {
    http.patch.mockResolvedValue({ data: { message: 'ok', added: 1, removed: 1 } });
    setup();
    await screen.findByText('3/3 membres', {}, { timeout: 5000 });
    fireEvent.change(textarea(), { target: { value: 'Nouveau@X.fr; chloe@x.fr,\nhugo@x.fr' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ajouter' }));
    fireEvent.change(textarea(), { target: { value: 'HUGO@x.fr' } });
    fireEvent.click(screen.getByRole('button', { name: 'Retirer' }));
    expect(screen.getByText(/À ajouter \(1\)\s: nouveau@x.fr/)).toBeTruthy();
    expect(screen.getByText(/À retirer \(1\)\s: hugo@x.fr/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(http.patch).toHaveBeenCalledWith('/group/g1', { members: ['chloe@x.fr', 'admin@x.fr', 'nouveau@x.fr'] }), {
      timeout: 5000,
    });
  });

  it('puts unknown e-mails back in the input so they can be removed, never dropping them', async () => {
    http.patch.mockRejectedValueOnce(
      new ApiError('http', { status: 400, data: { message: '…', code: 'bad_request', unknown: ['inconnu@x.fr'] } }),
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup();
    await screen.findByText('3/3 membres', {}, { timeout: 5000 });
    fireEvent.change(textarea(), { target: { value: 'inconnu@x.fr' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ajouter' }));
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(textarea().value).toBe('inconnu@x.fr'), { timeout: 5000 });
    expect(screen.getByText(/Ces adresses ne correspondent à aucun compte.*inconnu@x.fr/)).toBeTruthy();
    http.patch.mockResolvedValueOnce({ data: { message: 'ok', added: 0, removed: 0 } });
    fireEvent.click(screen.getByRole('button', { name: 'Retirer' }));
    // Nothing left to change: the list is the saved one again.
    expect((screen.getByRole('button', { name: 'Enregistrer' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('"Simuler" keeps the admin token under jwt_admin, switches to the new token and goes to /profile', async () => {
    api.logto.mockResolvedValue({ token: 'pupil-token', refreshToken: 'pupil-refresh' });
    localStorage.setItem('jwt_refresh', 'admin-refresh');
    const { login } = setup();
    await screen.findByText('3/3 membres', {}, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: /Simuler Chloé Lefèvre/ }));
    expect(await screen.findByText('Page profil', {}, { timeout: 5000 })).toBeTruthy();
    expect(api.logto).toHaveBeenCalledWith('u1');
    expect(login).toHaveBeenCalledWith('pupil-token', 'pupil-refresh');
    expect(localStorage.getItem('jwt_admin')).toBe('admin-token');
    expect(localStorage.getItem('jwt_admin_refresh')).toBe('admin-refresh');
  });

  it('"Données" opens the personal-data actions of that member; anonymising reloads the group', async () => {
    http.post.mockResolvedValue({ data: { message: 'ok', filesErased: 0 } });
    setup();
    await screen.findByText('3/3 membres', {}, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: /Données personnelles de Chloé Lefèvre/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Données personnelles de Chloé Lefèvre' });
    expect(within(dialog).getByRole('button', { name: 'Exporter ses données (JSON)' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Anonymiser le compte' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Anonymiser' }));
    await waitFor(() => expect(http.post).toHaveBeenCalledWith('/user/u1/anonymise'));
    await waitFor(() => expect(http.get).toHaveBeenCalledTimes(2));
  });
});
