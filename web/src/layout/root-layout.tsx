import { SessionProvider } from '../session/session-provider';
import { AppLayout } from './app-layout';

/** The root route: the session must live inside the router because it reloads on route changes. */
export function RootLayout() {
  return (
    <SessionProvider>
      <AppLayout />
    </SessionProvider>
  );
}
