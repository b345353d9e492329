import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { BrowserRouter, useRoutes } from 'react-router';
import { loadNotifications, NOTIFICATION_DURATION_MS, whenNotificationsLoad, type NotificationsModule } from './api/notify';
import { onIdle } from './lib/idle';
import { routes } from './routes';
import { THEME_PROVIDER_PROPS } from './theme';

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

/**
 * Decision 127: the notices' file is not asked for in the first seconds of a page, while a phone's slow line brings
 * the screen's own code and data (the page is idle between two of its answers, and a file asked for then delayed
 * the screen). A notice asked for sooner loads it at once.
 */
const NOTICES_NOT_BEFORE_MS = 3000;

/**
 * Where notices show: Mantine's container, mounted once its file has come (decision 121), after the first screen and
 * in a moment the page is idle, or at the first notice. Notices asked for before are kept by its store and shown
 * when it mounts.
 */
function NoticeContainer() {
  const [Container, setContainer] = useState<NotificationsModule['Notifications'] | null>(null);
  useEffect(() => {
    const unsubscribe = whenNotificationsLoad((m) => setContainer(() => m.Notifications));
    const load = () => void loadNotifications().catch(() => undefined);
    let cancelIdle: (() => void) | undefined;
    const timer = setTimeout(() => (cancelIdle = onIdle(load, 0)), Math.max(0, NOTICES_NOT_BEFORE_MS - performance.now()));
    return () => {
      unsubscribe();
      clearTimeout(timer);
      cancelIdle?.();
    };
  }, []);
  return Container ? <Container autoClose={NOTIFICATION_DURATION_MS} position="top-right" /> : null;
}

/** Theme, notifications and data cache around a router: the browser's here, a static one in prerender.tsx. */
export function AppFrame({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    // The theme's CSS variables are in the stylesheet, written at build (decision 123): computing them here was one
    // render of 100–150 ms on a phone.
    <MantineProvider {...THEME_PROVIDER_PROPS} withCssVariables={false}>
      <NoticeContainer />
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
