import { ActionIcon, Checkbox, Group, Stack, Text } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { formatPoints, gradeFromItems, type AnswerHistory } from '@olympe/contract';
import { MARK_DRAG_TYPE } from '../../components/AnnotationLayer';
import { MathText } from '../../components/MathText';
import { tickItem } from './desk';
import type { GradeForm } from './use-grade-editor';

type SchemeItem = NonNullable<AnswerHistory['desk']>['schemeItems'][number];

/** The marking scheme's items, ticked by the corrector; their sum is the grade unless one was typed. */
export function SchemeChecklist({
  scheme,
  form,
  maxPoints,
  typed,
  edit,
  onPlace,
}: {
  scheme: SchemeItem[];
  form: GradeForm;
  maxPoints: number | undefined;
  typed: boolean;
  edit: (patch: Partial<GradeForm>) => void;
  /** Decision 159: drops the item on the copy where it applies (a click on the page, or drag and drop). */
  onPlace?: (item: { id: string; text: string }) => void;
}) {
  return (
    <Stack gap={6} role="group" aria-labelledby="desk-scheme">
      <Text fw={600} size="sm" id="desk-scheme">
        Barème coché : {formatPoints(Number(gradeFromItems(scheme, form.items)))} / {formatPoints(maxPoints ?? 0)}
        {typed && form.items.length > 0 ? ' (note saisie à la main)' : ''}
      </Text>
      {scheme.map((item) => (
        <Group key={item.id} gap={4} wrap="nowrap" justify="space-between">
          <Checkbox
            // Decision 141: the item as written, Markdown and formulas drawn by the statements' pipeline (« $n^2 + 1$ »).
            label={
              <Group gap={4} wrap="nowrap" align="baseline" component="span">
                <MathText value={item.text} />
                <span style={{ whiteSpace: 'nowrap' }}>{` : ${formatPoints(item.points)} pt${item.points > 1 ? 's' : ''}`}</span>
              </Group>
            }
            checked={form.items.includes(item.id)}
            onChange={(e) => edit(tickItem(form, scheme, item.id, e.currentTarget.checked, typed))}
          />
          {onPlace ? (
            <ActionIcon
              variant="subtle"
              aria-label={`Placer sur la copie : ${item.text}`}
              draggable
              onDragStart={(e) =>
                e.dataTransfer.setData(MARK_DRAG_TYPE, JSON.stringify({ kind: 'item', itemId: item.id, text: item.text }))
              }
              onClick={() => onPlace(item)}
            >
              <IconMapPin size={16} aria-hidden="true" />
            </ActionIcon>
          ) : null}
        </Group>
      ))}
    </Stack>
  );
}
