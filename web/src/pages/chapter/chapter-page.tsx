import { lazy, useCallback, useDeferredValue, useEffect, useMemo } from 'react';
import { Alert, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { ChapterPage as ChapterPageData, MyAnswer } from '@olympe/contract';
import { useParams } from 'react-router';
import { useMyAnswers } from '../../api/answers';
import { useChapterPage } from '../../api/exercises';
import { sendFocusEvent, useReloadChapter, useSessionState } from '../../api/sessions';
import { useServerCountdown } from '../../hooks/use-server-countdown';
import { useAnswerQueue, type AnswerQueue } from '../../answering';
import { useSession } from '../../session/session-context';
import { availabilityText, chapterView, extraTimeText, isHiddenInAnalysis, totalScore, totalText } from './chapter-view';
import { ExerciseCard } from './exercise-card';
import { PaperPanel } from './paper/paper-panel';
import { Countdown, FinishSection, StartSection } from './test-controls';
import { RichText } from './rich-text';
import { PageHeading } from '../../components/page-heading';
import { LoginRequired } from '../../components/login-gate';
import { Later } from '../../components/later';

/**
 * Decision 121: what a chapter shows only after its test (the results card, the school's results, the regrade
 * requests with their exercise picker, the receipt) comes in files of their own, when shown: the picker alone
 * brought Mantine's combobox, popover and floating-ui into the file every pupil downloads to take the test.
 */
const PupilResults = lazy(() => import('./results-panel').then((m) => ({ default: m.PupilResults })));
const SchoolResults = lazy(() => import('./results-panel').then((m) => ({ default: m.SchoolResults })));
const RegradePanel = lazy(() => import('./regrade-panel').then((m) => ({ default: m.RegradePanel })));
const ReceiptPanel = lazy(() => import('./receipt-panel').then((m) => ({ default: m.ReceiptPanel })));

export const LOGIN_REQUIRED = 'Vous devez vous connecter pour avoir accès au contenu.';
export const ENDED = 'L’épreuve est terminée. Les résultats seront bientôt publiés sur cette page.';
export const FINISHED =
  'Vous avez terminé l’épreuve : vos réponses ne peuvent plus être modifiées. Les résultats seront publiés sur cette page.';
export const NOT_YET = 'L’épreuve n’est pas encore disponible.';

/** docs/product.md#spec-2 "Chapter page" (/chapter/{id}): the online test, its countdown, and its results once published. */
export function ChapterPage() {
  const { id = '' } = useParams();
  const session = useSession();
  if (!session.token) return <LoginRequired message={LOGIN_REQUIRED} />;
  if (!session.user) {
    // Also what a pupil sees after reloading during a network cut: her queued answers wait on this device.
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" aria-hidden="true" />
        <Text>Connexion au serveur… Les réponses non envoyées restent gardées sur cet appareil.</Text>
      </Group>
    );
  }
  return <ChapterContent key={id} chapterId={id} userId={session.user._id} extraTimePercent={session.user.extraTimePercent ?? 0} />;
}

export { UNSENT_BEFORE_FINISH } from './test-controls';

function ChapterContent({ chapterId, userId, extraTimePercent }: { chapterId: string; userId: string; extraTimePercent: number }) {
  const queue = useAnswerQueue(userId);
  const stateQuery = useSessionState(chapterId);
  const pageQuery = useChapterPage(chapterId);
  // Decision 122: what the server sends is drawn by a deferred render, which React cuts into slices of a few
  // milliseconds, not in the task that received it (a query's answer re-renders its readers synchronously): a
  // phone answers a tap between two exercise cards instead of after all of them. The values deferred together
  // come together (one render), so the page never mixes an old state with a new time of receipt.
  const state = useDeferredValue(stateQuery.data);
  const stateReceivedAt = useDeferredValue(stateQuery.dataUpdatedAt);
  const page = useDeferredValue(pageQuery.data);
  const view = state && page ? chapterView({ ...page, status: state.status, remainingTime: state.remainingTime }) : null;
  // docs/product.md#spec-4: saved answers are loaded with the exercises, only when they are shown.
  const { answersQuery, savedAnswers, answersLoading } = useSavedAnswers(
    chapterId,
    view === 'exercises' && (page?.exercises.length ?? 0) > 0,
  );

  const reloadChapter = useReloadChapter(chapterId);
  const reload = useCallback(() => void reloadChapter(), [reloadChapter]);
  const remaining = useServerCountdown(state, stateReceivedAt, reload);
  useFocusTracking(chapterId, !!state?.timed && state.status === 'started' && remaining !== null && remaining > 0);

  if (stateQuery.isError || pageQuery.isError) {
    return <Text>{serverMessage(stateQuery.error ?? pageQuery.error) ?? 'Ce chapitre n’est pas accessible.'}</Text>;
  }
  if (!state || !page || !view) return <Loader aria-label="Chargement" />;

  const availability = availabilityText(state.accessStart, state.accessEnd);
  const answers = savedAnswers ?? [];
  const extraTime = state.timed ? extraTimeText(extraTimePercent) : null;
  const running = view === 'exercises' && state.timed && state.status === 'started' && remaining !== null && remaining > 0;
  // Time up or finished, in a timed test the pupil took: their receipt (decision 44).
  const showReceipt = view === 'ended' && state.timed && state.startedAt !== null && !page.offline;
  const testChapter = running ? chapterId : null;
  return (
    <Stack>
      <PageHeading>{page.title}</PageHeading>
      {page.headerStudents.trim() !== '' && (
        <Paper withBorder p="md" component="section" aria-labelledby="general-instructions">
          <Title order={2} size="h3" id="general-instructions">
            Instructions générales
          </Title>
          <RichText content={page.headerStudents} html={page.headerStudentsHtml} label="Instructions générales" />
        </Paper>
      )}
      {/* Decision 139: a pupil who did not take part (no answer at all) is given no « 0 / 8 ». */}
      {page.analysis && answers.length > 0 && (
        <Text fw={700}>Score total : {totalText(totalScore(page.exercises, answers), page.maxTotal)}</Text>
      )}
      {page.analysis && <PublishedResults chapterId={chapterId} title={page.title} />}
      {remaining !== null && remaining > 0 && <Countdown remaining={remaining} />}
      {availability && <Text>{availability}</Text>}
      {extraTime && <Text data-testid="extra-time">{extraTime}</Text>}
      {queue && <RefusedAnswers queue={queue} userId={userId} page={page} />}
      {view === 'paper' && <PaperPanel chapterId={chapterId} userId={userId} />}
      {view === 'ended' && <Text>{state.finishedAt ? FINISHED : ENDED}</Text>}
      {showReceipt && (
        <Later>
          <ReceiptPanel chapterId={chapterId} />
        </Later>
      )}
      {view === 'before' && <Text>{NOT_YET}</Text>}
      {view === 'pending' && <StartSection chapterId={chapterId} state={state} receivedAt={stateReceivedAt} extraTime={extraTime} />}
      {view === 'exercises' && queue && (
        <ExerciseList
          page={page}
          answers={answers}
          loading={answersLoading}
          userId={userId}
          queue={queue}
          testChapter={testChapter}
          onUploaded={() => void answersQuery.refetch()}
        />
      )}
      {running && <FinishSection chapterId={chapterId} userId={userId} queue={queue} remaining={remaining} onRefused={reload} />}
    </Stack>
  );
}

function ExerciseList(props: {
  page: ChapterPageData;
  answers: MyAnswer[];
  loading: boolean;
  userId: string;
  queue: AnswerQueue;
  /** The running timed test, when there is one: history and copy links keep the pupil in it. */
  testChapter: string | null;
  onUploaded: () => void;
}) {
  const { page, answers, loading, userId, queue, testChapter, onUploaded } = props;
  const byExercise = useMemo(() => new Map(answers.map((a) => [a.exercise, a])), [answers]);
  // Inputs are created once the saved answers are known, so they start from the stored value.
  if (loading) return <Loader aria-label="Chargement des réponses" />;
  const shown = page.exercises.filter((e) => !(page.analysis && isHiddenInAnalysis(e.statement, byExercise.get(e._id))));
  return (
    <Stack>
      {shown.map((exercise) => (
        <ExerciseCard
          key={exercise._id}
          exercise={exercise}
          answer={byExercise.get(exercise._id)}
          analysis={page.analysis}
          scored={answers.length > 0}
          userId={userId}
          queue={queue}
          testChapter={testChapter}
          onUploaded={onUploaded}
        />
      ))}
    </Stack>
  );
}

function serverMessage(error: unknown): string | null {
  const message = (error as { response?: { data?: { message?: unknown } } } | null)?.response?.data?.message;
  return typeof message === 'string' ? message : null;
}

/** docs/product.md#design-3/§4: an answer the server refused for good (deadline passed) is said clearly, by exercise. */
function RefusedAnswers({ queue, userId, page }: { queue: AnswerQueue; userId: string; page: ChapterPageData }) {
  const refused = page.exercises
    .map((e) => ({ title: e.title, state: queue.stateOf(userId, e._id) }))
    .filter((r) => r.state.kind === 'refused');
  if (refused.length === 0) return null;
  return (
    <Alert color="red" title="Réponses non enregistrées" role="alert">
      {refused.map((r) => (
        <Text key={r.title} size="sm">
          {r.title} : {r.state.kind === 'refused' ? r.state.message : ''}
        </Text>
      ))}
    </Alert>
  );
}

/** docs/product.md#spec-4: while the chapter is timed, started and time remains, window focus and blur are reported. */
function useFocusTracking(chapterId: string, active: boolean) {
  useEffect(() => {
    if (!active) return;
    const report = (eventType: 'focus' | 'blur') => () => {
      // docs/product.md#spec-8: a failed report is only logged.
      sendFocusEvent(chapterId, eventType).catch((error: unknown) => console.error(error));
    };
    const onFocus = report('focus');
    const onBlur = report('blur');
    window.addEventListener('focus', onFocus);
    window.addEventListener('blur', onBlur);
    return () => {
      window.removeEventListener('focus', onFocus);
      window.removeEventListener('blur', onBlur);
    };
  }, [chapterId, active]);
}

/** The pupil's saved answers, read when `enabled`; `answersLoading` until the deferred render that brings them. */
function useSavedAnswers(chapterId: string, enabled: boolean) {
  const answersQuery = useMyAnswers(chapterId, enabled);
  const savedAnswers = useDeferredValue(answersQuery.data);
  // Inputs start from the stored answers: the list waits while they are on their way and until the deferred
  // render that brings them, never showing empty inputs for a frame.
  const answersLoading =
    (answersQuery.isPending && answersQuery.fetchStatus !== 'idle') || (answersQuery.data !== undefined && savedAnswers === undefined);
  return { answersQuery, savedAnswers, answersLoading };
}

/** Once the results are published. */
function PublishedResults({ chapterId, title }: { chapterId: string; title: string }) {
  const { roles } = useSession();
  const isStaff = roles.isAdmin || roles.isMember || roles.isTeacher;
  const isTeacher = roles.isTeacher && !roles.isAdmin;
  return (
    <>
      {/* Decisions 70–72: once published, the pupil's results card and certificate; school staff their pupils' results. */}
      {!isStaff && (
        <Later>
          <PupilResults chapterId={chapterId} title={title} />
        </Later>
      )}
      {isTeacher && (
        <Later>
          <SchoolResults chapterId={chapterId} title={title} />
        </Later>
      )}
      <Later>
        <RegradePanel chapterId={chapterId} />
      </Later>
    </>
  );
}
