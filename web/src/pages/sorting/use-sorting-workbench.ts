import { useCallback, useEffect, useReducer, useRef, useState, type KeyboardEvent } from 'react';
import type { SortingPupil, SortingSelection } from '@olympe/contract';
import { useLabelCopy } from '../../api/sorting';
import type { PupilPickerHandle } from './pupil-picker';
import { buildLabels, commandForKey, initSorting, sortingReducer, type KeyTarget } from './sorting-state';

function targetOf(element: EventTarget | null): KeyTarget | null {
  if (!(element instanceof HTMLElement)) return null;
  return {
    tagName: element.tagName,
    type: element instanceof HTMLInputElement ? element.type : undefined,
    role: element.getAttribute('role'),
    isContentEditable: element.isContentEditable,
  };
}

/**
 * One copy being sorted: the pages' choices, the pupils met so far, the save (all pages labelled, else the first
 * page left says what is missing) and the keyboard shortcuts of the workbench.
 */
export function useSortingWorkbench(chapterId: string, selection: NonNullable<SortingSelection>) {
  const { copy, exercises, pupils } = selection;
  const [state, dispatch] = useReducer(sortingReducer, undefined, () =>
    initSorting({ pageCount: copy.pages, exerciseIds: exercises.map((e) => e._id), suggestions: copy.suggestions }),
  );
  const [known, setKnown] = useState(() => new Map(pupils.map((p) => [p._id, p])));
  const [problem, setProblem] = useState<string | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<PupilPickerHandle>(null);
  const page = state.pages[state.current]!;
  const onLastPage = state.current === state.pageCount - 1;
  const pupil = page.user ? (known.get(page.user) ?? null) : null;

  // The shortcuts work as soon as the copy is on screen.
  // Without scrolling: the page's title stays in view under the header.
  useEffect(() => rootRef.current?.focus({ preventScroll: true }), []);

  const addFound = useCallback((found: SortingPupil[]) => {
    setKnown((current) => {
      if (found.every((p) => current.has(p._id))) return current;
      const next = new Map(current);
      for (const p of found) if (!next.has(p._id)) next.set(p._id, p);
      return next;
    });
  }, []);

  // Pending until the next copy is on screen, so a second press cannot send this one again.
  const save = useLabelCopy(chapterId, copy._id);

  function submit() {
    const built = buildLabels(state);
    if (!built.ok) {
      setProblem(built.message);
      dispatch({ type: 'goto', page: built.page });
      return;
    }
    setProblem(null);
    save.mutate(built.labels);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const command = commandForKey(event, targetOf(event.target), onLastPage);
    if (!command || (command.type === 'save' && save.isPending)) return;
    event.preventDefault();
    if (command.type === 'save') submit();
    else if (command.type === 'focusSearch') {
      searchRef.current?.startSearch();
    } else dispatch(command);
  }

  return { state, dispatch, known, addFound, problem, save, submit, onKeyDown, page, onLastPage, pupil, rootRef, searchRef };
}

export type SortingWorkbenchState = ReturnType<typeof useSortingWorkbench>;
