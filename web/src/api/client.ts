import axios, { type AxiosError, type AxiosResponse } from 'axios';
import { readToken } from '../session/token';
import { showNotice } from './notify';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Background calls (e.g. the home page's contact address) must not raise notifications. */
    skipNotifications?: boolean;
  }
}

export const API_TIMEOUT_MS = 30000;
export const NETWORK_ERROR_MESSAGE = 'Erreur réseau : Le serveur ne répond pas.';
export const GENERIC_ERROR_MESSAGE = 'Une erreur est survenue';

/** The one HTTP client of the app (SPEC §7): fixed base, 30 s timeout, bearer from the stored jwt. */
export const api = axios.create({ baseURL: '/api', timeout: API_TIMEOUT_MS });

api.interceptors.request.use((config) => {
  // Read at request time, not at creation: login and logout change the token during the session.
  const token = readToken();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
});

function messageOf(data: unknown): string | null {
  if (data && typeof data === 'object' && 'message' in data) {
    const { message } = data as { message: unknown };
    if (typeof message === 'string' && message.length > 0) return message;
  }
  return null;
}

/** SPEC §8: a success carrying `message` is shown in green. */
export function handleSuccess(response: AxiosResponse): AxiosResponse {
  if (!response.config?.skipNotifications) {
    const message = messageOf(response.data);
    if (message) showNotice(message, 'green');
  }
  return response;
}

/**
 * SPEC §8: a server error in red with its message, no response at all as a network error. Pages that
 * run several quiet calls and report one outcome call this with the error they caught.
 */
export function notifyError(error: unknown): void {
  // One network notice at a time, however many calls fail together or retry.
  if (axios.isAxiosError(error) && !error.response) showNotice(NETWORK_ERROR_MESSAGE, 'red', { id: 'network-error' });
  else {
    const message = axios.isAxiosError(error) ? messageOf(error.response?.data) : null;
    showNotice(message ? `Erreur : ${message}` : GENERIC_ERROR_MESSAGE, 'red');
  }
}

export function handleError(error: AxiosError): Promise<never> {
  if (!error.config?.skipNotifications && !axios.isCancel(error)) notifyError(error);
  return Promise.reject(error);
}

api.interceptors.response.use(handleSuccess, handleError);
