import type { ReactElement, ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { theme } from '../theme';

interface Options {
  /** Initial URL of the in-memory router. */
  route?: string;
  /** Extra routes rendered beside the tested UI, to observe navigation (e.g. { '/login': 'Login' }). */
  targets?: Record<string, string>;
}

/** Renders a component with the app's providers, as the real app does, but in memory. */
export function renderWithProviders(ui: ReactElement, { route = '/', targets = {} }: Options = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrap = (children: ReactNode) => (
    <MantineProvider theme={theme}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
  return render(
    wrap(
      <Routes>
        {Object.entries(targets).map(([path, text]) => (
          <Route key={path} path={path} element={<p>{text}</p>} />
        ))}
        <Route path="*" element={ui} />
      </Routes>,
    ),
  );
}
