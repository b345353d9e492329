import { Alert, Button, Center, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { formatGrade, formatParisDateTime, type AnswerHistory, type GradeState } from '@olympe/contract';
import { useDismissPagesAdded, useHistory } from '../../api/grading';
import { MathText } from '../../components/MathText';
import { PdfView } from '../../components/PdfView';
import { paths } from '../../config/paths';
import { TestReturnBar, useTestReturnChapter, withTestReturn } from '../../layout/test-return-bar';
import { PageHeading } from '../../components/page-heading';
import { DeskWorkspace } from './desk-workspace';
import { DeskPanel } from './desk-panel';
import { personName } from './desk';

export const NO_ANSWER = 'Aucune réponse enregistrée.';
const HISTORY_TITLE = 'Historique des réponses';

/** docs/product.md#spec-2 "History" (/history/{uid}/{eid}): the pupil's answers, the grade block, the latest PDF. */
export function HistoryPage() {
  const { uid = '', eid = '' } = useParams();
  // Opened from a running timed test (« Voir la copie », « Historique »): the way back and the time left.
  const testChapter = useTestReturnChapter();
  const query = useHistory(uid, eid);
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
  const name = personName(user);
  const dismiss = useDismissPagesAdded(user._id, exercise);

  return (
    <Stack>
      <PageHeading>
        {name} — {exercise.title}
      </PageHeading>
      {/* Staff read the chapter in the desk panel (a link to its grading table); pupils here. */}
      {history.desk ? null : <Text c="gray.7">{exercise.chapterTitle}</Text>}

      {answers.length === 0 ? <Text>{NO_ANSWER}</Text> : <AnswersTable answers={answers} isPdf={isPdf} testChapter={testChapter} />}

      {/* Double correction: a third corrector on a copy already graded twice only reads it (an admin arbitrates). */}
      {canGrade && result?.answerId && history.desk?.role !== 'done' ? (
        // The desk: statement and grade block come first in the page (first Tab stops, above the copy
        // on a phone); on a wide screen they sit right of the copy.
        <DeskWorkspace
          history={history}
          result={{ ...result, answerId: result.answerId }}
          dismissPagesAdded={{ run: () => dismiss.mutate(result.answerId!), pending: dismiss.isPending }}
        />
      ) : (
        <>
          {history.desk ? <DeskPanel desk={history.desk} exerciseTitle={exercise.title} /> : null}
          {result ? <ReadOnlyResult result={result} /> : null}
          {isPdf && latest ? <PdfView key={latest.answer} path={latest.answer} label="Copie" /> : null}
        </>
      )}
    </Stack>
  );
}

/** The pupil's saved answers, newest first: a PDF opens in the viewer, a short answer is shown as typed. */
function AnswersTable({ answers, isPdf, testChapter }: { answers: AnswerHistory['answers']; isPdf: boolean; testChapter: string | null }) {
  return (
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
                <Button
                  component={Link}
                  to={withTestReturn(paths.viewer(a.answer), testChapter)}
                  size="compact-sm"
                  variant="light"
                  leftSection={<IconEye size={14} aria-hidden="true" />}
                >
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
  );
}

/** docs/product.md#spec-6: a non-member sees the grade ("–" if none) and the comment, read-only. */
function ReadOnlyResult({ result }: { result: GradeState }) {
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2}>Résultat</Title>
        <Text>
          Note : <strong>{result.grade === null ? '–' : formatGrade(result.grade)}</strong>
        </Text>
        {result.grade_comment ? <MathText value={result.grade_comment} label="Commentaire" /> : null}
      </Stack>
    </Paper>
  );
}
