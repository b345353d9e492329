import { Component, type ReactNode } from 'react';
import { Button, Stack, Text, Title } from '@mantine/core';
import { Outlet, useLocation } from 'react-router';

/** Shown inside the shell when a page crashes or its chunk fails to load (e.g. after a deploy). */
export function RouteError() {
  return (
    <Stack>
      <Title order={1}>Une erreur est survenue</Title>
      <Text>La page n’a pas pu être affichée. Rechargez-la pour réessayer.</Text>
      <Button onClick={() => window.location.reload()} w="fit-content">
        Recharger la page
      </Button>
    </Stack>
  );
}

interface BoundaryProps {
  pathname: string;
  children: ReactNode;
}

/** A page's crash, forgotten when the path changes: the next page shows, as with errorElement. */
class PageErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.error(error);
  }

  componentDidUpdate(previous: BoundaryProps) {
    if (this.state.failed && previous.pathname !== this.props.pathname) this.setState({ failed: false });
  }

  render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}

/**
 * The screens' error boundary: the declarative router has no `errorElement` (decision 96), so the route that
 * held it renders this around its children.
 */
export function RouteErrorBoundary() {
  const { pathname } = useLocation();
  return (
    <PageErrorBoundary pathname={pathname}>
      <Outlet />
    </PageErrorBoundary>
  );
}
