import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useNextCopy } from '../../api/grading';
import { isNextCopyShortcut } from './desk-keys';

/** Said when the shortcut is pressed on a copy not graded yet. */
export const GRADE_FIRST_TEXT = 'Saisissez une note avant de passer à la copie suivante.';

/** The router state a « Copie suivante » carries: the next copy opens with the grade field focused. */
interface DeskState {
  fromDesk?: boolean;
}

/** Whether this copy was opened by « Copie suivante »: the grade field then takes the focus. */
export const arrivedFromDesk = (state: unknown) => !!(state as DeskState | null)?.fromDesk;

/**
 * « Copie suivante » (and Ctrl + Entrée anywhere on the page): saves what is pending, then opens the next copy
 * of the exercise; a copy without a grade stays, with a hint.
 */
export function useNextCopyMove(chapterId: string, exerciseId: string, flush: () => Promise<boolean>) {
  const navigate = useNavigate();
  const [moving, setMoving] = useState(false);
  const [hint, setHint] = useState<string | null>(null);
  const openNext = useNextCopy(chapterId);

  async function nextCopy() {
    if (moving) return;
    setMoving(true);
    setHint(null);
    try {
      const stored = await flush();
      if (!stored) {
        setHint(GRADE_FIRST_TEXT);
        return;
      }
      const next = await openNext(exerciseId);
      // Without a url the server's message (nothing left to grade) is already shown.
      if (next.url) navigate(`/history/${next.url}`, { state: { fromDesk: true } satisfies DeskState });
    } catch (error) {
      console.error(error);
    } finally {
      setMoving(false);
    }
  }

  const nextRef = useRef(nextCopy);
  nextRef.current = nextCopy;

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (!isNextCopyShortcut(event)) return;
      event.preventDefault();
      // An open comment commits on blur: leave it first so its text is saved with the grade.
      if (document.activeElement instanceof HTMLTextAreaElement) document.activeElement.blur();
      void nextRef.current();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return { moving, hint, nextCopy };
}
