import { useCallback, useEffect, useRef, useState } from 'react';
import { gradeAboveMaxMessage, normalizeGrade, type GradeState } from '@olympe/contract';
import type { GradeSave } from '@olympe/contract';
import { saveGrade as defaultSave, type GradeSaveOutcome } from '../../api/grading';
import { showNotice } from '../../api/notify';

/** docs/product.md#spec-4/§9: a grade is saved 500 ms after the last edit. */
export const GRADE_SAVE_DEBOUNCE_MS = 500;

export interface GradeForm {
  grade: string;
  comment: string;
  hidden: boolean;
  /** Ids of the marking-scheme items ticked (decision 65), stored with the grade. */
  items: string[];
}

export type SaveStatus = 'idle' | 'saved' | 'dirty' | 'saving' | 'invalid' | 'aboveMax' | 'error' | 'conflict';

/** What the status line says before any save of this copy (decision 65: never « Enregistré » yet). */
export const UNGRADED_TEXT = 'Non corrigé';

export const STATUS_TEXT: Record<SaveStatus, string> = {
  // Before a save: « Non corrigé » for a copy without a grade, nothing for one graded earlier.
  idle: '',
  saved: 'Enregistré',
  dirty: 'Modifications en attente…',
  saving: 'Enregistrement…',
  invalid: 'Note invalide : chiffres et point, ou X.',
  aboveMax: 'Note trop élevée pour cet exercice.',
  error: 'Échec de l’enregistrement : nouvel essai à la prochaine modification.',
  conflict: 'Copie modifiée par un autre correcteur : sa version est affichée.',
};

/** docs/product.md#spec-5: the grade field takes digits and the dot (and X for an excused or blank copy). */
export const filterGradeInput = (text: string) => text.replace(/,/g, '.').replace(/[^0-9.xX]/g, '').toUpperCase().slice(0, 12);

export const formOf = (state: GradeState): GradeForm => ({
  grade: state.grade ?? '',
  comment: state.grade_comment ?? '',
  hidden: !!state.hidden,
  items: state.items ?? [],
});

const sameItems = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));
const sameForm = (a: GradeForm, b: GradeForm) =>
  a.grade === b.grade && a.comment === b.comment && a.hidden === b.hidden && sameItems(a.items, b.items);

/** Decision 65: a number above the exercise's maximum is refused here as by the server (X always passes). */
export function isAboveMax(grade: string | null, maxPoints: number | undefined): boolean {
  if (grade === null || grade === 'X' || maxPoints === undefined) return false;
  return Number(grade) > maxPoints + 1e-9;
}

/** The line under the grade field when it is refused. */
export function invalidGradeText(status: SaveStatus, maxPoints: number | undefined): string | undefined {
  if (status === 'invalid') return STATUS_TEXT.invalid;
  if (status === 'aboveMax') return maxPoints === undefined ? STATUS_TEXT.aboveMax : gradeAboveMaxMessage(maxPoints);
  return undefined;
}

/**
 * The editable grade block: each edit is saved 500 ms later; saves never overlap (the next one
 * starts from the version the previous one returned). A 409 replaces the form with the state
 * another corrector saved, and says so. Pending edits are flushed on `flush()` and on unmount.
 */
export function useGradeEditor(
  initial: GradeState & { answerId: string },
  save: (body: GradeSave) => Promise<GradeSaveOutcome> = defaultSave,
  maxPoints?: number,
) {
  const [form, setForm] = useState<GradeForm>(() => formOf(initial));
  // « Enregistré » only once a save of this copy succeeded: an untouched copy starts idle.
  const [status, setStatus] = useState<SaveStatus>('idle');
  const [savedOnce, setSavedOnce] = useState(false);
  const savedOnceRef = useRef(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const formRef = useRef(form);
  const versionRef = useRef<string | null>(initial.grade_timestamp ?? null);
  const answerRef = useRef(initial.answerId);
  const lastSavedRef = useRef<GradeForm>(formOf(initial));
  const timerRef = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlightRef = useRef<Promise<void> | null>(null);
  const mountedRef = useRef(true);

  const run = useCallback(async (): Promise<void> => {
    if (inFlightRef.current) {
      await inFlightRef.current;
      return run();
    }
    const snapshot = formRef.current;
    if (sameForm(snapshot, lastSavedRef.current)) {
      // Typed then undone: back to what the line said before, never « Enregistré » without a save.
      if (mountedRef.current) setStatus(savedOnceRef.current ? 'saved' : 'idle');
      return;
    }
    const grade = normalizeGrade(snapshot.grade);
    if (grade === undefined) {
      if (mountedRef.current) setStatus('invalid');
      return;
    }
    if (isAboveMax(grade, maxPoints)) {
      if (mountedRef.current) setStatus('aboveMax');
      return;
    }
    if (mountedRef.current) setStatus('saving');
    const attempt = (async () => {
      try {
        const outcome = await save({
          answerId: answerRef.current,
          grade,
          grade_comment: snapshot.comment,
          hidden: snapshot.hidden,
          expectedGradeTimestamp: versionRef.current,
          items: snapshot.items,
        });
        if (outcome.ok) {
          versionRef.current = outcome.saved.grade_timestamp;
          lastSavedRef.current = snapshot;
          savedOnceRef.current = true;
          if (!mountedRef.current) return;
          setSavedOnce(true);
          setConflict(null);
          setStatus(sameForm(formRef.current, snapshot) ? 'saved' : 'dirty');
        } else {
          const current = outcome.conflict.current;
          answerRef.current = current.answerId;
          versionRef.current = current.grade_timestamp ?? null;
          const shownForm = formOf(current);
          lastSavedRef.current = shownForm;
          formRef.current = shownForm;
          showNotice(`Erreur : ${outcome.conflict.message}`, 'red');
          if (!mountedRef.current) return;
          clearTimeout(timerRef.current);
          setForm(shownForm);
          setConflict(outcome.conflict.message);
          setStatus('conflict');
        }
      } catch (error) {
        console.error(error);
        showNotice('Erreur : la note n’a pas été enregistrée.', 'red');
        if (mountedRef.current) setStatus('error');
      }
    })();
    inFlightRef.current = attempt;
    try {
      await attempt;
    } finally {
      inFlightRef.current = null;
    }
    // Edits made during the save go out next.
    if (mountedRef.current && !sameForm(formRef.current, lastSavedRef.current)) schedule();
  }, [save, maxPoints]);

  const schedule = useCallback(() => {
    clearTimeout(timerRef.current);
    timerRef.current = setTimeout(() => void run(), GRADE_SAVE_DEBOUNCE_MS);
  }, [run]);

  const edit = useCallback(
    (patch: Partial<GradeForm>) => {
      const next = { ...formRef.current, ...patch };
      formRef.current = next;
      setForm(next);
      setStatus('dirty');
      schedule();
    },
    [schedule],
  );

  /**
   * Saves now what is pending (before leaving for the next copy); true when the copy's grade is
   * stored, i.e. a save of this copy succeeded and nothing is left unsaved.
   */
  const flush = useCallback(async (): Promise<boolean> => {
    clearTimeout(timerRef.current);
    await run();
    return savedOnceRef.current && sameForm(formRef.current, lastSavedRef.current);
  }, [run]);

  useEffect(() => {
    mountedRef.current = true;
    return () => {
      mountedRef.current = false;
      clearTimeout(timerRef.current);
      // Leaving the page must not lose the last keystrokes.
      if (!sameForm(formRef.current, lastSavedRef.current)) void run();
    };
  }, [run]);

  return { form, status, savedOnce, conflict, edit, flush };
}
