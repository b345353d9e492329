import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { PageHeading } from '../../components/page-heading';

/** Any unknown URL: a French 404 with a way back. */
export function NotFoundPage() {
  return (
    <Stack>
      <PageHeading>Page introuvable</PageHeading>
      <Text>La page demandée n’existe pas ou a été déplacée.</Text>
      <Anchor component={Link} to={paths.home}>
        Retour à l’accueil
      </Anchor>
    </Stack>
  );
}
