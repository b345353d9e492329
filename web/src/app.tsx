import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { NOTIFICATION_DURATION_MS } from './api/notify';
import { routes } from './routes';
import { cssVariablesResolver, theme } from './theme';

// No automatic retries: each failed attempt would raise another red notification (docs/product.md#spec-8),
// and refetch on focus would reload data the user may be editing.
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

const router = createBrowserRouter(routes);

export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Notifications autoClose={NOTIFICATION_DURATION_MS} position="top-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
