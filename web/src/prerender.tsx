import { StrictMode, type ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter, useRoutes } from 'react-router';
import type { PublicConfig } from '@olympe/contract/public-config';
import { publicConfigQuery } from './api/config';
import { AppFrame, AppRoutes, newQueryClient } from './app';
import { AppLayout, PageLoader } from './layout/app-layout';
import { LOGGED_OUT, SessionContext, type Session } from './session/session-context';

/**
 * The screens a visitor opens first, rendered once by the server at start (decision 117): the page carries
 * their HTML, so they show before the app's script has arrived, and the app hydrates them. Only screens
 * without a session or data of their own: what they show is the same for every visitor.
 */
export const PRERENDERED_PATHS = ['/', '/login'];

/** The HTML inside `<div id="root">` for a visitor at `path`, with the server's public config. */
export async function renderScreen(path: string, config: PublicConfig): Promise<string> {
  return render(path, config, <AppRoutes />);
}

/** A session whose first load has not answered yet: what every page of a signed-in browser shows first. */
const CONNECTING: Session = { ...LOGGED_OUT, token: 'connecting', loading: true };

function SessionShellRoutes() {
  return useRoutes([{ path: '*', element: <AppLayout />, children: [{ path: '*', element: <PageLoader /> }] }]);
}

/**
 * Decision 120: the frame of a signed-in browser's pages (header, sidebar « Connexion au serveur… », a loader in
 * the page's place), the same for every page and every user. The page carries it so that something shows before
 * the app's script has arrived; the app's first render replaces it with the same frame and goes on.
 */
export async function renderSessionShell(config: PublicConfig): Promise<string> {
  return render(
    // No path of the app: no link of the sidebar is marked as the current page.
    '/~',
    config,
    <SessionContext.Provider value={CONNECTING}>
      <SessionShellRoutes />
    </SessionContext.Provider>,
  );
}

async function render(path: string, config: PublicConfig, routes: ReactNode): Promise<string> {
  const client = newQueryClient();
  client.setQueryData(publicConfigQuery.queryKey, config);
  // prerender waits for the lazy screens (React.lazy) to load, where renderToString would give the fallback.
  const { prelude } = await prerender(
    <StrictMode>
      <AppFrame client={client}>
        <StaticRouter location={path}>{routes}</StaticRouter>
      </AppFrame>
    </StrictMode>,
    // No boundary outlined into a later segment: that one is put in place by an inline script, which the CSP refuses.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return new Response(prelude).text();
}
