import { notifications } from '@mantine/notifications';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, GENERIC_ERROR_MESSAGE, isNetworkError, NETWORK_ERROR_MESSAGE, refusalOf } from './client';
import { loadNotifications } from './notify';

const fetchMock = vi.fn<typeof fetch>();

function respond(status: number, body: unknown, contentType = 'application/json') {
  fetchMock.mockImplementation(async () => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(status === 204 ? null : text, { status, headers: { 'Content-Type': contentType } });
  });
}

/** The URL and init of the last fetch. */
function lastCall() {
  const [url, init] = fetchMock.mock.calls.at(-1)!;
  return { url: String(url), init: init!, headers: new Headers(init!.headers) };
}

describe('api client', () => {
  const show = vi.spyOn(notifications, 'show').mockReturnValue('id');
  // As in the app once its first screen is drawn (decision 121): the notices' file is in.
  beforeAll(() => loadNotifications());

  beforeEach(() => {
    show.mockClear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('calls /api with the method, a JSON body and the query parameters', async () => {
    respond(200, { ok: 1 });
    const { data } = await api.post<{ ok: number }>('/group', { name: 'A' });
    expect(data).toEqual({ ok: 1 });
    expect(lastCall().url).toBe('/api/group');
    expect(lastCall().init.method).toBe('POST');
    expect(lastCall().init.body).toBe('{"name":"A"}');
    expect(lastCall().headers.get('Content-Type')).toBe('application/json');
    await api.get('/center/c1', { params: { institution: 'i 1', skip: undefined } });
    expect(lastCall().url).toBe('/api/center/c1?institution=i+1');
  });

  it('sends multipart bodies as they are', async () => {
    respond(200, { path: 'pdfs/a.pdf' });
    const form = new FormData();
    form.append('user', 'u1');
    await api.post('/pdfs', form);
    expect(lastCall().init.body).toBe(form);
    expect(lastCall().headers.get('Content-Type')).toBeNull();
  });

  it('reads binary bodies when asked, and an empty body as undefined', async () => {
    respond(200, '%PDF-1.7', 'application/pdf');
    const { data } = await api.get<ArrayBuffer>('/pdfs/a.pdf', { responseType: 'arraybuffer' });
    expect(new TextDecoder().decode(data)).toBe('%PDF-1.7');
    respond(204, '');
    expect((await api.delete('/group/g1')).data).toBeUndefined();
  });

  it('sends the stored jwt as a bearer token, and nothing without one', async () => {
    respond(200, {});
    await api.get('/group');
    expect(lastCall().headers.get('Authorization')).toBeNull();
    localStorage.setItem('jwt', 'abc');
    await api.get('/group');
    expect(lastCall().headers.get('Authorization')).toBe('Bearer abc');
    localStorage.removeItem('jwt');
  });

  it('shows a success message in green for 5 s with a labelled close button', async () => {
    respond(200, { message: 'Modifications enregistrées' });
    await api.post('/x');
    expect(show).toHaveBeenCalledTimes(1);
    expect(show.mock.calls[0][0]).toMatchObject({
      message: 'Modifications enregistrées',
      color: 'green',
      autoClose: 5000,
      closeButtonProps: { 'aria-label': 'Fermer' },
    });
  });

  it('shows nothing for a success without message', async () => {
    respond(200, { token: 't' });
    await api.post('/auth/login');
    expect(show).not.toHaveBeenCalled();
  });

  it('rejects with the status, the code and the body, and shows the server message in red', async () => {
    respond(401, { message: 'Identifiants invalides.', code: 'unauthorized' });
    const error = await api.post('/auth/login').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'unauthorized', message: 'Identifiants invalides.', kind: 'http' });
    expect((error as ApiError).response?.data).toEqual({ message: 'Identifiants invalides.', code: 'unauthorized' });
    expect(isNetworkError(error)).toBe(false);
    expect(show.mock.calls[0][0]).toMatchObject({ message: 'Erreur : Identifiants invalides.', color: 'red' });
  });

  it('shows a generic message on an error without message', async () => {
    respond(500, 'Internal', 'text/plain');
    const error = await api.get('/x').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 500, response: { data: 'Internal' } });
    expect(show.mock.calls[0][0]).toMatchObject({ message: GENERIC_ERROR_MESSAGE, color: 'red' });
    expect(GENERIC_ERROR_MESSAGE).toBe('Une erreur est survenue');
  });

  it('shows a network error when no response arrives', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await api.get('/x').catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network', status: undefined, response: undefined });
    expect(isNetworkError(error)).toBe(true);
    expect(show.mock.calls[0][0]).toMatchObject({ message: NETWORK_ERROR_MESSAGE, color: 'red' });
    expect(NETWORK_ERROR_MESSAGE).toBe('Erreur réseau : Le serveur ne répond pas.');
  });

  it('gives up after 30 s as a network error', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    );
    const pending = api.get('/x').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(show).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ kind: 'timeout' });
    expect(show.mock.calls[0][0]).toMatchObject({ message: NETWORK_ERROR_MESSAGE });
  });

  it('stays silent for a call cancelled by its caller', async () => {
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    );
    const controller = new AbortController();
    const pending = api.get('/x', { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(await pending).toMatchObject({ kind: 'aborted' });
    expect(show).not.toHaveBeenCalled();
  });

  it('stays silent for calls flagged skipNotifications', async () => {
    respond(503, { message: 'indisponible' });
    await expect(api.get('/config', { skipNotifications: true })).rejects.toBeInstanceOf(ApiError);
    expect(show).not.toHaveBeenCalled();
  });
});

describe('refusalOf', () => {
  it('reads the server’s message and per-field messages, and nothing when the server did not answer', () => {
    const refused = new ApiError('http', {
      status: 400,
      data: { message: 'Vérifiez le formulaire.', fields: { birthDate: 'Date invalide.' } },
    });
    expect(refusalOf(refused)).toEqual({ message: 'Vérifiez le formulaire.', fields: { birthDate: 'Date invalide.' } });
    expect(refusalOf(new ApiError('http', { status: 403, data: { message: 'Accès refusé.' } }))).toEqual({
      message: 'Accès refusé.',
      fields: {},
    });
    expect(refusalOf(new ApiError('http', { status: 502, data: '<html>' }))).toEqual({ message: null, fields: {} });
    expect(refusalOf(new ApiError('network'))).toBeNull();
    expect(refusalOf(new Error('boom'))).toBeNull();
  });
});
