import { AxiosError, AxiosHeaders, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, GENERIC_ERROR_MESSAGE, NETWORK_ERROR_MESSAGE } from './client';

type Reply = (config: InternalAxiosRequestConfig) => Promise<never> | ReturnType<AxiosAdapter>;

function respond(status: number, data: unknown): Reply {
  return (config) => {
    const response = { data, status, statusText: String(status), headers: {}, config };
    if (status < 400) return Promise.resolve(response);
    return Promise.reject(new AxiosError('fail', 'ERR_BAD_RESPONSE', config, null, response));
  };
}

describe('api client', () => {
  const show = vi.spyOn(notifications, 'show').mockReturnValue('id');
  let lastConfig: InternalAxiosRequestConfig | null = null;

  function reply(fn: Reply) {
    api.defaults.adapter = (config) => {
      lastConfig = config;
      return fn(config);
    };
  }

  beforeEach(() => {
    show.mockClear();
    lastConfig = null;
  });
  afterEach(() => {
    api.defaults.adapter = undefined;
  });

  it('uses /api with a 30 s timeout', () => {
    expect(api.defaults.baseURL).toBe('/api');
    expect(api.defaults.timeout).toBe(30000);
  });

  it('sends the stored jwt as a bearer token, and nothing without one', async () => {
    reply(respond(200, {}));
    await api.get('/group');
    expect(AxiosHeaders.from(lastConfig!.headers).get('Authorization')).toBeUndefined();
    localStorage.setItem('jwt', 'abc');
    await api.get('/group');
    expect(AxiosHeaders.from(lastConfig!.headers).get('Authorization')).toBe('Bearer abc');
  });

  it('shows a success message in green for 5 s with a labelled close button', async () => {
    reply(respond(200, { message: 'Modifications enregistrées' }));
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
    reply(respond(200, { token: 't' }));
    await api.post('/auth/login');
    expect(show).not.toHaveBeenCalled();
  });

  it('shows the server message in red on an error', async () => {
    reply(respond(401, { message: 'Identifiants invalides.' }));
    await expect(api.post('/auth/login')).rejects.toBeInstanceOf(AxiosError);
    expect(show.mock.calls[0][0]).toMatchObject({ message: 'Erreur : Identifiants invalides.', color: 'red' });
  });

  it('shows a generic message on an error without message', async () => {
    reply(respond(500, 'Internal'));
    await expect(api.get('/x')).rejects.toBeInstanceOf(AxiosError);
    expect(show.mock.calls[0][0]).toMatchObject({ message: GENERIC_ERROR_MESSAGE, color: 'red' });
    expect(GENERIC_ERROR_MESSAGE).toBe('Une erreur est survenue');
  });

  it('shows a network error when no response arrives', async () => {
    reply((config) => Promise.reject(new AxiosError('Network Error', 'ERR_NETWORK', config)));
    await expect(api.get('/x')).rejects.toBeInstanceOf(AxiosError);
    expect(show.mock.calls[0][0]).toMatchObject({ message: NETWORK_ERROR_MESSAGE, color: 'red' });
    expect(NETWORK_ERROR_MESSAGE).toBe('Erreur réseau : Le serveur ne répond pas.');
  });

  it('stays silent for calls flagged skipNotifications', async () => {
    reply(respond(503, { message: 'indisponible' }));
    await expect(api.get('/config', { skipNotifications: true })).rejects.toBeInstanceOf(AxiosError);
    expect(show).not.toHaveBeenCalled();
  });
});
