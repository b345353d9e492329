import type { PageLabel, Rotation } from '@olympe/contract';

/** What the sorter chose for one page of the scan. */
export interface PageChoice {
  /** The pupil, kept when the page is marked blank so unmarking restores it. */
  user: string | null;
  /** "Page blanche": no pupil, the page is dropped. */
  blank: boolean;
  /** Exercise ids, in the chapter's order. */
  exercises: string[];
  rotation: Rotation;
  /** Filled from the QR code and not changed since: shown as a suggestion to confirm. */
  suggested: boolean;
}

export interface SortingState {
  pageCount: number;
  /** 0-based index of the page on screen. */
  current: number;
  /** One entry per page, null until the page is first shown (or built for saving). */
  pages: Array<PageChoice | null>;
  /** The chapter's PDF exercises, in order (↑/↓ move along them). */
  exerciseIds: string[];
  /** QR suggestions by page index. */
  suggestions: Array<PageLabel | null>;
}

export type SortingAction =
  | { type: 'next' }
  | { type: 'prev' }
  | { type: 'goto'; page: number }
  | { type: 'setUser'; user: string | null }
  | { type: 'setBlank'; blank: boolean }
  | { type: 'toggleBlank' }
  | { type: 'setExercises'; exercises: string[] }
  | { type: 'moveExercise'; delta: 1 | -1 }
  | { type: 'rotate' }
  | { type: 'setRotation'; rotation: Rotation }
  | { type: 'confirmSuggested' };

const ROTATION_STEPS: Rotation[] = [0, 90, 180, 270];
const toRotation = (r: number): Rotation => ROTATION_STEPS[((Math.round(r / 90) % 4) + 4) % 4];

export function initSorting(input: { pageCount: number; exerciseIds: string[]; suggestions: PageLabel[] | null }): SortingState {
  const suggestions: Array<PageLabel | null> = Array.from({ length: input.pageCount }, () => null);
  for (const s of input.suggestions ?? []) if (s.pageNum >= 1 && s.pageNum <= input.pageCount) suggestions[s.pageNum - 1] = s;
  const state: SortingState = {
    pageCount: input.pageCount,
    current: 0,
    pages: Array.from({ length: input.pageCount }, () => null),
    exerciseIds: input.exerciseIds,
    suggestions,
  };
  return ensurePage(state, 0);
}

/** The last page before `index` that names a pupil (blank pages are skipped). */
function previousChoice(state: SortingState, index: number): PageChoice | null {
  for (let i = index - 1; i >= 0; i--) {
    const p = state.pages[i];
    if (p && !p.blank && p.user) return p;
  }
  for (let i = index - 1; i >= 0; i--) if (state.pages[i]) return state.pages[i];
  return null;
}

/**
 * A page's first choice: the QR suggestion when there is one, else the pupil and exercises of
 * the previous page (a pupil's pages come in a row), upright as scanned.
 */
function firstChoice(state: SortingState, index: number): PageChoice {
  const previous = previousChoice(state, index);
  const carried = previous?.exercises.length ? previous.exercises : state.exerciseIds.slice(0, 1);
  const suggestion = state.suggestions[index];
  if (suggestion) {
    const known = suggestion.exercises.filter((e) => state.exerciseIds.includes(e));
    return {
      user: suggestion.user,
      blank: suggestion.user === null,
      exercises: known.length ? sortExercises(state, known) : carried,
      rotation: toRotation(suggestion.rotation),
      suggested: true,
    };
  }
  return { user: previous?.user ?? null, blank: false, exercises: carried, rotation: 0, suggested: false };
}

function ensurePage(state: SortingState, index: number): SortingState {
  if (state.pages[index]) return state;
  // Pages are filled in order, so what is carried forward comes from the pages before.
  const pages = [...state.pages];
  const next = { ...state, pages };
  for (let i = 0; i <= index; i++) if (!pages[i]) pages[i] = firstChoice(next, i);
  return next;
}

const sortExercises = (state: SortingState, ids: string[]) => state.exerciseIds.filter((e) => ids.includes(e));

function editCurrent(state: SortingState, change: (page: PageChoice) => Partial<PageChoice>): SortingState {
  const page = state.pages[state.current] ?? firstChoice(state, state.current);
  const pages = [...state.pages];
  pages[state.current] = { ...page, ...change(page), suggested: false };
  return { ...state, pages };
}

export function sortingReducer(state: SortingState, action: SortingAction): SortingState {
  switch (action.type) {
    case 'next':
      return state.current >= state.pageCount - 1 ? state : ensurePage({ ...state, current: state.current + 1 }, state.current + 1);
    case 'prev':
      return state.current <= 0 ? state : { ...state, current: state.current - 1 };
    case 'goto': {
      const page = Math.min(Math.max(action.page, 0), state.pageCount - 1);
      return ensurePage({ ...state, current: page }, page);
    }
    case 'setUser':
      return editCurrent(state, () => ({ user: action.user, blank: false }));
    case 'setBlank':
      return editCurrent(state, () => ({ blank: action.blank }));
    case 'toggleBlank':
      return editCurrent(state, (p) => ({ blank: !p.blank }));
    case 'setExercises':
      return editCurrent(state, () => ({ exercises: sortExercises(state, action.exercises) }));
    case 'moveExercise':
      return editCurrent(state, (p) => ({ exercises: moveExercise(state.exerciseIds, p.exercises, action.delta) }));
    case 'rotate':
      return editCurrent(state, (p) => ({ rotation: toRotation(p.rotation + 90) }));
    case 'setRotation':
      return editCurrent(state, () => ({ rotation: action.rotation }));
    case 'confirmSuggested':
      return confirmSuggested(state);
  }
}

/** Pages with a QR suggestion (or a blank one) the sorter has not changed yet. */
export const pendingSuggestions = (state: SortingState) =>
  state.suggestions.filter((s, i) => s !== null && (state.pages[i]?.suggested ?? true)).length;

/**
 * « Confirmer les pages suggérées »: every page the reader labelled keeps its suggestion, confirmed,
 * and the sorter is taken to the first page it did not label (the last page when there is none).
 */
export function confirmSuggested(state: SortingState): SortingState {
  const pages = state.pages.map((page, i) => {
    if (state.suggestions[i] === null) return page;
    const choice = page ?? firstChoice(state, i);
    return { ...choice, suggested: false };
  });
  const firstUnread = state.suggestions.findIndex((s) => s === null);
  const current = firstUnread >= 0 ? firstUnread : state.pageCount - 1;
  return ensurePage({ ...state, pages, current }, current);
}

/** ↑/↓: the selection becomes the one exercise before the first chosen, or after the last chosen. */
export function moveExercise(all: string[], chosen: string[], delta: 1 | -1): string[] {
  if (all.length === 0) return chosen;
  const indexes = chosen.map((e) => all.indexOf(e)).filter((i) => i >= 0);
  if (indexes.length === 0) return [delta > 0 ? all[0] : all[all.length - 1]];
  const from = delta > 0 ? Math.max(...indexes) : Math.min(...indexes);
  return [all[Math.min(Math.max(from + delta, 0), all.length - 1)]];
}

export type BuildResult = { ok: true; labels: PageLabel[] } | { ok: false; page: number; message: string };

/** The body of POST /answer/label: every page, blank ones with user null. Refuses a page left undecided. */
export function buildLabels(state: SortingState): BuildResult {
  const full = ensurePage(state, state.pageCount - 1);
  const labels: PageLabel[] = [];
  for (const [i, page] of full.pages.entries()) {
    const pageNum = i + 1;
    if (!page) continue;
    if (page.blank) {
      labels.push({ pageNum, user: null, exercises: [], rotation: page.rotation });
      continue;
    }
    if (!page.user) return { ok: false, page: i, message: `Page ${pageNum} : choisissez un élève ou marquez la page blanche.` };
    if (page.exercises.length === 0) return { ok: false, page: i, message: `Page ${pageNum} : choisissez au moins un exercice.` };
    labels.push({ pageNum, user: page.user, exercises: page.exercises, rotation: page.rotation });
  }
  return { ok: true, labels };
}

/** What a key press does on the sorting screen. */
export type KeyCommand = SortingAction | { type: 'save' } | { type: 'focusSearch' };

/** The focused element, as far as the shortcuts care. */
export interface KeyTarget {
  tagName: string;
  type?: string;
  role?: string | null;
  isContentEditable?: boolean;
}

const TEXT_INPUT_TYPES = new Set(['', 'text', 'search', 'email', 'number', 'password', 'tel', 'url']);

/** Typing into a text field (the pupil search above all): no shortcut may fire. */
export function isTextEntry(target: KeyTarget | null): boolean {
  if (!target) return false;
  const tag = target.tagName.toLowerCase();
  if (target.isContentEditable || tag === 'textarea' || tag === 'select') return true;
  if (target.role === 'combobox' || target.role === 'textbox') return true;
  return tag === 'input' && TEXT_INPUT_TYPES.has((target.type ?? '').toLowerCase());
}

/** Buttons, checkboxes, radios and links act on Space and Enter themselves. */
function activatesItself(target: KeyTarget | null): boolean {
  if (!target) return false;
  const tag = target.tagName.toLowerCase();
  return (
    tag === 'button' || tag === 'a' || tag === 'input' || target.role === 'button' || target.role === 'checkbox' || target.role === 'radio'
  );
}

/**
 * docs/product.md#spec-2 Triage keys: → next page, ← previous, ↑/↓ previous/next exercise, Space turns the page
 * 90°; also "/" to search a pupil, "b" for a blank page, Enter on the last page to save. Nothing
 * fires while typing in a text field, nor with Ctrl, Alt or Meta held.
 */
export function commandForKey(
  event: { key: string; ctrlKey?: boolean; altKey?: boolean; metaKey?: boolean },
  target: KeyTarget | null,
  onLastPage: boolean,
): KeyCommand | null {
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  if (isTextEntry(target)) return null;
  switch (event.key) {
    case 'ArrowRight':
      return { type: 'next' };
    case 'ArrowLeft':
      return { type: 'prev' };
    case 'ArrowUp':
      return { type: 'moveExercise', delta: -1 };
    case 'ArrowDown':
      return { type: 'moveExercise', delta: 1 };
    case ' ':
    case 'Spacebar':
      return activatesItself(target) ? null : { type: 'rotate' };
    case '/':
      return { type: 'focusSearch' };
    case 'b':
    case 'B':
      return { type: 'toggleBlank' };
    case 'Enter':
      return onLastPage && !activatesItself(target) ? { type: 'save' } : null;
    default:
      return null;
  }
}
