import { Button, Group, SegmentedControl, Text } from '@mantine/core';
import { IconArrowBackUp, IconArrowForwardUp } from '@tabler/icons-react';
import { TOOL_TEXT, type Tool } from './marks';
import type { MarksState } from './use-marks';

const TOOLS = Object.keys(TOOL_TEXT) as Tool[];

/** The layer's tools and undo/redo (decision 159); Ctrl+Z and Ctrl+Maj+Z do the same from the keyboard. */
export function MarksToolbar({ state }: { state: MarksState }) {
  return (
    <Group gap="xs" role="toolbar" aria-label="Annoter la copie" wrap="wrap">
      <SegmentedControl
        aria-label="Outil"
        size="xs"
        value={state.tool}
        onChange={(value) => {
          state.setTool(value as Tool);
          state.setPending(null);
        }}
        data={TOOLS.map((tool) => ({ value: tool, label: TOOL_TEXT[tool] }))}
      />
      <Button
        size="xs"
        variant="default"
        leftSection={<IconArrowBackUp size={14} aria-hidden="true" />}
        onClick={state.undo}
        disabled={!state.canUndo}
      >
        Annuler
      </Button>
      <Button
        size="xs"
        variant="default"
        leftSection={<IconArrowForwardUp size={14} aria-hidden="true" />}
        onClick={state.redo}
        disabled={!state.canRedo}
      >
        Rétablir
      </Button>
      {state.pending ? (
        <Text size="sm" role="status">
          Touchez la copie pour placer : {state.pending.text}
          <Button size="compact-xs" variant="subtle" ml="xs" onClick={() => state.setPending(null)}>
            Ne pas placer
          </Button>
        </Text>
      ) : null}
    </Group>
  );
}
