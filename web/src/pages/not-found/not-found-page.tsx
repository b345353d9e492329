import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../config/paths';

/** Any unknown URL: a French 404 with a way back. */
export function NotFoundPage() {
  return (
    <Stack>
      <Title order={1}>Page introuvable</Title>
      <Text>La page demandée n'existe pas ou a été déplacée.</Text>
      <Anchor component={Link} to={paths.home}>
        Retour à l'accueil
      </Anchor>
    </Stack>
  );
}
