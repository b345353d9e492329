import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { BrowserRouter, useRoutes } from 'react-router';
import { NOTIFICATION_DURATION_MS } from './api/notify';
import { routes } from './routes';
import { cssVariablesResolver, theme } from './theme';

// No automatic retries: each failed attempt would raise another red notification (docs/product.md#spec-8),
// and refetch on focus would reload data the user may be editing.
export function newQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
}

const queryClient = newQueryClient();

/**
 * The declarative router (decision 96): the data router's loaders, actions and fetchers were unused and
 * weighed 17 kB (gzip) in the first load.
 */
export function AppRoutes() {
  return useRoutes(routes);
}

/** Theme, notifications and data cache around a router: the browser's here, a static one in prerender.tsx. */
export function AppFrame({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Notifications autoClose={NOTIFICATION_DURATION_MS} position="top-right" />
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}

export function App() {
  return (
    <AppFrame client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppFrame>
  );
}
