import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { ERRATA_FLAG_TEXT, formatPoints, type ExerciseStats, type VersionStats } from '@olympe/contract';
import { useParams } from 'react-router';
import { useApplyErrata, useChapterStats } from '../../api/stats';
import { ChapterChooser } from '../../components/chapter-chooser';
import { PageHeading } from '../../components/page-heading';
import { TitledLoader } from '../../components/TitledLoader';
import { paths } from '../../config/paths';
import { useSession } from '../../session/session-context';
import { GradeHistogram } from './grade-histogram';

const TITLE = 'Statistiques';
const points = (n: number | null) => (n === null ? '—' : formatPoints(n));

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="sm" c="gray.8">
        {label}
      </Text>
      <Text fw={700} size="lg">
        {value}
      </Text>
    </div>
  );
}

/** The admin's errata: the version's new expected answer, then its automatic correction, in one step. */
function ErrataForm({ chapterId, exerciseId, version }: { chapterId: string; exerciseId: string; version: VersionStats }) {
  const errata = useApplyErrata(chapterId);
  const likely = version.top.find((a) => !a.expected)?.answer ?? '';
  const [answer, setAnswer] = useState(likely);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        errata.mutate({ exerciseId, version: version.version, answer });
      }}
    >
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={`Nouvelle réponse attendue, version ${version.version + 1}`}
          inputMode="decimal"
          value={answer}
          onChange={(e) => setAnswer(e.currentTarget.value)}
          maw={220}
        />
        <Button type="submit" color="orange.9" loading={errata.isPending} disabled={answer.trim() === ''}>
          Remplacer et corriger à nouveau cette version
        </Button>
      </Group>
    </form>
  );
}

function VersionTable({ chapterId, exercise, isAdmin }: { chapterId: string; exercise: ExerciseStats; isAdmin: boolean }) {
  return (
    <Stack gap="sm">
      {exercise.versions.map((v) => (
        <Paper key={v.version} withBorder p="sm" aria-label={`Version ${v.version + 1} de « ${exercise.title} »`} component="section">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Title order={3} size="h5">
              Version {v.version + 1} — réponse attendue : {v.expected === null ? 'aucune' : v.expected.replace('.', ',')} ({v.pupils}{' '}
              réponse{v.pupils > 1 ? 's' : ''})
            </Title>
            {v.flagged && <Badge color="orange.9">{ERRATA_FLAG_TEXT}</Badge>}
          </Group>
          {v.top.length > 0 && (
            <Table mt="xs" maw={420}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Réponse</Table.Th>
                  <Table.Th ta="right">Élèves</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {v.top.map((a) => (
                  <Table.Tr key={a.answer}>
                    <Table.Td>
                      {a.answer}
                      {a.expected ? ' (attendue)' : ''}
                    </Table.Td>
                    <Table.Td ta="right">{a.count}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {isAdmin && v.flagged && <ErrataForm chapterId={chapterId} exerciseId={exercise._id} version={v} />}
        </Paper>
      ))}
    </Stack>
  );
}

/** /stats/{chapterId} (correctors and admins, decision 75): per exercise, the figures, the histogram and, for numeric exercises, the frequent answers. */
export function StatsPage() {
  const { id = '' } = useParams();
  const { roles } = useSession();
  const query = useChapterStats(id);
  if (query.isPending) return <TitledLoader title={TITLE} label="Chargement des statistiques" />;
  if (query.isError) {
    return (
      <Stack>
        <PageHeading>{TITLE}</PageHeading>
        <Alert color="red.9">Les statistiques n’ont pas pu être chargées.</Alert>
      </Stack>
    );
  }
  const { chapter, exercises } = query.data;
  return (
    <Stack>
      <PageHeading>{`${TITLE} — ${chapter.title}`}</PageHeading>
      {exercises.length === 0 && <Text c="gray.8">Ce chapitre n’a pas d’exercice à corriger.</Text>}
      {exercises.map((e) => (
        <Paper key={e._id} withBorder p="md" component="section" aria-labelledby={`stats-${e._id}`}>
          <Stack gap="sm">
            <Title order={2} size="h4" id={`stats-${e._id}`}>
              {e.title} (sur {formatPoints(e.maxPoints)})
            </Title>
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Figure label="Réponses" value={String(e.answered)} />
              <Figure label="Copies notées" value={String(e.graded)} />
              <Figure label="Moyenne" value={points(e.mean)} />
              <Figure label="Médiane" value={points(e.median)} />
            </SimpleGrid>
            {e.distribution.length > 0 && <GradeHistogram exercise={e} />}
            {e.versions.length > 0 && <VersionTable chapterId={chapter._id} exercise={e} isAdmin={roles.isAdmin} />}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** /stats from the menu: which chapter's statistics to open. */
export function StatsChooserPage() {
  return <ChapterChooser title={TITLE} to={paths.stats} />;
}
