import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './client';

const bootScript = readFileSync(path.join(import.meta.dirname, '../../public/boot.js'), 'utf8');
const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Runs web/public/boot.js as the page does, before the app. */
function runBoot() {
  new Function(bootScript)();
}

describe('the session calls sent before the app ran (web/public/boot.js, decision 97)', () => {
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    delete window.olympeEarly;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    delete window.olympeEarly;
  });

  it('sends nothing without a token', async () => {
    runBoot();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(window.olympeEarly).toBeUndefined();
  });

  it('sends the three session calls as the client would, and the client reuses each answer once', async () => {
    localStorage.setItem('jwt', 'jeton');
    fetchMock.mockImplementation(async (url) => json(200, { from: `boot ${String(url)}` }));
    runBoot();
    expect(
      fetchMock.mock.calls.map(([url, init]) => [url, init!.method, init!.body, new Headers(init!.headers).get('Authorization')]),
    ).toEqual([
      ['/api/auth/me', 'PUT', '{}', 'Bearer jeton'],
      ['/api/group', 'GET', undefined, 'Bearer jeton'],
      ['/api/chapter', 'GET', undefined, 'Bearer jeton'],
    ]);
    fetchMock.mockClear().mockImplementation(async (url) => json(200, { from: `app ${String(url)}` }));
    expect((await api.put('/auth/me', {})).data).toEqual({ from: 'boot /api/auth/me' });
    expect((await api.get('/group')).data).toEqual({ from: 'boot /api/group' });
    expect((await api.get('/chapter')).data).toEqual({ from: 'boot /api/chapter' });
    expect(fetchMock).not.toHaveBeenCalled();
    // Not sent twice, not reused twice: the next load of the session asks the server again.
    expect((await api.get('/group')).data).toEqual({ from: 'app /api/group' });
    // A profile saved with a body is never answered by the session's empty PUT.
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("on a chapter's page, also asks for its exercises, and not for its session state (the countdown's clock)", async () => {
    const chapterId = '0d6c1f3e-2b4a-4c8e-9f10-1a2b3c4d5e6f';
    window.history.replaceState(null, '', `/chapter/${chapterId}`);
    try {
      localStorage.setItem('jwt', 'jeton');
      fetchMock.mockImplementation(async (url) => json(200, { from: `boot ${String(url)}` }));
      runBoot();
      expect(fetchMock.mock.calls.map(([url, init]) => `${init!.method} ${String(url)}`)).toEqual([
        'PUT /api/auth/me',
        'GET /api/group',
        'GET /api/chapter',
        `GET /api/exos/chapter/${chapterId}`,
      ]);
      fetchMock.mockClear().mockImplementation(async (url) => json(200, { from: `app ${String(url)}` }));
      expect((await api.get(`/exos/chapter/${chapterId}`)).data).toEqual({ from: `boot /api/exos/chapter/${chapterId}` });
      expect((await api.get(`/chapter/start/${chapterId}`)).data).toEqual({ from: `app /api/chapter/start/${chapterId}` });
      // Any other path (a forged one included) asks for nothing more.
      for (const other of ['/chapter/x', `/chapter/${chapterId}/../admin`, `/viewer/${chapterId}`]) {
        delete window.olympeEarly;
        window.history.replaceState(null, '', other);
        fetchMock.mockClear();
        runBoot();
        expect(fetchMock).toHaveBeenCalledTimes(3);
      }
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('a call boot.js sent without a network is sent again when the app makes it, never read as a past failure', async () => {
    const chapterId = '0d6c1f3e-2b4a-4c8e-9f10-1a2b3c4d5e6f';
    window.history.replaceState(null, '', `/chapter/${chapterId}`);
    try {
      localStorage.setItem('jwt', 'jeton');
      fetchMock.mockImplementation(async () => {
        throw new TypeError('Failed to fetch');
      });
      runBoot();
      // The network is back by the time the app asks for the chapter.
      fetchMock.mockClear().mockImplementation(async (url) => json(200, { from: `app ${String(url)}` }));
      expect((await api.get(`/exos/chapter/${chapterId}`)).data).toEqual({ from: `app /api/exos/chapter/${chapterId}` });
      expect(fetchMock).toHaveBeenCalledTimes(1);
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('never gives an answer to another token than the one it was sent with', async () => {
    localStorage.setItem('jwt', 'premier');
    fetchMock.mockImplementation(async () => json(200, { user: 'premier' }));
    runBoot();
    localStorage.setItem('jwt', 'second');
    fetchMock.mockClear().mockImplementation(async () => json(200, { user: 'second' }));
    expect((await api.get('/chapter')).data).toEqual({ user: 'second' });
    expect(new Headers(fetchMock.mock.calls[0][1]!.headers).get('Authorization')).toBe('Bearer second');
  });

  it('reads a refusal and a network failure as the client reads its own calls', async () => {
    localStorage.setItem('jwt', 'refuse');
    fetchMock.mockImplementation(async (url) => {
      if (String(url) === '/api/group') throw new TypeError('Failed to fetch');
      return json(401, { message: 'Session expirée.' });
    });
    runBoot();
    const refused = await api.put('/auth/me', {}, { skipNotifications: true }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ kind: 'http', status: 401 });
    const offline = await api.get('/group', { skipNotifications: true }).catch((e: unknown) => e);
    expect(offline).toMatchObject({ kind: 'network' });
  });

  it('makes no Intl object, for a session or a visitor: a first one loads locale data in a long task (decision 123)', async () => {
    const made: string[] = [];
    const { DateTimeFormat, NumberFormat } = Intl;
    vi.stubGlobal('Intl', {
      ...Intl,
      DateTimeFormat: function (locale: string, options: Intl.DateTimeFormatOptions) {
        made.push(`date ${locale}`);
        return new DateTimeFormat(locale, options);
      },
      NumberFormat: function (locale: string, options: Intl.NumberFormatOptions) {
        made.push(`number ${locale}`);
        return new NumberFormat(locale, options);
      },
    });
    vi.useFakeTimers();
    try {
      runBoot();
      vi.runAllTimers();
      localStorage.setItem('jwt', 'jeton');
      fetchMock.mockImplementation(async () => json(200, {}));
      runBoot();
      vi.runAllTimers();
      expect(made).toEqual([]);
    } finally {
      vi.useRealTimers();
      localStorage.removeItem('jwt');
    }
  });
});
