import { useState, type PointerEvent as ReactPointerEvent } from 'react';
import { Group, Select, Stack, Text } from '@mantine/core';
import type { Annotation, PageRegion } from '@olympe/contract';
import { AnnotationView } from '../../components/AnnotationView';
import { fractionAt, REGIONS, type Point } from '../../components/AnnotationLayer';
import { PdfView } from '../../components/PdfView';

/**
 * docs/product.md#returned-copies, decision 162: the pupil points at a place of their returned copy for a regrade
 * request. A box dragged on a page (pointer events: mouse, stylus, finger), or from the keyboard a page and one of
 * the nine regions of it (« en haut à gauche »…). Positions are page fractions, as the corrector's marks.
 */

export interface PagePlace {
  page: number;
  region: PageRegion;
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
/** A drag shorter than this (a click) marks nothing. */
const MIN_SIDE = 0.01;

/** The box between two corners of a drag, whichever way it went. */
export function boxBetween([x1, y1]: Point, [x2, y2]: Point): PageRegion {
  return { x: Math.min(x1, x2), y: Math.min(y1, y2), w: round(Math.abs(x2 - x1)), h: round(Math.abs(y2 - y1)) };
}

/** One of the nine regions of a page as a box (a third of its width and height). */
export function regionBox(index: number): PageRegion {
  const third = round(1 / 3);
  return { x: round((index % 3) / 3), y: round(Math.floor(index / 3) / 3), w: third, h: third };
}

const sameBox = (a: PageRegion, b: PageRegion) => a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;

/** The surface a box is dragged on, over one page, with the box chosen drawn on it. */
function DragLayer({ page, value, onChange }: { page: number; value: PagePlace | null; onChange: (place: PagePlace) => void }) {
  const [drag, setDrag] = useState<{ pointerId: number; from: Point; to: Point } | null>(null);
  const at = (event: ReactPointerEvent<HTMLDivElement>) =>
    fractionAt(event.currentTarget.getBoundingClientRect(), event.clientX, event.clientY);
  const shown = drag ? boxBetween(drag.from, drag.to) : value?.page === page ? value.region : null;
  return (
    <div
      data-testid={`region-layer-${page}`}
      style={{ position: 'absolute', inset: 0, touchAction: 'none', cursor: 'crosshair' }}
      onPointerDown={(event) => {
        if (event.button > 0) return;
        try {
          event.currentTarget.setPointerCapture?.(event.pointerId);
        } catch {
          // A pointer the browser no longer tracks: the drag still works inside the page.
        }
        const point = at(event);
        setDrag({ pointerId: event.pointerId, from: point, to: point });
      }}
      onPointerMove={(event) => {
        if (drag && event.pointerId === drag.pointerId) setDrag({ ...drag, to: at(event) });
      }}
      onPointerUp={(event) => {
        if (!drag || event.pointerId !== drag.pointerId) return;
        const box = boxBetween(drag.from, at(event));
        setDrag(null);
        if (box.w >= MIN_SIDE && box.h >= MIN_SIDE) onChange({ page, region: box });
      }}
      onPointerCancel={() => setDrag(null)}
    >
      {shown && (
        <div
          data-testid="region-box"
          style={{
            position: 'absolute',
            left: `${shown.x * 100}%`,
            top: `${shown.y * 100}%`,
            width: `${shown.w * 100}%`,
            height: `${shown.h * 100}%`,
            border: '3px dashed #1a40d9',
            background: 'rgba(26, 64, 217, 0.12)',
            pointerEvents: 'none',
          }}
        />
      )}
    </div>
  );
}

export interface RegionPickerProps {
  /** The returned copy (« pdfs/<id>.pdf »). */
  pdf: string;
  /** The corrector's marks, drawn under the surface so the pupil sees what they point at. */
  annotations: readonly Annotation[];
  items?: Readonly<Record<string, string>>;
  value: PagePlace | null;
  onChange: (place: PagePlace) => void;
}

export function RegionPicker({ pdf, annotations, items, value, onChange }: RegionPickerProps) {
  const [pages, setPages] = useState(1);
  const preset = value ? REGIONS.findIndex((_, i) => sameBox(regionBox(i), value.region)) : -1;
  const page = value?.page ?? 0;
  return (
    <Stack gap="xs" role="group" aria-label="Zone de la copie">
      <Text size="sm">Tracez un cadre sur la page avec la souris ou le doigt, ou choisissez la page et la zone ci-dessous.</Text>
      <PdfView
        path={pdf}
        label="Votre copie"
        onPages={setPages}
        overlay={(p) => (
          <>
            <AnnotationView annotations={annotations} page={p} items={items} />
            <DragLayer page={p} value={value} onChange={onChange} />
          </>
        )}
      />
      <Group gap="xs" grow>
        <Select
          label="Page"
          allowDeselect={false}
          value={String(page)}
          onChange={(v) => v !== null && onChange({ page: Number(v), region: value?.region ?? regionBox(4) })}
          data={Array.from({ length: Math.max(1, pages) }, (_, i) => ({ value: String(i), label: `Page ${i + 1}` }))}
        />
        <Select
          label="Zone de la page"
          placeholder={value ? 'Cadre tracé' : 'Choisissez la zone'}
          allowDeselect={false}
          value={preset >= 0 ? String(preset) : null}
          onChange={(v) => v !== null && onChange({ page, region: regionBox(Number(v)) })}
          data={REGIONS.map((r, i) => ({ value: String(i), label: r.label }))}
        />
      </Group>
    </Stack>
  );
}
