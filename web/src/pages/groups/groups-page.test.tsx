import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { renderWithProviders } from '../../test/render';
import { GroupsPage } from './groups-page';

const api = vi.hoisted(() => ({ fetchMyGroups: vi.fn(), createGroup: vi.fn(), renameGroup: vi.fn(), deleteGroup: vi.fn(), calls: [] as string[] }));
vi.mock('../../api/groups', () => ({
  fetchMyGroups: api.fetchMyGroups,
  createGroup: api.createGroup,
  renameGroup: api.renameGroup,
  deleteGroup: api.deleteGroup,
  groupKeys: { all: ['groups'], detail: (id: string) => ['groups', id] },
}));

function setup() {
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, reload: vi.fn().mockResolvedValue(undefined) }}>
      <GroupsPage />
    </SessionContext.Provider>,
  );
}

describe('GroupsPage', () => {
  beforeEach(() => {
    api.calls = [];
    api.fetchMyGroups.mockReset().mockResolvedValue([
      { _id: 't', name: 'teachers' },
      { _id: 'm', name: 'members' },
      { _id: 's', name: 'Stage' },
      { _id: 'c', name: 'Club' },
    ]);
    api.createGroup.mockReset().mockImplementation(async ({ name }) => void api.calls.push(`create ${name}`));
    api.renameGroup.mockReset().mockImplementation(async (id, name) => void api.calls.push(`rename ${id} ${name}`));
    api.deleteGroup.mockReset().mockImplementation(async (id) => void api.calls.push(`delete ${id}`));
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
    fireEvent.click(screen.getByRole('button', { name: 'Ajouter un groupe' }));
    expect((screen.getByLabelText('Nom du groupe (nouveau)') as HTMLInputElement).value).toBe('Nouveau groupe');
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(api.calls).toEqual(['delete c', 'create Nouveau groupe', 'rename s Stage 2026']));
  });

  it('makes no call when a name is blank', async () => {
    setup();
    fireEvent.change(await screen.findByLabelText('Nom du groupe Stage'), { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(api.calls).toEqual([]);
  });
});
