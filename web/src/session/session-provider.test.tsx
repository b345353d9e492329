import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useNavigate } from 'react-router';
import { ApiError } from '../api/client';
import { renderWithProviders } from '../test/render';
import { CHAPTERS, makeUser } from '../test/fixtures';
import { answerQueueFor, UNSENT_ANSWERS_TEXT } from '../answering/session';
import { useSession } from './session-context';
import { SessionProvider } from './session-provider';
import { tokenSubject } from './token';
import { folded } from '../test/text';

const api = vi.hoisted(() => ({
  fetchMe: vi.fn(),
  fetchMyGroups: vi.fn(),
  fetchChapters: vi.fn(),
  saveAnswer: vi.fn(),
  endServerSession: vi.fn(async () => undefined),
}));
vi.mock('../api/auth', () => ({ fetchMe: api.fetchMe, endServerSession: api.endServerSession }));
vi.mock('../answering/requests', async (importOriginal) => ({ ...(await importOriginal<object>()), saveAnswer: api.saveAnswer }));
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
      <button onClick={() => session.login('nouveau', null).catch(() => {})}>entrer</button>
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
    api.endServerSession.mockResolvedValue(undefined);
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
    api.fetchMyGroups.mockRejectedValue(
      new ApiError('http', { status: 401, data: { message: 'Session expirée', code: 'session_expired' } }),
    );
    renderProbe();
    await waitFor(() => expect(localStorage.getItem('jwt')).toBeNull());
    expect(screen.getByTestId('user').textContent).toBe('anonyme');
  });

  it('keeps the token through a network cut and loads the session when the network returns', async () => {
    localStorage.setItem('jwt', 'garde');
    const offline = new ApiError('network');
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

  it('clears token and state on logout, after asking the server to end the session (decision 136)', async () => {
    localStorage.setItem('jwt', 'ancien');
    localStorage.setItem('jwt_refresh', 'r-ancien');
    localStorage.setItem('jwt_admin_refresh', 'r-admin');
    const sentWith: Array<string | null> = [];
    api.endServerSession.mockImplementation(async () => void sentWith.push(localStorage.getItem('jwt')));
    renderProbe();
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('eleve@example.fr'));
    fireEvent.click(screen.getByText('sortir'));
    // Called while the token was still there (the client reads it at the call), with the admin's kept session.
    expect(api.endServerSession).toHaveBeenCalledWith(['r-admin']);
    expect(sentWith).toEqual(['ancien']);
    expect(localStorage.getItem('jwt')).toBeNull();
    expect(localStorage.getItem('jwt_refresh')).toBeNull();
    expect(screen.getByTestId('user').textContent).toBe('anonyme');
  });
});

/** A token as the server signs them, as far as the app reads it (the subject). */
const jwtOf = (sub: string) => `h.${btoa(JSON.stringify({ sub, tv: 0 }))}.s`;
const QUEUE = 'olympe.answerQueue';
const LATEST = 'olympe.answerLatest';
const entry = (userId: string, exerciseId: string, answer: string, seq: number) => ({ userId, exerciseId, answer, seq });
const olympeKeys = () => Object.keys(localStorage).filter((k) => k.startsWith('olympe.'));

describe('SessionProvider on a shared computer', () => {
  /** What was sent, and with which stored token. */
  let sent: Array<{ userId: string; answer: string; token: string | null }>;
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    api.fetchMe.mockImplementation(async () => {
      const id = tokenSubject(localStorage.getItem('jwt')) ?? 'u1';
      return makeUser({ _id: id, email: `${id}@example.fr` });
    });
    api.fetchMyGroups.mockResolvedValue([]);
    api.fetchChapters.mockResolvedValue(CHAPTERS);
    sent = [];
    api.saveAnswer.mockImplementation(async (e: { userId: string; answer: string; seq: number }) => {
      sent.push({ userId: e.userId, answer: e.answer, token: localStorage.getItem('jwt') });
      return { seq: e.seq };
    });
  });

  /** Pupil u1 logged in, with one answer sent earlier (still shown) and one not sent yet. */
  function pupilWithUnsentAnswer() {
    localStorage.setItem('jwt', jwtOf('u1'));
    localStorage.setItem(QUEUE, JSON.stringify({ 'u1:e2': entry('u1', 'e2', '42', 20) }));
    localStorage.setItem(LATEST, JSON.stringify({ 'u1:e1': { seq: 10, answer: '7' }, 'u1:e2': { seq: 20, answer: '42' } }));
  }

  it('logout sends the unsent answers with the pupil’s own token, then leaves nothing of them', async () => {
    pupilWithUnsentAnswer();
    renderProbe();
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('u1@example.fr'));
    fireEvent.click(screen.getByText('sortir'));
    await waitFor(() => expect(localStorage.getItem('jwt')).toBeNull());
    expect(sent).toEqual([{ userId: 'u1', answer: '42', token: jwtOf('u1') }]);
    expect(olympeKeys()).toEqual([]);
    expect(screen.getByTestId('user').textContent).toBe('anonyme');
  });

  it('logout with nothing unsent clears the values typed earlier at once', async () => {
    localStorage.setItem('jwt', jwtOf('u1'));
    localStorage.setItem(LATEST, JSON.stringify({ 'u1:e1': { seq: 10, answer: '7' } }));
    renderProbe();
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('u1@example.fr'));
    fireEvent.click(screen.getByText('sortir'));
    expect(localStorage.getItem('jwt')).toBeNull();
    expect(olympeKeys()).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('when the answers cannot be sent, warns; the pupil may stay, or leave knowing they are lost', async () => {
    pupilWithUnsentAnswer();
    api.saveAnswer.mockRejectedValue(new Error('Network Error'));
    renderProbe();
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('u1@example.fr'));

    fireEvent.click(screen.getByText('sortir'));
    expect(await screen.findByText(folded(UNSENT_ANSWERS_TEXT))).toBeTruthy();
    expect(UNSENT_ANSWERS_TEXT).toMatch(/^Des réponses n’ont pas encore été envoyées/);
    expect(localStorage.getItem('jwt')).toBe(jwtOf('u1'));
    fireEvent.click(screen.getByRole('button', { name: 'Rester connecté' }));
    await waitFor(() => expect(screen.queryByText(folded(UNSENT_ANSWERS_TEXT))).toBeNull());
    expect(localStorage.getItem('jwt')).toBe(jwtOf('u1'));
    expect(JSON.parse(localStorage.getItem(QUEUE)!)).toHaveProperty('u1:e2');
    expect(screen.getByTestId('user').textContent).toBe('u1@example.fr');

    fireEvent.click(screen.getByText('sortir'));
    fireEvent.click(await screen.findByRole('button', { name: 'Se déconnecter sans les envoyer' }));
    await waitFor(() => expect(localStorage.getItem('jwt')).toBeNull());
    expect(olympeKeys()).toEqual([]);
  });

  it('while the warning shows, the queue keeps retrying and the logout goes on once they are sent', async () => {
    pupilWithUnsentAnswer();
    api.saveAnswer.mockRejectedValueOnce(new Error('Network Error'));
    renderProbe();
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('u1@example.fr'));
    fireEvent.click(screen.getByText('sortir'));
    expect(await screen.findByText(folded(UNSENT_ANSWERS_TEXT))).toBeTruthy();
    // The queue's own retry (about 1 s) gets through.
    await waitFor(() => expect(localStorage.getItem('jwt')).toBeNull(), { timeout: 3000 });
    expect(sent).toEqual([{ userId: 'u1', answer: '42', token: jwtOf('u1') }]);
    expect(olympeKeys()).toEqual([]);
  });

  it('another pupil logging in never sends nor sees the previous pupil’s entries; unsent ones wait for their author', async () => {
    // u1's queue is stuck (network down) when u1's session ends without a logout click.
    localStorage.setItem('jwt', jwtOf('u1'));
    localStorage.setItem(LATEST, JSON.stringify({ 'u1:e1': { seq: 10, answer: '7' } }));
    const stuck = answerQueueFor('u1');
    api.saveAnswer.mockRejectedValue(new Error('Network Error'));
    stuck.enqueue('u1', 'e2', '42');
    await stuck.flush();
    expect(stuck.hasPending()).toBe(true);
    sent = [];

    // Pupil u2 logs in on the same browser; the network is back.
    api.saveAnswer.mockImplementation(async (e: { userId: string; answer: string; seq: number }) => {
      sent.push({ userId: e.userId, answer: e.answer, token: localStorage.getItem('jwt') });
      return { seq: e.seq };
    });
    localStorage.removeItem('jwt');
    renderWithProviders(
      <SessionProvider>
        <LoginAs token={jwtOf('u2')} />
      </SessionProvider>,
    );
    fireEvent.click(screen.getByText('entrer'));
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('u2@example.fr'));
    await stuck.flush();
    await answerQueueFor('u2').flush();
    await new Promise((r) => setTimeout(r, 1500));

    expect(sent.filter((s) => s.userId === 'u1')).toEqual([]);
    const u2 = answerQueueFor('u2');
    expect(u2.valueToShow('u2', 'e1', undefined)).toBe('');
    expect(u2.pending()).toEqual([]);
    // u1's value already on the server is gone; the unsent one waits for u1 alone.
    expect(Object.keys(JSON.parse(localStorage.getItem(LATEST)!))).toEqual(['u1:e2']);
    expect(Object.keys(JSON.parse(localStorage.getItem(QUEUE)!))).toEqual(['u1:e2']);
  });
});

function LoginAs({ token }: { token: string }) {
  const session = useSession();
  return (
    <div>
      <p data-testid="user">{session.user?.email ?? 'anonyme'}</p>
      <button onClick={() => session.login(token, null).catch(() => {})}>entrer</button>
    </div>
  );
}
