import { lazy, Suspense, useState } from 'react';
import { Box, Button, Text } from '@mantine/core';
import type { SessionStateView } from '@olympe/contract';
import { useFinishChapter, useStartChapter } from '../../api/sessions';
import type { AnswerQueue } from '../../answering';
import { WhenIdle } from '../../components/when-idle';
import { FIRST_WARNING_SECONDS, formatDuration, formatRemaining, timeWarning } from './chapter-view';

/**
 * The start and finish dialogs, with Mantine's modal and its scroll area: asked for as soon as the page shows the
 * start button or the running test (they are mounted closed), so they are in when the pupil clicks.
 */
const StartConfirmModal = lazy(() => import('./start-confirm-modal').then((m) => ({ default: m.StartConfirmModal })));
const FinishConfirmModal = lazy(() => import('./finish-confirm-modal').then((m) => ({ default: m.FinishConfirmModal })));

export const START_LABEL = 'Commencer l’épreuve en temps limité';
export const FINISH_LABEL = 'Terminer l’épreuve';
export const UNSENT_BEFORE_FINISH = 'Des réponses n’ont pas encore été envoyées : vérifiez votre connexion, puis terminez l’épreuve.';

/** What this device could not send before a finish: said in the dialog, nothing is finished. */
class UnsentBeforeFinish extends Error {
  constructor() {
    super(UNSENT_BEFORE_FINISH);
  }
}

/** The timed test not started yet: its start button and the dialog that says what starting means. */
export function StartSection(props: { chapterId: string; state: SessionStateView; receivedAt: number; extraTime: string | null }) {
  const { chapterId, state, receivedAt: stateReceivedAt, extraTime } = props;
  const [confirming, setConfirming] = useState(false);
  const start = useStartChapter(chapterId);
  const startNow = () =>
    // docs/product.md#spec-8: a start failure is only logged (the client already showed the server's message).
    start.mutate(undefined, { onError: (error) => console.error(error) });
  return (
    <>
      <Button onClick={() => setConfirming(true)} loading={start.isPending} w="fit-content">
        {START_LABEL}
      </Button>
      {/* Decision 127: a dialog's file comes once the page is drawn and quiet, or at the click that opens it. */}
      <WhenIdle now={confirming}>
        <Suspense fallback={null}>
          <StartConfirmModal
            opened={confirming}
            state={state}
            receivedAt={stateReceivedAt}
            extraTime={extraTime}
            loading={start.isPending}
            onCancel={() => setConfirming(false)}
            onConfirm={() => {
              setConfirming(false);
              startNow();
            }}
          />
        </Suspense>
      </WhenIdle>
    </>
  );
}

/** The running test's finish button and its dialog. */
export function FinishSection(props: {
  chapterId: string;
  userId: string;
  queue: AnswerQueue | null;
  remaining: number;
  onRefused: () => void;
}) {
  const { chapterId, userId, queue, remaining, onRefused } = props;
  const [finishing, setFinishing] = useState(false);
  const [finishError, setFinishError] = useState<string | null>(null);
  const finish = useFinishChapter(chapterId, async () => {
    // The finish takes no grace: what this device still holds is sent first, or nothing is finished.
    if (queue) {
      await queue.flush(userId);
      if (queue.hasPending(userId)) throw new UnsentBeforeFinish();
    }
  });
  const finishNow = () =>
    finish.mutate(undefined, {
      onSuccess: () => setFinishing(false),
      onError: (error) => {
        // The server's refusals are already notified by the client; an unsent answer is said here.
        if (error instanceof UnsentBeforeFinish) return setFinishError(UNSENT_BEFORE_FINISH);
        // Refused (time already up, say): the page shows what the server now says.
        console.error(error);
        setFinishing(false);
        onRefused();
      },
    });
  return (
    <>
      <Button
        color="red.9"
        variant="outline"
        w="fit-content"
        onClick={() => {
          setFinishError(null);
          setFinishing(true);
        }}
      >
        {FINISH_LABEL}
      </Button>
      <WhenIdle now={finishing}>
        <Suspense fallback={null}>
          <FinishConfirmModal
            opened={finishing}
            formatted={formatDuration(remaining)}
            loading={finish.isPending}
            error={finishError}
            onCancel={() => setFinishing(false)}
            onConfirm={finishNow}
          />
        </Suspense>
      </WhenIdle>
    </>
  );
}

/** The time left, and the warnings of its last minutes. */
export function Countdown({ remaining }: { remaining: number }) {
  return (
    // Stays under the header while the pupil scrolls through the exercises (a phone shows one at a time).
    <Box py={4} bg="var(--mantine-color-body)" style={{ position: 'sticky', top: 'var(--app-shell-header-offset, 0rem)', zIndex: 2 }}>
      <Text fw={700} role="timer" aria-live="off" c={remaining <= FIRST_WARNING_SECONDS ? 'red.9' : undefined} data-testid="countdown">
        Temps restant : {formatRemaining(remaining)}
      </Text>
      {/* Mounted with the countdown, empty until 5 minutes are left: its change is announced. */}
      <Text role="alert" fw={700} c="red.9">
        {timeWarning(remaining)}
      </Text>
    </Box>
  );
}
