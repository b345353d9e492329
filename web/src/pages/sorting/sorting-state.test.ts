import { describe, expect, it } from 'vitest';
import {
  buildLabels,
  commandForKey,
  initSorting,
  moveExercise,
  sortingReducer,
  type SortingAction,
  type SortingState,
} from './sorting-state';

const E1 = 'e1';
const E2 = 'e2';
const E3 = 'e3';
const run = (state: SortingState, ...actions: SortingAction[]) => actions.reduce(sortingReducer, state);
const start = (pageCount = 4, suggestions: Parameters<typeof initSorting>[0]['suggestions'] = null) =>
  initSorting({ pageCount, exerciseIds: [E1, E2, E3], suggestions });

describe('sorting reducer', () => {
  it('starts on page 1 with no pupil and the first exercise, upright', () => {
    const s = start();
    expect(s.current).toBe(0);
    expect(s.pages[0]).toEqual({ user: null, blank: false, exercises: [E1], rotation: 0, suggested: false });
    expect(s.pages.slice(1)).toEqual([null, null, null]);
  });

  it('carries the pupil and exercises of the previous page forward, not the rotation; skips blank pages', () => {
    let s = run(start(), { type: 'setUser', user: 'u1' }, { type: 'moveExercise', delta: 1 }, { type: 'rotate' }, { type: 'next' });
    expect(s.pages[1]).toEqual({ user: 'u1', blank: false, exercises: [E2], rotation: 0, suggested: false });
    s = run(s, { type: 'toggleBlank' }, { type: 'next' });
    expect(s.pages[1]!.blank).toBe(true);
    expect(s.pages[2]).toMatchObject({ user: 'u1', blank: false, exercises: [E2] });
  });

  it('does not go past the first or last page, and going back keeps the choices', () => {
    let s = run(start(2), { type: 'prev' });
    expect(s.current).toBe(0);
    s = run(s, { type: 'setUser', user: 'u1' }, { type: 'next' }, { type: 'next' });
    expect(s.current).toBe(1);
    s = run(s, { type: 'setUser', user: 'u2' }, { type: 'prev' }, { type: 'next' });
    expect(s.pages[1]!.user).toBe('u2');
  });

  it('rotates by 90° steps and wraps at 360°', () => {
    const s = run(start(), { type: 'rotate' }, { type: 'rotate' }, { type: 'rotate' });
    expect(s.pages[0]!.rotation).toBe(270);
    expect(run(s, { type: 'rotate' }).pages[0]!.rotation).toBe(0);
    expect(run(s, { type: 'setRotation', rotation: 90 }).pages[0]!.rotation).toBe(90);
  });

  it('keeps several exercises in chapter order', () => {
    const s = run(start(), { type: 'setExercises', exercises: [E3, E1] });
    expect(s.pages[0]!.exercises).toEqual([E1, E3]);
  });

  it('pre-fills from the QR suggestions, marked until the sorter changes something', () => {
    let s = start(3, [
      { pageNum: 1, user: 'u9', exercises: [E3, 'unknown'], rotation: 180 },
      { pageNum: 3, user: null, exercises: [], rotation: 0 },
    ]);
    expect(s.pages[0]).toEqual({ user: 'u9', blank: false, exercises: [E3], rotation: 180, suggested: true });
    s = run(s, { type: 'next' });
    expect(s.pages[1]).toMatchObject({ user: 'u9', exercises: [E3], suggested: false });
    s = run(s, { type: 'next' });
    expect(s.pages[2]).toMatchObject({ blank: true, suggested: true });
    s = run(s, { type: 'prev' }, { type: 'prev' }, { type: 'rotate' });
    expect(s.pages[0]).toMatchObject({ rotation: 270, suggested: false });
  });
});

describe('moveExercise (↑/↓)', () => {
  it('moves the selection to one exercise, clamped at the ends', () => {
    expect(moveExercise([E1, E2, E3], [E1], 1)).toEqual([E2]);
    expect(moveExercise([E1, E2, E3], [E1, E2], 1)).toEqual([E3]);
    expect(moveExercise([E1, E2, E3], [E2, E3], -1)).toEqual([E1]);
    expect(moveExercise([E1, E2, E3], [E3], 1)).toEqual([E3]);
    expect(moveExercise([E1, E2, E3], [E1], -1)).toEqual([E1]);
    expect(moveExercise([E1, E2, E3], [], -1)).toEqual([E3]);
    expect(moveExercise([], [], 1)).toEqual([]);
  });
});

describe('buildLabels', () => {
  it('one entry per page, blank pages with user null, pages never shown filled by carrying forward', () => {
    const s = run(
      start(4),
      { type: 'setUser', user: 'u1' },
      { type: 'next' },
      { type: 'moveExercise', delta: 1 },
      { type: 'setRotation', rotation: 180 },
      { type: 'next' },
      { type: 'setBlank', blank: true },
    );
    expect(buildLabels(s)).toEqual({
      ok: true,
      labels: [
        { pageNum: 1, user: 'u1', exercises: [E1], rotation: 0 },
        { pageNum: 2, user: 'u1', exercises: [E2], rotation: 180 },
        { pageNum: 3, user: null, exercises: [], rotation: 0 },
        { pageNum: 4, user: 'u1', exercises: [E2], rotation: 0 },
      ],
    });
  });

  it('refuses a page with no pupil that is not blank, or with no exercise', () => {
    expect(buildLabels(start(2))).toEqual({ ok: false, page: 0, message: 'Page 1 : choisissez un élève ou marquez la page blanche.' });
    const s = run(start(2), { type: 'setUser', user: 'u1' }, { type: 'next' }, { type: 'setExercises', exercises: [] });
    expect(buildLabels(s)).toEqual({ ok: false, page: 1, message: 'Page 2 : choisissez au moins un exercice.' });
  });
});

describe('commandForKey', () => {
  const div = { tagName: 'DIV' };
  it('maps the arrows, space, slash, b and Enter on the last page', () => {
    expect(commandForKey({ key: 'ArrowRight' }, div, false)).toEqual({ type: 'next' });
    expect(commandForKey({ key: 'ArrowLeft' }, div, false)).toEqual({ type: 'prev' });
    expect(commandForKey({ key: 'ArrowUp' }, div, false)).toEqual({ type: 'moveExercise', delta: -1 });
    expect(commandForKey({ key: 'ArrowDown' }, div, false)).toEqual({ type: 'moveExercise', delta: 1 });
    expect(commandForKey({ key: ' ' }, div, false)).toEqual({ type: 'rotate' });
    expect(commandForKey({ key: '/' }, div, false)).toEqual({ type: 'focusSearch' });
    expect(commandForKey({ key: 'b' }, div, false)).toEqual({ type: 'toggleBlank' });
    expect(commandForKey({ key: 'Enter' }, div, false)).toBeNull();
    expect(commandForKey({ key: 'Enter' }, div, true)).toEqual({ type: 'save' });
    expect(commandForKey({ key: 'x' }, div, true)).toBeNull();
  });

  it('never fires while typing in the search box or another text field, nor with modifiers', () => {
    for (const target of [
      { tagName: 'INPUT', type: 'text' },
      { tagName: 'INPUT', type: 'search' },
      { tagName: 'INPUT', type: 'text', role: 'combobox' },
      { tagName: 'TEXTAREA' },
      { tagName: 'DIV', isContentEditable: true },
    ]) {
      for (const key of ['ArrowRight', 'ArrowLeft', 'ArrowUp', 'ArrowDown', ' ', 'b', '/', 'Enter']) {
        expect(commandForKey({ key }, target, true)).toBeNull();
      }
    }
    expect(commandForKey({ key: 'ArrowRight', ctrlKey: true }, div, false)).toBeNull();
    expect(commandForKey({ key: 'b', metaKey: true }, div, false)).toBeNull();
  });

  it('leaves Space and Enter to focused buttons and checkboxes, but arrows still move', () => {
    const checkbox = { tagName: 'INPUT', type: 'checkbox' };
    expect(commandForKey({ key: ' ' }, checkbox, false)).toBeNull();
    expect(commandForKey({ key: 'Enter' }, { tagName: 'BUTTON' }, true)).toBeNull();
    expect(commandForKey({ key: 'ArrowDown' }, checkbox, false)).toEqual({ type: 'moveExercise', delta: 1 });
    expect(commandForKey({ key: 'ArrowRight' }, { tagName: 'INPUT', type: 'radio' }, false)).toEqual({ type: 'next' });
  });
});
