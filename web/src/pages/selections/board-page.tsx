import { useMemo, useState } from 'react';
import { Alert, Stack, Tabs, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import type { Board, Selection } from '@olympe/contract';
import { useBoard, useSelection } from '../../api/selections';
import { LoginRedirect } from '../../components/login-gate';
import { PageHeading } from '../../components/page-heading';
import { TitledLoader } from '../../components/TitledLoader';
import { useSession } from '../../session/session-context';
import { keyIndexOf } from './board-model';
import { loadErrorText } from './load-error';
import { BoardActions } from './board-actions';
import { CategoryPanel } from './category-panel';
import { publicationState } from './publication-dialog';
import { DriftPanel, VersionsPanel } from './versions-panel';

const TITLE = 'Sélection';

/** The jury's board (docs/product.md#selections, decisions 155–157): fetched once, each list recomputed in the browser. */
export function SelectionBoardPage() {
  const { id = '' } = useParams();
  const { token } = useSession();
  const selection = useSelection(id);
  const board = useBoard(id);
  if (!token) return <LoginRedirect />;
  const failed = selection.error ?? board.error;
  if (failed)
    return (
      <Stack>
        <PageHeading>{TITLE}</PageHeading>
        <Alert color="red">{loadErrorText(failed)}</Alert>
      </Stack>
    );
  if (!selection.data || !board.data) return <TitledLoader title={TITLE} label="Chargement du tableau du jury" />;
  return <BoardView selection={selection.data} board={board.data} />;
}

function BoardView({ selection, board }: { selection: Selection; board: Board }) {
  const keyIndex = useMemo(() => keyIndexOf(board), [board]);
  const [tab, setTab] = useState<string | null>(selection.categories[0]?._id ?? null);
  const canDecide = selection.right !== 'read';
  return (
    <Stack>
      <PageHeading>{selection.title}</PageHeading>
      <Text>
        {publicationState(selection)}{' '}
        {selection.namesShown ? 'Les noms sont visibles.' : 'Délibération anonyme : les élèves sont désignés par un pseudonyme.'}{' '}
        {selection.right === 'read' && 'Votre jury a un droit de lecture.'}
      </Text>
      <BoardActions selection={selection} />
      <DriftPanel selection={selection} board={board} />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List aria-label="Catégories">
          {selection.categories.map((c) => (
            <Tabs.Tab key={c._id} value={c._id}>
              {c.name}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {selection.categories.map((c, index) => (
          <Tabs.Panel key={c._id} value={c._id} pt="md">
            <CategoryPanel selectionId={selection._id} category={c} index={index} board={board} keyIndex={keyIndex} canDecide={canDecide} />
          </Tabs.Panel>
        ))}
      </Tabs>
      <Title order={2}>Versions</Title>
      <VersionsPanel selection={selection} />
    </Stack>
  );
}
