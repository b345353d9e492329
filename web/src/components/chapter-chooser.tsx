import { Anchor, List, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useSession } from '../session/session-context';
import { PageHeading } from './page-heading';

/** A per-chapter screen reached from the menu: the chapters the caller sees, each a link to `to(id)`. */
export function ChapterChooser({ title, to }: { title: string; to: (id: string) => string }) {
  const { chapters } = useSession();
  return (
    <Stack>
      <PageHeading>{title}</PageHeading>
      {chapters.length === 0 ? (
        <Text c="gray.8">Aucun chapitre pour le moment.</Text>
      ) : (
        <>
          <Text>Choisissez le chapitre :</Text>
          <List>
            {chapters.map((c) => (
              <List.Item key={c._id}>
                <Anchor component={Link} to={to(c._id)}>
                  {c.title}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </>
      )}
    </Stack>
  );
}
