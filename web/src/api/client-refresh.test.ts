import { notifications } from '@mantine/notifications';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnswerQueue, classifySaveError, saveAnswer } from '../answering';
import { clearToken, readRefreshToken, readToken, writeToken } from '../session/token';
import { api, isApiError } from './client';
import { loadNotifications } from './notify';

/**
 * Decision 136: the access token lives 15 minutes. A call refused with 401 waits for one refresh of the
 * session and goes again with the new token: a pupil's queued answers never see the expiry.
 */

const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (name: string, sub = 'u1') => `${b64({ alg: 'HS256' })}.${b64({ sub, tv: 0, sid: name, exp: 2_000_000_000 })}.${name}`;
const EXPIRED = jwt('expire');
const RENEWED = jwt('nouveau');

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const bearerOf = (init: RequestInit | undefined) => new Headers(init?.headers).get('Authorization');
const calls = (path: string) => fetchMock.mock.calls.filter(([url]) => String(url) === `/api${path}`);

/** The server: the expired token is refused, the renewed one accepted; the refresh answers after `refreshMs`. */
function server(refresh: { status: number; refreshMs?: number }) {
  fetchMock.mockImplementation(async (url, init) => {
    const path = String(url);
    if (path === '/api/auth/refresh') {
      await new Promise((r) => setTimeout(r, refresh.refreshMs ?? 0));
      const { refreshToken } = JSON.parse(String(init?.body)) as { refreshToken: string };
      return refresh.status === 200 && refreshToken === 'r1'
        ? json(200, { token: RENEWED, refreshToken: 'r1' })
        : json(401, { message: 'Votre session a expiré ou n’est plus valide. Reconnectez-vous.', code: 'session_expired' });
    }
    if (bearerOf(init) !== `Bearer ${RENEWED}`)
      return json(401, { message: 'Votre session a expiré ou n’est plus valide. Reconnectez-vous.', code: 'session_expired' });
    if (path === '/api/answer') {
      const body = JSON.parse(String(init?.body)) as { exerciseId: string; seq: number };
      return json(200, { exercise: body.exerciseId, seq: body.seq, current: true, duplicate: false });
    }
    return json(200, []);
  });
}

function queue() {
  return new AnswerQueue({
    userId: 'u1',
    send: (entry) => saveAnswer(entry),
    classify: classifySaveError,
    debounceMs: 10_000,
    baseRetryMs: 60_000,
  });
}

describe('the client renews an expired access token (decision 136)', () => {
  const show = vi.spyOn(notifications, 'show').mockReturnValue('id');
  beforeAll(() => loadNotifications());
  beforeEach(() => {
    show.mockClear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    localStorage.clear();
    writeToken(EXPIRED, 'r1');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    clearToken();
  });

  it('sends the queued answers and a concurrent call again after one refresh, with no error shown', async () => {
    server({ status: 200, refreshMs: 20 });
    const answers = queue();
    answers.enqueue('u1', 'e1', '12');
    answers.enqueue('u1', 'e2', '3,5');
    const [, chapters] = await Promise.all([answers.flush(), api.get('/chapter')]);
    expect(chapters.data).toEqual([]);
    expect(answers.pending()).toEqual([]);
    expect(answers.stateOf('u1', 'e1')).toEqual({ kind: 'saved' });
    expect(answers.stateOf('u1', 'e2')).toEqual({ kind: 'saved' });
    // Three calls refused together, one refresh for all of them.
    expect(calls('/auth/refresh')).toHaveLength(1);
    const saves = calls('/answer');
    expect(saves.map(([, init]) => bearerOf(init))).toEqual([
      `Bearer ${EXPIRED}`,
      `Bearer ${EXPIRED}`,
      `Bearer ${RENEWED}`,
      `Bearer ${RENEWED}`,
    ]);
    expect([readToken(), readRefreshToken()]).toEqual([RENEWED, 'r1']);
    expect(show).not.toHaveBeenCalled();
    answers.dispose();
  });

  it('keeps the answers queued when the session is over, and sends them once the pupil logs in again', async () => {
    server({ status: 401 });
    const answers = queue();
    answers.enqueue('u1', 'e1', '42');
    await answers.flush();
    expect(answers.pending().map((e) => e.answer)).toEqual(['42']);
    expect(readToken()).toBe(EXPIRED);
    // The refused call itself stays a 401 for its caller (the session provider then logs out).
    const refused = await api.get('/chapter', { skipNotifications: true }).catch((error: unknown) => error);
    expect(isApiError(refused) && refused.status).toBe(401);
    // A new login: the queue's next try goes through.
    server({ status: 200 });
    writeToken(RENEWED, 'r2');
    await answers.flush();
    expect(answers.pending()).toEqual([]);
    answers.dispose();
  });

  it('does not ask for a refresh on an answer that is not a 401, nor without a refresh token', async () => {
    fetchMock.mockResolvedValue(json(403, { message: 'Interdit.', code: 'forbidden' }));
    await api.get('/chapter', { skipNotifications: true }).catch(() => undefined);
    writeToken(EXPIRED, null);
    fetchMock.mockResolvedValue(json(401, { message: 'Session expirée.', code: 'session_expired' }));
    await api.get('/chapter', { skipNotifications: true }).catch(() => undefined);
    expect(calls('/auth/refresh')).toHaveLength(0);
  });
});
