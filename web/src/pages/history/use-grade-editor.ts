import { useCallback, useEffect, useRef, useState } from 'react';
import { gradeAboveMaxMessage, normalizeGrade, type Annotation, type GradeState } from '@olympe/contract';
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
  /** Decision 159: the corrector's marks on the copy, saved with the grade in the same request. */
  annotations: Annotation[];
  /** Decision 160: the ids of the comment-bank remarks applied. */
  bankComments: string[];
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
export const filterGradeInput = (text: string) =>
  text
    .replace(/,/g, '.')
    .replace(/[^0-9.xX]/g, '')
    .toUpperCase()
    .slice(0, 12);

export const formOf = (state: GradeState): GradeForm => ({
  grade: state.grade ?? '',
  comment: state.grade_comment ?? '',
  hidden: !!state.hidden,
  items: state.items ?? [],
  annotations: state.annotations ?? [],
  bankComments: state.bankComments ?? [],
});

const sameItems = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));
const sameMarks = (a: readonly Annotation[], b: readonly Annotation[]) => a === b || JSON.stringify(a) === JSON.stringify(b);
const sameForm = (a: GradeForm, b: GradeForm) =>
  a.grade === b.grade &&
  a.comment === b.comment &&
  a.hidden === b.hidden &&
  sameItems(a.items, b.items) &&
  sameItems(a.bankComments, b.bankComments) &&
  sameMarks(a.annotations, b.annotations);

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

/** What the hook keeps between renders: the form as typed, the version it saves from, what was saved last. */
interface EditorRefs {
  form: GradeForm;
  version: string | null;
  answer: string;
  lastSaved: GradeForm;
  savedOnce: boolean;
  mounted: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
  inFlight: Promise<void> | null;
}

function refsOf(initial: GradeState & { answerId: string }): EditorRefs {
  return {
    form: formOf(initial),
    version: initial.grade_timestamp ?? null,
    answer: initial.answerId,
    lastSaved: formOf(initial),
    savedOnce: false,
    mounted: true,
    timer: undefined,
    inFlight: null,
  };
}

/** The grade to send for the form as typed, or the status that says why nothing is sent. */
function gradeToSend(refs: EditorRefs, maxPoints: number | undefined): { grade: string | null } | { status: SaveStatus } {
  // Typed then undone: back to what the line said before, never « Enregistré » without a save.
  if (sameForm(refs.form, refs.lastSaved)) return { status: refs.savedOnce ? 'saved' : 'idle' };
  const grade = normalizeGrade(refs.form.grade);
  if (grade === undefined) return { status: 'invalid' };
  if (isAboveMax(grade, maxPoints)) return { status: 'aboveMax' };
  return { grade };
}

interface EditorView {
  setForm: (form: GradeForm) => void;
  setStatus: (status: SaveStatus) => void;
  setSavedOnce: (saved: boolean) => void;
  setConflict: (message: string | null) => void;
}

/** One save of `snapshot`; a 409 replaces the form with the state another corrector saved, and says so. */
async function sendGrade(
  refs: EditorRefs,
  ui: EditorView,
  save: (body: GradeSave) => Promise<GradeSaveOutcome>,
  snapshot: GradeForm,
  grade: string | null,
) {
  try {
    const outcome = await save({
      answerId: refs.answer,
      grade,
      grade_comment: snapshot.comment,
      hidden: snapshot.hidden,
      expectedGradeTimestamp: refs.version,
      items: snapshot.items,
      annotations: snapshot.annotations,
      bankComments: snapshot.bankComments,
    });
    if (outcome.ok) {
      refs.version = outcome.saved.grade_timestamp;
      refs.lastSaved = snapshot;
      refs.savedOnce = true;
      if (!refs.mounted) return;
      ui.setSavedOnce(true);
      ui.setConflict(null);
      ui.setStatus(sameForm(refs.form, snapshot) ? 'saved' : 'dirty');
    } else {
      const current = outcome.conflict.current;
      refs.answer = current.answerId;
      refs.version = current.grade_timestamp ?? null;
      const shownForm = formOf(current);
      refs.lastSaved = shownForm;
      refs.form = shownForm;
      showNotice(`Erreur : ${outcome.conflict.message}`, 'red');
      if (!refs.mounted) return;
      clearTimeout(refs.timer);
      ui.setForm(shownForm);
      ui.setConflict(outcome.conflict.message);
      ui.setStatus('conflict');
    }
  } catch (error) {
    console.error(error);
    showNotice('Erreur : la note n’a pas été enregistrée.', 'red');
    if (refs.mounted) ui.setStatus('error');
  }
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
  const [conflict, setConflict] = useState<string | null>(null);
  const refs = useRef<EditorRefs>(refsOf(initial)).current;

  const run = useCallback(async (): Promise<void> => {
    if (refs.inFlight) {
      await refs.inFlight;
      return run();
    }
    const snapshot = refs.form;
    const checked = gradeToSend(refs, maxPoints);
    if ('status' in checked) {
      if (refs.mounted) setStatus(checked.status);
      return;
    }
    if (refs.mounted) setStatus('saving');
    const attempt = sendGrade(refs, { setForm, setStatus, setSavedOnce, setConflict }, save, snapshot, checked.grade);
    refs.inFlight = attempt;
    try {
      await attempt;
    } finally {
      refs.inFlight = null;
    }
    // Edits made during the save go out next.
    if (refs.mounted && !sameForm(refs.form, refs.lastSaved)) schedule();
  }, [save, maxPoints]);

  const schedule = useCallback(() => {
    clearTimeout(refs.timer);
    refs.timer = setTimeout(() => void run(), GRADE_SAVE_DEBOUNCE_MS);
  }, [run]);

  const edit = useCallback(
    (patch: Partial<GradeForm>) => {
      const next = { ...refs.form, ...patch };
      refs.form = next;
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
    clearTimeout(refs.timer);
    await run();
    return refs.savedOnce && sameForm(refs.form, refs.lastSaved);
  }, [run]);

  useEffect(() => {
    refs.mounted = true;
    return () => {
      refs.mounted = false;
      clearTimeout(refs.timer);
      // Leaving the page must not lose the last keystrokes.
      if (!sameForm(refs.form, refs.lastSaved)) void run();
    };
  }, [run]);

  return { form, status, savedOnce, conflict, edit, flush };
}

export type GradeEditor = ReturnType<typeof useGradeEditor>;
