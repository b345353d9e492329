import { Button, Stack, Text, Title } from '@mantine/core';
import { useRouteError } from 'react-router';

/** Shown inside the shell when a page crashes or its chunk fails to load (e.g. after a deploy). */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
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
