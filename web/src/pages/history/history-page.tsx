import { useState } from 'react';
import { Alert, Button, Center, Checkbox, Group, Loader, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconArrowRight, IconCheck, IconEye } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { formatParisDateTime, type AnswerHistory, type GradeState } from '@olympe/contract';
import { fetchHistory, gradingKeys, relabelAnswer, selectNextAnswer } from '../../api/grading';
import { MathText } from '../../components/MathText';
import { PdfView } from '../../components/PdfView';
import { paths } from '../../config/paths';
import { useSession } from '../../session/session-context';
import { TestReturnBar, useTestReturnChapter, withTestReturn } from '../../layout/test-return-bar';
import { filterGradeInput, STATUS_TEXT, useGradeEditor } from './use-grade-editor';
import { PageHeading } from '../../components/page-heading';

export const NO_ANSWER = 'Aucune réponse enregistrée.';
const HISTORY_TITLE = 'Historique des réponses';

/** SPEC §2 "History" (/history/{uid}/{eid}): the pupil's answers, the grade block, the latest PDF. */
export function HistoryPage() {
  const { uid = '', eid = '' } = useParams();
  // Opened from a running timed test (« Voir la copie », « Historique »): the way back and the time left.
  const testChapter = useTestReturnChapter();
  const query = useQuery({ queryKey: gradingKeys.history(uid, eid), queryFn: () => fetchHistory(uid, eid), enabled: !!uid && !!eid });
  const returnBar = testChapter ? <TestReturnBar chapterId={testChapter} /> : null;
  if (query.isPending) {
    return (
      <Stack>
        {returnBar}
        <PageHeading>{HISTORY_TITLE}</PageHeading>
        <Center py="xl">
          <Loader role="status" aria-label="Chargement de l’historique" />
        </Center>
      </Stack>
    );
  }
  if (query.isError) {
    return (
      <Stack>
        {returnBar}
        <PageHeading>{HISTORY_TITLE}</PageHeading>
        <Alert color="red">Impossible de charger cet historique.</Alert>
      </Stack>
    );
  }
  // Keyed by the copy: the next copy starts with a fresh grade block.
  return (
    <Stack>
      {returnBar}
      <HistoryView key={`${uid}/${eid}`} history={query.data} testChapter={testChapter} />
    </Stack>
  );
}

function HistoryView({ history, testChapter }: { history: AnswerHistory; testChapter: string | null }) {
  const { user, exercise, answers, result, canGrade } = history;
  const isPdf = exercise.answerFormat === 'pdf';
  const latest = answers[0];
  const name = `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim();

  return (
    <Stack>
      <PageHeading>
        {name} — {exercise.title}
      </PageHeading>
      <Text c="gray.7">{exercise.chapterTitle}</Text>

      {answers.length === 0 ? (
        <Text>{NO_ANSWER}</Text>
      ) : (
        <Table striped aria-label="Réponses enregistrées" maw={640}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Th>Réponse</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {answers.map((a) => (
              <Table.Tr key={a._id}>
                <Table.Td>{formatParisDateTime(a.timestamp)}</Table.Td>
                <Table.Td>
                  {isPdf ? (
                    <Button component={Link} to={withTestReturn(paths.viewer(a.answer), testChapter)} size="compact-sm" variant="light" leftSection={<IconEye size={14} aria-hidden="true" />}>
                      Visualiser
                    </Button>
                  ) : (
                    <Text span ff="monospace">
                      {a.answer}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      {canGrade && result?.answerId ? (
        <GradeBlock initial={{ ...result, answerId: result.answerId }} history={history} />
      ) : result ? (
        <ReadOnlyResult result={result} />
      ) : null}

      {isPdf && latest ? <PdfView key={latest.answer} path={latest.answer} label="Copie" /> : null}
    </Stack>
  );
}

/** SPEC §6: a non-member sees the grade ("–" if none) and the comment, read-only. */
function ReadOnlyResult({ result }: { result: GradeState }) {
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2}>Résultat</Title>
        <Text>
          Note : <strong>{result.grade ?? '–'}</strong>
        </Text>
        {result.grade_comment ? <MathText value={result.grade_comment} label="Commentaire" /> : null}
      </Stack>
    </Paper>
  );
}

function GradeBlock({ initial, history }: { initial: GradeState & { answerId: string }; history: AnswerHistory }) {
  const { roles } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { form, status, savedOnce, conflict, edit, flush } = useGradeEditor(initial);
  const [moving, setMoving] = useState(false);
  const { exercise } = history;

  async function nextCopy() {
    setMoving(true);
    try {
      await flush();
      // The table behind must show the new grade when the corrector goes back.
      void queryClient.invalidateQueries({ queryKey: gradingKeys.table(exercise.chapter) });
      const next = await selectNextAnswer(exercise._id);
      if (next.url) navigate(`/history/${next.url}`);
    } catch (error) {
      console.error(error);
    } finally {
      setMoving(false);
    }
  }

  async function sendBackToSorting() {
    if (!window.confirm('Remettre cette copie au triage ? Elle quittera le tableau de correction.')) return;
    try {
      await relabelAnswer(initial.answerId);
      void queryClient.invalidateQueries({ queryKey: gradingKeys.table(exercise.chapter) });
      navigate(paths.grader(exercise.chapter));
    } catch (error) {
      console.error(error);
    }
  }

  // Mantine's green.9 on white is below 4.5:1 for small text (axe): the word stays dark, the tick is green.
  const statusColor = status === 'invalid' || status === 'error' || status === 'conflict' ? 'red.9' : 'gray.8';
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2}>Résultat</Title>
        {conflict ? <Alert color="red">{conflict}</Alert> : null}
        <Group align="flex-end">
          <TextInput
            label="Note"
            description="Chiffres et point, ou X (copie blanche ou excusée)"
            value={form.grade}
            inputMode="decimal"
            onChange={(e) => edit({ grade: filterGradeInput(e.currentTarget.value) })}
            w={220}
            error={status === 'invalid' ? STATUS_TEXT.invalid : undefined}
          />
          <Checkbox label="Cacher la copie" checked={form.hidden} onChange={(e) => edit({ hidden: e.currentTarget.checked })} mb={6} />
        </Group>
        <MathText
          value={form.comment}
          label="Commentaire général"
          placeholder="Cliquez pour écrire un commentaire…"
          onChange={(comment) => edit({ comment })}
        />
        <Group justify="space-between">
          <Text size="sm" c={statusColor} role="status" aria-live="polite">
            {status === 'saved' ? <IconCheck size={14} aria-hidden="true" color="var(--mantine-color-green-8)" style={{ verticalAlign: 'middle' }} /> : null} {STATUS_TEXT[status]}
          </Text>
          <Group gap="sm">
            {roles.isAdmin && exercise.answerFormat === 'pdf' ? (
              <Button variant="light" color="orange" onClick={sendBackToSorting}>
                Remettre au triage
              </Button>
            ) : null}
            {savedOnce ? (
              <Button onClick={nextCopy} loading={moving} rightSection={<IconArrowRight size={16} aria-hidden="true" />}>
                Copie suivante
              </Button>
            ) : null}
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}
