import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { routes } from './routes';
import { theme } from './theme';

// GET /config answers; every other call goes to the real client (and fails: there is no server).
vi.mock('./api/client', async (importOriginal) => {
  const client = await importOriginal<typeof import('./api/client')>();
  const config = { contactEmail: 'contact@olympe.test', tileUrl: '' };
  return {
    ...client,
    api: { ...client.api, get: (url: string, options?: object) => (url === '/config' ? Promise.resolve({ data: config }) : client.api.get(url, options)) },
  };
});

function renderAt(url: string) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  render(
    <MantineProvider theme={theme}>
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return router;
}

describe('routes', () => {
  it('shows the home page with the contact address from /config', async () => {
    renderAt('/');
    expect(await screen.findByRole('heading', { name: 'Accueil', level: 1 })).toBeTruthy();
    expect((await screen.findAllByText('contact@olympe.test'))[0].getAttribute('href')).toBe(
      'mailto:contact@olympe.test',
    );
  });

  it.each([
    ['/login', 'Connexion'],
    ['/signup', 'Inscription'],
    ['/confirm?token=x', 'Choix du mot de passe'],
    ['/history/u1/e1', 'Historique des réponses'],
    ['/viewer/pdfs/2025/copie.pdf', 'Visualisateur'],
    ['/nimporte/quoi', 'Page introuvable'],
  ])('renders %s as "%s"', async (url, title) => {
    renderAt(url);
    // Each screen's chunk loads on first use; the contract with zod comes with the first screen that needs it,
    // not with the shell (decision 56), which takes more than a second on a busy machine.
    expect(await screen.findByRole('heading', { name: title, level: 1 }, { timeout: 5000 })).toBeTruthy();
  });

  it.each([
    '/chapters',
    '/groups',
    '/users/abc',
    '/grader/abc',
    '/exos/abc',
    '/access/abc',
    '/sorting/abc',
    '/overview/abc',
    '/analysis/abc',
    '/registrations/abc',
    '/live/abc',
    '/centre/abc',
  ])('sends a visitor who is not logged in from the management screen %s to the login page', async (url) => {
    const router = renderAt(url);
    expect(await screen.findByRole('heading', { name: 'Connexion', level: 1 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('names the chapter route "chapter"', () => {
    const router = renderAt('/chapter/abc');
    expect(router.state.matches.some((m) => m.route.id === 'chapter' && m.params.id === 'abc')).toBe(true);
  });

  it('keeps slashes in the viewer path', () => {
    const router = renderAt('/viewer/pdfs/2025/copie.pdf');
    expect(router.state.matches.at(-1)?.params['*']).toBe('pdfs/2025/copie.pdf');
  });
});
