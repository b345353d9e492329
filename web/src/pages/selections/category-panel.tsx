import { useCallback, useMemo, useState } from 'react';
import { Stack } from '@mantine/core';
import type { Board, Category } from '@olympe/contract';
import { chartOf } from './board-model';
import { CutoffControls, LiveCount, QuotaControls, SettingsText, TiePanel } from './cutoff-controls';
import { DecisionDialog, type DecisionTarget } from './decision-dialog';
import { PupilTable } from './pupil-table';
import { ScoreChart } from './score-chart';
import { useCategoryBoard } from './use-category-board';

/**
 * One category of the jury's board (docs/product.md#selections): the chart, the cut-off and quotas with the live
 * count, the pupils at the cut-off, and the list with the jury's decisions.
 */
export function CategoryPanel(props: {
  selectionId: string;
  category: Category;
  index: number;
  board: Board;
  keyIndex: Map<string, number>;
  canDecide: boolean;
}) {
  const { selectionId, category, index, board, keyIndex, canDecide } = props;
  const state = useCategoryBoard(selectionId, category, index, board, keyIndex);
  const chart = useMemo(() => chartOf(board, index), [board, index]);
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  const onDecide = useCallback((t: DecisionTarget) => setTarget(t), []);
  return (
    <Stack>
      <LiveCount state={state.state} summary={state.live.summary} />
      <ScoreChart chart={chart} cutoff={state.settings.cutoff} name={category.name} />
      {canDecide ? <CutoffControls board={board} category={state} name={category.name} /> : <SettingsText category={state} />}
      <TiePanel board={board} category={state} name={category.name} readOnly={!canDecide} />
      {canDecide && <QuotaControls category={state} />}
      <PupilTable board={board} rows={state.live.rows} name={category.name} canDecide={canDecide} onDecide={onDecide} />
      {target && <DecisionDialog selectionId={selectionId} categoryId={category._id} target={target} onClose={() => setTarget(null)} />}
    </Stack>
  );
}
