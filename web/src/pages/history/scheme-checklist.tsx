import { Checkbox, Group, Stack, Text } from '@mantine/core';
import { formatPoints, gradeFromItems, type AnswerHistory } from '@olympe/contract';
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
}: {
  scheme: SchemeItem[];
  form: GradeForm;
  maxPoints: number | undefined;
  typed: boolean;
  edit: (patch: Partial<GradeForm>) => void;
}) {
  return (
    <Stack gap={6} role="group" aria-labelledby="desk-scheme">
      <Text fw={600} size="sm" id="desk-scheme">
        Barème coché : {formatPoints(Number(gradeFromItems(scheme, form.items)))} / {formatPoints(maxPoints ?? 0)}
        {typed && form.items.length > 0 ? ' (note saisie à la main)' : ''}
      </Text>
      {scheme.map((item) => (
        <Checkbox
          key={item.id}
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
      ))}
    </Stack>
  );
}
