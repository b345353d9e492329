import { useCallback, useMemo, useState } from 'react';
import { Checkbox, Grid, Group, Stack } from '@mantine/core';
import type { Annotation, AnswerHistory, GradeState } from '@olympe/contract';
import { AnnotationLayer, AnnotationList, MarksToolbar, useMarks, type OtherLayer } from '../../components/AnnotationLayer';
import { PdfView } from '../../components/PdfView';
import { BankRemarks } from './bank-remarks';
import { DeskPanel } from './desk-panel';
import { GradeBlock } from './grade-block';
import { useGradeEditor } from './use-grade-editor';

/** The colours of the correctors' layers an arbiter reads (decision 159). */
const LAYER_COLORS = ['#1864ab', '#862e9c', '#087f5b'];

/**
 * The corrector's desk (docs/product.md#returned-copies): the statement and the grade block beside the copy, the
 * marks drawn on the copy and listed for the keyboard, the comment bank under the comment. One grade editor holds the
 * grade and the marks, so they are saved together (decision 159) and unsaved marks show « Modifications en attente… »
 * as an unsaved grade does.
 */
export function DeskWorkspace({
  history,
  result,
  dismissPagesAdded,
}: {
  history: AnswerHistory;
  result: GradeState & { answerId: string };
  dismissPagesAdded: { run: () => void; pending: boolean };
}) {
  const { exercise, desk } = history;
  const isPdf = exercise.answerFormat === 'pdf';
  const latest = history.answers[0];
  const scheme = useMemo(() => desk?.schemeItems ?? [], [desk]);
  const [start] = useState(() => ({ ...result, items: result.items ?? desk?.items ?? [] }));
  const editor = useGradeEditor(start, undefined, desk?.maxPoints);
  const { edit } = editor;
  const setMarks = useCallback((annotations: Annotation[]) => edit({ annotations }), [edit]);
  const marks = useMarks(editor.form.annotations, setMarks);
  const [pages, setPages] = useState(1);
  const itemText = useCallback((id: string) => scheme.find((i) => i.id === id)?.text, [scheme]);
  const others = useOtherLayers(result.layers ?? []);
  const canMark = isPdf && !!latest;

  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: isPdf ? 5 : 8 }} order={{ base: 1, md: 2 }}>
        <Stack gap="md">
          {desk ? <DeskPanel desk={desk} exerciseTitle={exercise.title} dismissPagesAdded={dismissPagesAdded} /> : null}
          <GradeBlock
            initial={result}
            history={history}
            editor={editor}
            onPlaceItem={canMark ? (item) => marks.setPending({ kind: 'item', itemId: item.id, text: item.text }) : undefined}
            belowComment={
              desk ? (
                <BankRemarks
                  exerciseId={exercise._id}
                  form={editor.form}
                  edit={edit}
                  onPlace={canMark ? (r) => marks.setPending({ kind: 'bank', bankId: r._id, text: r.text }) : undefined}
                />
              ) : null
            }
          />
          {canMark ? <AnnotationList state={marks} pages={pages} itemText={itemText} /> : null}
        </Stack>
      </Grid.Col>
      {canMark ? (
        <Grid.Col span={{ base: 12, md: 7 }} order={{ base: 2, md: 1 }}>
          <Stack gap="xs">
            <MarksToolbar state={marks} />
            {others.toggles}
            <PdfView
              key={latest.answer}
              path={latest.answer}
              label="Copie"
              onPages={setPages}
              overlay={(page) => <AnnotationLayer page={page} state={marks} others={others.shown} itemText={itemText} />}
            />
          </Stack>
        </Grid.Col>
      ) : null}
    </Grid>
  );
}

/** Decision 159: the arbiter reads both correctors' layers, each shown or hidden by its checkbox (« Correcteur 1 »…). */
function useOtherLayers(layers: NonNullable<GradeState['layers']>) {
  const [hidden, setHidden] = useState<string[]>([]);
  const shown: OtherLayer[] = layers
    .map((l, i) => ({ key: l.label, color: LAYER_COLORS[i % LAYER_COLORS.length]!, annotations: l.annotations }))
    .filter((l) => !hidden.includes(l.key));
  const toggles =
    layers.length > 0 ? (
      <Group gap="md" role="group" aria-label="Annotations des correcteurs">
        {layers.map((l, i) => (
          <Checkbox
            key={l.label}
            label={l.label}
            checked={!hidden.includes(l.label)}
            color={LAYER_COLORS[i % LAYER_COLORS.length]}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setHidden((h) => (on ? h.filter((x) => x !== l.label) : [...h, l.label]));
            }}
          />
        ))}
      </Group>
    ) : null;
  return { shown, toggles };
}
