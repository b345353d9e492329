import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { Link, matchRoutes, MemoryRouter, Route, Routes, useLocation, useRoutes } from 'react-router';
import { RouteErrorBoundary } from './layout/route-error';
import { describe, expect, it, vi } from 'vitest';
import { routes } from './routes';
import { theme } from './theme';

// GET /config answers; every other call goes to the real client (and fails: there is no server).
vi.mock('./api/client', async (importOriginal) => {
  const client = await importOriginal<typeof import('./api/client')>();
  const config = { contactEmail: 'contact@olympe.test', tileUrl: '' };
  return {
    ...client,
    api: {
      ...client.api,
      get: (url: string, options?: object) => (url === '/config' ? Promise.resolve({ data: config }) : client.api.get(url, options)),
    },
  };
});

const at = { pathname: '' };

function AppRoutes() {
  at.pathname = useLocation().pathname;
  return useRoutes(routes);
}

/** The app's routes as app.tsx renders them (the declarative router, decision 96); `at` follows the location. */
function renderAt(url: string) {
  render(
    <MantineProvider theme={theme}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={[url]}>
          <AppRoutes />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return at;
}

describe('routes', () => {
  it('shows the home page with the contact address from /config', async () => {
    renderAt('/');
    expect(await screen.findByRole('heading', { name: 'Accueil', level: 1 })).toBeTruthy();
    expect((await screen.findAllByText('contact@olympe.test'))[0].getAttribute('href')).toBe('mailto:contact@olympe.test');
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
    const location = renderAt(url);
    expect(await screen.findByRole('heading', { name: 'Connexion', level: 1 })).toBeTruthy();
    expect(location.pathname).toBe('/login');
  });

  it('names the chapter route "chapter"', () => {
    expect(matchRoutes(routes, '/chapter/abc')?.some((m) => m.route.id === 'chapter' && m.params.id === 'abc')).toBe(true);
  });

  it('shows the error screen when a page crashes, and the next page after a move', async () => {
    const crash = vi.spyOn(console, 'error').mockImplementation(() => {});
    const Boom = () => {
      throw new Error('boom');
    };
    render(
      <MantineProvider theme={theme}>
        <MemoryRouter initialEntries={['/a']}>
          <Link to="/b">ailleurs</Link>
          <Routes>
            <Route element={<RouteErrorBoundary />}>
              <Route path="/a" element={<Boom />} />
              <Route path="/b" element={<p>page b</p>} />
            </Route>
          </Routes>
        </MemoryRouter>
      </MantineProvider>,
    );
    expect(screen.getByRole('heading', { name: 'Une erreur est survenue', level: 1 })).toBeTruthy();
    fireEvent.click(screen.getByText('ailleurs'));
    expect(await screen.findByText('page b')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Une erreur est survenue' })).toBeNull();
    crash.mockRestore();
  });

  it('keeps slashes in the viewer path', () => {
    expect(matchRoutes(routes, '/viewer/pdfs/2025/copie.pdf')?.at(-1)?.params['*']).toBe('pdfs/2025/copie.pdf');
  });
});
