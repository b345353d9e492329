import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useNavigate } from 'react-router';
import { renderWithProviders } from '../test/render';
import { CHAPTERS, makeUser } from '../test/fixtures';
import { useSession } from './session-context';
import { SessionProvider } from './session-provider';

const api = vi.hoisted(() => ({ fetchMe: vi.fn(), fetchMyGroups: vi.fn(), fetchChapters: vi.fn() }));
vi.mock('../api/auth', () => ({ fetchMe: api.fetchMe }));
vi.mock('../api/groups', () => ({ fetchMyGroups: api.fetchMyGroups }));
vi.mock('../api/chapters', () => ({ fetchChapters: api.fetchChapters }));

function Probe() {
  const session = useSession();
  const navigate = useNavigate();
  return (
    <div>
      <p data-testid="user">{session.user?.email ?? 'anonyme'}</p>
      <p data-testid="chapters">{session.chapters.length}</p>
      <p data-testid="member">{String(session.roles.isMember)}</p>
      <button onClick={() => navigate('/ailleurs')}>bouger</button>
      <button onClick={() => session.login('nouveau').catch(() => {})}>entrer</button>
      <button onClick={session.logout}>sortir</button>
    </div>
  );
}

const renderProbe = () =>
  renderWithProviders(
    <SessionProvider>
      <Probe />
    </SessionProvider>,
  );

describe('SessionProvider', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    api.fetchMe.mockResolvedValue(makeUser());
    api.fetchMyGroups.mockResolvedValue([{ _id: 'g', name: 'members' }]);
    api.fetchChapters.mockResolvedValue(CHAPTERS);
  });

  it('makes no call without a token', async () => {
    renderProbe();
    await act(async () => {});
    expect(api.fetchMe).not.toHaveBeenCalled();
    expect(screen.getByTestId('user').textContent).toBe('anonyme');
  });

  it('loads user, groups and chapters together from a stored token', async () => {
    localStorage.setItem('jwt', 'ancien');
    renderProbe();
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('eleve@example.fr'));
    expect(api.fetchMe).toHaveBeenCalledTimes(1);
    expect(api.fetchMyGroups).toHaveBeenCalledTimes(1);
    expect(api.fetchChapters).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('chapters').textContent).toBe('2');
    expect(screen.getByTestId('member').textContent).toBe('true');
  });

  it('reloads the session on every route change', async () => {
    localStorage.setItem('jwt', 'ancien');
    renderProbe();
    await waitFor(() => expect(api.fetchMe).toHaveBeenCalledTimes(1));
    fireEvent.click(screen.getByText('bouger'));
    await waitFor(() => expect(api.fetchMe).toHaveBeenCalledTimes(2));
    expect(api.fetchChapters).toHaveBeenCalledTimes(2);
  });

  it('logs out and removes the token when the server refuses it', async () => {
    localStorage.setItem('jwt', 'expire');
    api.fetchMyGroups.mockRejectedValue(Object.assign(new Error('401'), { isAxiosError: true, response: { status: 401 } }));
    renderProbe();
    await waitFor(() => expect(localStorage.getItem('jwt')).toBeNull());
    expect(screen.getByTestId('user').textContent).toBe('anonyme');
  });

  it('keeps the token through a network cut and loads the session when the network returns', async () => {
    localStorage.setItem('jwt', 'garde');
    const offline = Object.assign(new Error('Network Error'), { isAxiosError: true, response: undefined });
    api.fetchMe.mockRejectedValueOnce(offline).mockResolvedValue(makeUser());
    renderProbe();
    await waitFor(() => expect(api.fetchMe).toHaveBeenCalledTimes(1));
    expect(localStorage.getItem('jwt')).toBe('garde');
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('eleve@example.fr'), { timeout: 5000 });
    expect(api.fetchMe).toHaveBeenCalledTimes(2);
    expect(localStorage.getItem('jwt')).toBe('garde');
  });

  it('stores the token on login and loads the session', async () => {
    renderProbe();
    fireEvent.click(screen.getByText('entrer'));
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('eleve@example.fr'));
    expect(localStorage.getItem('jwt')).toBe('nouveau');
  });

  it('clears token and state on logout', async () => {
    localStorage.setItem('jwt', 'ancien');
    renderProbe();
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('eleve@example.fr'));
    fireEvent.click(screen.getByText('sortir'));
    expect(localStorage.getItem('jwt')).toBeNull();
    expect(screen.getByTestId('user').textContent).toBe('anonyme');
  });
});
