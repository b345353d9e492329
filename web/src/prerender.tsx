import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import type { PublicConfig } from '@olympe/contract/public-config';
import { publicConfigQuery } from './api/config';
import { AppFrame, AppRoutes, newQueryClient } from './app';

/**
 * The screens a visitor opens first, rendered once by the server at start (decision 117): the page carries
 * their HTML, so they show before the app's script has arrived, and the app hydrates them. Only screens
 * without a session or data of their own: what they show is the same for every visitor.
 */
export const PRERENDERED_PATHS = ['/', '/login'];

/** The HTML inside `<div id="root">` for a visitor at `path`, with the server's public config. */
export async function renderScreen(path: string, config: PublicConfig): Promise<string> {
  const client = newQueryClient();
  client.setQueryData(publicConfigQuery.queryKey, config);
  // prerender waits for the lazy screens (React.lazy) to load, where renderToString would give the fallback.
  const { prelude } = await prerender(
    <StrictMode>
      <AppFrame client={client}>
        <StaticRouter location={path}>
          <AppRoutes />
        </StaticRouter>
      </AppFrame>
    </StrictMode>,
    // No boundary outlined into a later segment: that one is put in place by an inline script, which the CSP refuses.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return new Response(prelude).text();
}
