import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { renderWithProviders } from '../../test/render';
import { GroupsPage } from './groups-page';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), patch: vi.fn(), delete: vi.fn(), calls: [] as string[] }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));

function setup() {
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, reload: vi.fn().mockResolvedValue(undefined) }}>
      <GroupsPage />
    </SessionContext.Provider>,
  );
}

describe('GroupsPage', () => {
  beforeEach(() => {
    http.calls = [];
    http.get.mockReset().mockImplementation(async (url: string) =>
      url.startsWith('/results/impact/group/')
        ? { data: { members: 3 } }
        : {
            data: [
              { _id: 't', name: 'teachers' },
              { _id: 'm', name: 'members' },
              { _id: 's', name: 'Stage' },
              { _id: 'c', name: 'Club' },
            ],
          },
    );
    // Each save call is noted by what it does: « create name », « rename id name », « delete id ».
    http.post.mockReset().mockImplementation(async (_url: string, { name }: { name: string }) => {
      http.calls.push(`create ${name}`);
      return { data: { _id: 'new', name } };
    });
    http.patch.mockReset().mockImplementation(async (url: string, { name }: { name: string }) => {
      http.calls.push(`rename ${url.split('/')[2]} ${name}`);
      return { data: {} };
    });
    http.delete.mockReset().mockImplementation(async (url: string) => {
      http.calls.push(`delete ${url.split('/')[2]}`);
      return { data: undefined };
    });
  });

  it('protects teachers and members, links saved groups to their members page', async () => {
    setup();
    const teachers = (await screen.findByLabelText('Nom du groupe teachers')) as HTMLInputElement;
    expect(teachers.readOnly).toBe(true);
    expect((screen.getByRole('button', { name: 'Supprimer le groupe members' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('link', { name: 'Membres du groupe Stage' }).getAttribute('href')).toBe('/users/s');
  });

  it('adds a "Nouveau groupe" row and saves deletions, then creations and renames', async () => {
    setup();
    fireEvent.change(await screen.findByLabelText('Nom du groupe Stage'), { target: { value: 'Stage 2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Supprimer le groupe Club' }));
    // Decision 69: confirmed with the number of members who leave it.
    expect(await screen.findByText(/^Le groupe «\sClub\s» sera supprimé à l’enregistrement\s: 3 membres le quittent\./)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Supprimer' }));
    await waitFor(() => expect(screen.queryByLabelText('Nom du groupe Club')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Ajouter un groupe' }));
    expect((screen.getByLabelText('Nom du groupe (nouveau)') as HTMLInputElement).value).toBe('Nouveau groupe');
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(http.calls).toEqual(['delete c', 'create Nouveau groupe', 'rename s Stage 2026']));
  });

  it('makes no call when a name is blank', async () => {
    setup();
    fireEvent.change(await screen.findByLabelText('Nom du groupe Stage'), { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(http.calls).toEqual([]);
  });
});
