import { Alert, Anchor, Button, Card, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useChaptersWork } from '../../api/grading';
import { PageHeading } from '../../components/page-heading';
import { paths } from '../../config/paths';
import { WRAP_AT_SPACES } from '../../lib/wrap-at-spaces';
import { useSession } from '../../session/session-context';
import { chapterToGrade, waitingText } from './to-grade';

/**
 * « À corriger » (decision 141): the chapters with copies waiting for the caller, and in each the exercises that are
 * theirs to grade, with a link to the chapter's grading table. Reached from the menu's « Corriger ».
 */
export function ToGradePage() {
  const { chapters, user, roles } = useSession();
  const work = useChaptersWork(
    chapters.map((c) => c._id),
    roles.isAdmin,
  );
  const me = { userId: user?._id ?? '', isAdmin: roles.isAdmin };
  const todo = work.flatMap((w) => {
    // Not before the assignments: a chapter would show, for a moment, exercises that are another corrector's.
    const chapter = w.header && !w.pending && chapterToGrade(w.header, w.assignments, me);
    return chapter ? [chapter] : [];
  });
  const pending = work.some((w) => w.pending);
  const failed = work.filter((w) => w.failed).length;

  return (
    <Stack maw={760}>
      <PageHeading>À corriger</PageHeading>
      <Text>Les chapitres dont des copies attendent votre correction, et dans chacun les exercices qui vous reviennent.</Text>
      {failed > 0 && (
        <Alert color="red" variant="light" role="alert">
          <Text size="sm" c="dark.9">
            {failed > 1 ? `${failed} chapitres n’ont pas pu être chargés.` : 'Un chapitre n’a pas pu être chargé.'} Rechargez la page.
          </Text>
        </Alert>
      )}
      {todo.map((chapter) => (
        <Card key={chapter.chapterId} withBorder component="section" aria-labelledby={`to-grade-${chapter.chapterId}`}>
          <Group justify="space-between" align="flex-start" wrap="wrap">
            <Title order={2} size="h4" id={`to-grade-${chapter.chapterId}`} lang="fr" style={WRAP_AT_SPACES}>
              {chapter.title}
            </Title>
            <Button component={Link} to={paths.grader(chapter.chapterId)} size="sm">
              Corriger
            </Button>
          </Group>
          <Text size="sm" c="dark.9" mt={4}>
            {waitingText(chapter.waiting)}
          </Text>
          <List mt="xs" size="sm">
            {chapter.exercises.map((e) => (
              <List.Item key={e.exerciseId}>
                {e.title} : {waitingText(e.waiting)}
              </List.Item>
            ))}
          </List>
        </Card>
      ))}
      {pending ? (
        <Group gap="xs" role="status">
          <Loader size="sm" aria-hidden />
          <Text size="sm">Chargement des chapitres…</Text>
        </Group>
      ) : (
        todo.length === 0 &&
        failed === 0 && (
          <Text c="gray.8">
            Rien à corriger pour le moment. Tous les chapitres restent accessibles depuis le menu, ou la{' '}
            <Anchor component={Link} to={paths.home}>
              page d’accueil
            </Anchor>
            .
          </Text>
        )
      )}
    </Stack>
  );
}
