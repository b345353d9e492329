import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { Annotation } from '@olympe/contract';
import { newMarkId, type Pending, type Point, type Tool } from './marks';

/** A note being written: a new one (`id` null) pinned at `at` on `page`, or an existing one reworded. */
export interface NoteDraft {
  id: string | null;
  page: number;
  at: Point;
  text: string;
}

/** Undo and redo keep this many steps. */
const HISTORY_MAX = 100;

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** Undo and redo over the list of marks; `current` is the list as last committed (ahead of a render). */
function useUndoable(marks: readonly Annotation[], setMarks: (next: Annotation[]) => void, onStep: () => void) {
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const history = useRef<{ past: Annotation[][]; future: Annotation[][] }>({ past: [], future: [] }).current;
  const current = useRef(marks);
  current.current = marks;
  const stepped = useRef(onStep);
  stepped.current = onStep;

  const commit = useCallback(
    (next: Annotation[]) => {
      history.past = [...history.past, [...current.current]].slice(-HISTORY_MAX);
      history.future = [];
      current.current = next;
      setMarks(next);
      bump();
    },
    [setMarks],
  );
  const step = useCallback(
    (from: 'past' | 'future') => {
      const to = from === 'past' ? 'future' : 'past';
      const target = history[from].at(-1);
      if (!target) return;
      history[from] = history[from].slice(0, -1);
      history[to] = [...history[to], [...current.current]];
      current.current = target;
      setMarks(target);
      stepped.current();
      bump();
    },
    [setMarks],
  );
  const undo = useCallback(() => step('past'), [step]);
  const redo = useCallback(() => step('future'), [step]);
  return { commit, undo, redo, current, canUndo: history.past.length > 0, canRedo: history.future.length > 0 };
}

/** Ctrl+Z, Ctrl+Shift+Z (or Ctrl+Y) and Suppr for the selected mark, outside text fields. */
function useMarkKeys(selected: string | null, undo: () => void, redo: () => void, remove: (id: string) => void) {
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (isTyping(event.target)) return;
      const mod = event.ctrlKey || event.metaKey;
      if (mod && event.key.toLowerCase() === 'z') {
        event.preventDefault();
        if (event.shiftKey) redo();
        else undo();
      } else if (mod && event.key.toLowerCase() === 'y') {
        event.preventDefault();
        redo();
      } else if ((event.key === 'Delete' || event.key === 'Backspace') && selectedRef.current) {
        event.preventDefault();
        remove(selectedRef.current);
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo, remove]);
}

/**
 * The state of the marks on one copy (decision 159): the list itself belongs to the grade editor (`marks`, `setMarks`,
 * saved with the grade); here the tool, the selection, the note being written and undo/redo (Ctrl+Z, Ctrl+Shift+Z;
 * Suppr deletes the selected mark). Shortcuts leave text fields alone: there they undo typing.
 */
export function useMarks(marks: readonly Annotation[], setMarks: (next: Annotation[]) => void) {
  const [tool, setTool] = useState<Tool>('select');
  const [pending, setPending] = useState<Pending | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [note, setNote] = useState<NoteDraft | null>(null);
  const { commit, undo, redo, canUndo, canRedo, current } = useUndoable(marks, setMarks, () => setSelected(null));
  const add = (mark: Annotation) => commit([...current.current, mark]);
  const replace = (mark: Annotation) => commit(current.current.map((m) => (m.id === mark.id ? mark : m)));
  const remove = useCallback(
    (id: string) => {
      commit(current.current.filter((m) => m.id !== id));
      setSelected((s) => (s === id ? null : s));
    },
    [commit],
  );
  /** Saves the note being written (an empty text keeps nothing). */
  const saveNote = (draft: NoteDraft) => {
    const text = draft.text.trim();
    setNote(null);
    if (!text) return;
    if (draft.id) {
      const old = current.current.find((m) => m.id === draft.id);
      if (old?.kind === 'note') replace({ ...old, text });
    } else {
      add({ id: newMarkId(), page: draft.page, kind: 'note', x: draft.at[0], y: draft.at[1], text });
    }
  };

  useMarkKeys(selected, undo, redo, remove);

  return {
    marks,
    tool,
    setTool,
    pending,
    setPending,
    selected,
    setSelected,
    note,
    setNote,
    saveNote,
    add,
    replace,
    remove,
    undo,
    redo,
    canUndo,
    canRedo,
  };
}

export type MarksState = ReturnType<typeof useMarks>;
