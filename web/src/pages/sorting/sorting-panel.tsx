import { Alert, Badge, Button, Checkbox, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconDeviceFloppy, IconQrcode, IconRotateClockwise } from '@tabler/icons-react';
import { ROTATIONS, SORTING_SAVE_LABEL, SORTING_SUGGESTION_TEXT, type Rotation, type SortingSelection } from '@olympe/contract';
import { KeyHelp } from './key-help';
import { PupilPicker } from './pupil-picker';
import type { PageChoice } from './sorting-state';
import type { SortingWorkbenchState } from './use-sorting-workbench';

const ROTATION_OPTIONS = ROTATIONS.map((r) => ({ value: String(r), label: `${r}°` }));

type Dispatch = SortingWorkbenchState['dispatch'];

/** What the sorter says of the page in view: blank, its exercises, its rotation. */
function PageFields({
  page,
  exercises,
  dispatch,
}: {
  page: PageChoice;
  exercises: NonNullable<SortingSelection>['exercises'];
  dispatch: Dispatch;
}) {
  return (
    <>
      <Checkbox
        label="Page blanche"
        description="Aucun élève : la page est ignorée."
        checked={page.blank}
        onChange={(e) => dispatch({ type: 'setBlank', blank: e.currentTarget.checked })}
      />

      <Checkbox.Group
        label="Exercices"
        value={page.blank ? [] : page.exercises}
        onChange={(values) => dispatch({ type: 'setExercises', exercises: values })}
      >
        <Stack gap={6} mt={6}>
          {exercises.length === 0 ? <Text size="sm">Ce chapitre n’a aucun exercice à rendre en PDF.</Text> : null}
          {exercises.map((e) => (
            <Checkbox key={e._id} value={e._id} label={e.title} disabled={page.blank} />
          ))}
        </Stack>
      </Checkbox.Group>

      <div>
        <Text size="sm" fw={500} id="sorting-rotation-label">
          Rotation
        </Text>
        <Group gap="xs" wrap="nowrap">
          <SegmentedControl
            aria-labelledby="sorting-rotation-label"
            data={ROTATION_OPTIONS}
            value={String(page.rotation)}
            onChange={(v) => dispatch({ type: 'setRotation', rotation: Number(v) as Rotation })}
          />
          <Button variant="subtle" size="compact-sm" onClick={() => dispatch({ type: 'rotate' })} aria-label="Tourner de 90°">
            <IconRotateClockwise size={18} aria-hidden="true" />
          </Button>
        </Group>
      </div>
    </>
  );
}

/** Previous and next page; on the last page, the save. */
function PageNavigation({ workbench }: { workbench: SortingWorkbenchState }) {
  const { state, dispatch, onLastPage, submit, save } = workbench;
  return (
    <>
      <Group justify="space-between">
        <Button
          variant="default"
          onClick={() => dispatch({ type: 'prev' })}
          disabled={state.current === 0}
          leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
        >
          Page précédente
        </Button>
        {!onLastPage ? (
          <Button
            variant="default"
            onClick={() => dispatch({ type: 'next' })}
            rightSection={<IconArrowRight size={16} aria-hidden="true" />}
          >
            Page suivante
          </Button>
        ) : null}
      </Group>
      {onLastPage ? (
        // A Mantine button keeps its label on one line and cuts it: this one wraps instead.
        <Button
          onClick={submit}
          loading={save.isPending}
          leftSection={<IconDeviceFloppy size={16} aria-hidden="true" />}
          h="auto"
          mih={36}
          py={6}
          styles={{ label: { whiteSpace: 'normal', textAlign: 'center', overflow: 'visible' } }}
        >
          {SORTING_SAVE_LABEL}
        </Button>
      ) : null}
    </>
  );
}

/** The side panel of the workbench: the page's pupil, exercises and rotation, then the way on. */
export function SortingPanel({
  chapterId,
  selection,
  workbench,
  pageLabel,
  exerciseTitles,
}: {
  chapterId: string;
  selection: NonNullable<SortingSelection>;
  workbench: SortingWorkbenchState;
  pageLabel: string;
  exerciseTitles: Map<string, string>;
}) {
  const { exercises, pupils } = selection;
  const { state, dispatch, known, addFound, problem, page, pupil, rootRef, searchRef } = workbench;
  return (
    <Paper withBorder p="md">
      <Stack gap="md">
        <Group justify="space-between">
          <Text fw={700} size="lg" aria-live="polite">
            {pageLabel}
          </Text>
          {page.suggested ? (
            <Badge color="blue.8" variant="filled" leftSection={<IconQrcode size={14} aria-hidden="true" />}>
              {SORTING_SUGGESTION_TEXT}
            </Badge>
          ) : null}
        </Group>
        {page.suggested ? (
          <Text size="sm" c="gray.8">
            Vérifiez l’élève, les exercices et la rotation lus sur le QR code : corrigez-les au besoin, puis passez à la page suivante.
          </Text>
        ) : null}

        <PupilPicker
          ref={searchRef}
          chapterId={chapterId}
          registered={pupils}
          known={known}
          value={page.blank ? null : page.user}
          disabled={page.blank}
          onChange={(p) => dispatch({ type: 'setUser', user: p._id })}
          onDone={() => rootRef.current?.focus()}
          onFound={addFound}
        />
        <PageFields page={page} exercises={exercises} dispatch={dispatch} />

        {!page.blank && pupil ? (
          <Text size="sm" c="gray.8">
            Page {state.current + 1} : {pupil.lastName} {pupil.firstName}
            {page.exercises.length ? ` — ${page.exercises.map((e) => exerciseTitles.get(e)).join(', ')}` : ''}
          </Text>
        ) : null}

        {problem ? (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        ) : null}

        <PageNavigation workbench={workbench} />

        <KeyHelp />
      </Stack>
    </Paper>
  );
}
