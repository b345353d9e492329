import { Radio, Select, Stack } from '@mantine/core';
import type { RegradeCreate, ReturnedExercise } from '@olympe/contract';
import { annotationText } from '../../components/AnnotationView';
import { RegionPicker, type PagePlace } from './region-picker';

/**
 * docs/product.md#returned-copies, decision 162: where on the returned copy a regrade request points, when the
 * chapter returns its copies: nowhere in particular, a region of a page, or one of the corrector's marks.
 */

export const REGION_MODE_LABEL = 'Désigner une zone de la copie';
export const ANNOTATION_MODE_LABEL = 'Réagir à une annotation';

export type Place = { mode: 'none' } | { mode: 'region'; at: PagePlace | null } | { mode: 'annotation'; id: string | null };
export const NO_PLACE: Place = { mode: 'none' };

/** The request's fields for the place chosen (nothing until a box or a mark is chosen). */
export function placeFields(place: Place): Pick<RegradeCreate, 'page' | 'region' | 'annotationId'> {
  if (place.mode === 'region' && place.at) return { page: place.at.page, region: place.at.region };
  if (place.mode === 'annotation' && place.id) return { annotationId: place.id };
  return {};
}

export function PlaceFields({ copy, place, onChange }: { copy: ReturnedExercise; place: Place; onChange: (place: Place) => void }) {
  const annotations = copy.layers.flatMap((l) => l.annotations);
  const items = Object.fromEntries(copy.items.map((i) => [i.id, i.text]));
  return (
    <Stack gap="xs">
      <Radio.Group
        label={'Où, sur votre copie\u00a0?'}
        value={place.mode}
        onChange={(mode) => onChange(mode === 'region' ? { mode, at: null } : mode === 'annotation' ? { mode, id: null } : NO_PLACE)}
      >
        <Stack gap={6} mt={4}>
          <Radio value="none" label="Sans préciser" />
          {copy.pdf && <Radio value="region" label={REGION_MODE_LABEL} />}
          {annotations.length > 0 && <Radio value="annotation" label={ANNOTATION_MODE_LABEL} />}
        </Stack>
      </Radio.Group>
      {place.mode === 'region' && copy.pdf && (
        <RegionPicker
          pdf={copy.pdf}
          annotations={annotations}
          items={items}
          value={place.at}
          onChange={(at) => onChange({ mode: 'region', at })}
        />
      )}
      {place.mode === 'annotation' && (
        <Select
          label="Annotation du correcteur"
          placeholder="Choisissez l’annotation"
          value={place.id}
          onChange={(id) => onChange({ mode: 'annotation', id })}
          data={annotations.map((a) => ({ value: a.id, label: `Page ${a.page + 1}\u00a0: ${annotationText(a, items)}` }))}
        />
      )}
    </Stack>
  );
}
