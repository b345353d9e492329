import { Suspense, type ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';

/**
 * A panel loaded as its own file (decisions 117 and 121): while the file arrives, a loader the screen reader names
 * stands in its place, and the rest of the page stays.
 */
export function Later({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <Center py="md">
          <Loader role="status" aria-label="Chargement" />
        </Center>
      }
    >
      {children}
    </Suspense>
  );
}
