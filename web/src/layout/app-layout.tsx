import { Suspense, useEffect } from 'react';
import { Anchor, AppShell, Burger, Center, Group, Loader, Overlay, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, Outlet, useLocation } from 'react-router';
import { ImpersonationBanner } from '../components/ImpersonationBanner';
import { paths } from '../config/paths';
import { Sidebar } from './sidebar';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

// docs/product.md#spec-9: mobile breakpoint 768 px, which is Mantine's `sm` (48em). A max width keeps the
// mobile drawer narrower than the screen, so the overlay beside it can be clicked to close it.
const MOBILE_BREAKPOINT = 'sm';
const HEADER_HEIGHT = 56;

/** The app shell: header, sidebar (a drawer on small screens) and the routed page. */
export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();

  // docs/product.md#spec-2: the drawer closes on navigation.
  useEffect(close, [pathname, close]);

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      navbar={{ width: 280, breakpoint: MOBILE_BREAKPOINT, collapsed: { mobile: !opened } }}
      padding="md"
    >
      <SkipLink />
      <AppShell.Header>
        <Group h="100%" px="md" gap="sm">
          <Burger
            opened={opened}
            onClick={toggle}
            hiddenFrom={MOBILE_BREAKPOINT}
            size="sm"
            aria-label="Menu"
            aria-expanded={opened}
            aria-controls="main-navigation"
          />
          <Anchor component={Link} to={paths.home} c="dark.9" underline="never">
            <Text component="span" fw={700} size="lg">
              Olympe
            </Text>
          </Anchor>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar id="main-navigation" aria-label="Navigation principale" p="xs" maw={300}>
        {/* Native scrolling (decision 96): Mantine's ScrollArea brought 18 kB (gzip) into the first load. */}
        <AppShell.Section grow style={{ overflowY: 'auto' }}>
          <Sidebar />
        </AppShell.Section>
      </AppShell.Navbar>

      {opened && (
        // Below the navbar's z-index (100) so the drawer stays on top; a click outside closes it.
        <Overlay data-testid="drawer-overlay" hiddenFrom={MOBILE_BREAKPOINT} fixed zIndex={99} backgroundOpacity={0.4} onClick={close} />
      )}

      {/* Focusable by script only, for the skip link; no ring around the whole page. */}
      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1} style={{ outline: 'none' }}>
        <ImpersonationBanner />
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}

/** What the page's place shows while its code or the session loads. */
export function PageLoader() {
  return (
    <Center py="xl">
      <Loader role="status" aria-label="Chargement" />
    </Center>
  );
}
