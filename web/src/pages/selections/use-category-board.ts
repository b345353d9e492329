import { useMemo, useRef, useState } from 'react';
import { computeCategory, cutoffForTop, type Board, type Category, type CutoffSettings } from '@olympe/contract';
import { useSaveCutoff } from '../../api/selections';
import { decisionsOf, ranksOf, recompute } from './board-model';

const settingsOf = (c: Category): CutoffSettings => ({
  cutoff: c.cutoff,
  atCutoff: c.atCutoff,
  minGirls: c.minGirls,
  maxPerSchool: c.maxPerSchool,
});

// The members and their ranks depend on the board only.
const NO_SETTINGS: CutoffSettings = { cutoff: null, atCutoff: null, minGirls: null, maxPerSchool: null };

const sameSettings = (a: CutoffSettings, b: CutoffSettings) =>
  a.cutoff === b.cutoff && a.atCutoff === b.atCutoff && a.minGirls === b.minGirls && a.maxPerSchool === b.maxPerSchool;

/** What the board says of the saving: « Enregistré » once the server has the settings shown. */
export type SaveState = 'saving' | 'saved' | 'failed' | null;

/**
 * One category of the board (decision 156): its settings as the jury moves them, the list recomputed in the
 * browser at each move (no request), and the settings saved when the jury stops moving (slider released, field
 * left, a button pressed).
 */
export function useCategoryBoard(
  selectionId: string,
  category: Category,
  categoryIndex: number,
  board: Board,
  keyIndex: Map<string, number>,
) {
  const [settings, setSettings] = useState<CutoffSettings>(() => settingsOf(category));
  // The typed cut-off field shows a value moved elsewhere (slider, « Les N premiers ») once this changes.
  const [moves, setMoves] = useState(0);
  const latest = useRef(settings);
  const saved = useRef(settingsOf(category));
  const save = useSaveCutoff(selectionId);

  const decisions = useMemo(() => decisionsOf(board.decisions, category._id, keyIndex), [board.decisions, category._id, keyIndex]);
  const ranks = useMemo(() => ranksOf(board.scores, computeCategory(board, categoryIndex, NO_SETTINGS).members), [board, categoryIndex]);
  const live = useMemo(
    () => recompute(board, categoryIndex, settings, decisions, ranks),
    [board, categoryIndex, settings, decisions, ranks],
  );

  const commit = (next: CutoffSettings = latest.current) => {
    if (sameSettings(next, saved.current) && !save.isError) return;
    save.mutate(
      { categoryId: category._id, settings: next },
      {
        onSuccess: () => {
          saved.current = next;
        },
      },
    );
  };

  /** A change of the settings; a new cut-off forgets the choice on the ties of the former one (decision 156). */
  const update = (patch: Partial<CutoffSettings>, { now = false, moved = false } = {}) => {
    const current = latest.current;
    const next = { ...current, ...patch };
    if (patch.cutoff !== undefined && patch.atCutoff === undefined && patch.cutoff !== current.cutoff) next.atCutoff = null;
    latest.current = next;
    setSettings(next);
    if (moved) setMoves((n) => n + 1);
    if (now) commit(next);
  };

  const top = (n: number) => update({ cutoff: cutoffForTop(board, categoryIndex, n), atCutoff: null }, { now: true, moved: true });

  const dirty = !sameSettings(settings, saved.current);
  const state: SaveState = save.isPending ? 'saving' : save.isError ? 'failed' : save.isSuccess && !dirty ? 'saved' : null;
  return { settings, live, decisions, update, commit, top, moves, state };
}

export type CategoryBoard = ReturnType<typeof useCategoryBoard>;
