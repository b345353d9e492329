import { useLayoutEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import type { Annotation } from '@olympe/contract';
import { boxOf, fractionAt, MARK_DRAG_TYPE, moveMark, newMarkId, thinPoints, type Pending, type Point } from './marks';
import { MarkShape, type Size } from './mark-shape';
import { NotePopover } from './note-popover';
import type { MarksState } from './use-marks';

/** Another corrector's layer, read only (decision 159: the arbiter sees both). */
export interface OtherLayer {
  key: string;
  color: string;
  annotations: readonly Annotation[];
}

/** The gesture under way: a stroke, a box, or a mark being moved. */
type Gesture =
  | { kind: 'ink'; pointerId: number; points: Point[] }
  | { kind: 'box'; pointerId: number; from: Point; to: Point }
  | { kind: 'move'; pointerId: number; mark: Annotation; from: Point; to: Point };

const FALLBACK: Size = { width: 1000, height: 1414 };

/** The layer's size in pixels, followed as the page is drawn again at another zoom. */
function useSize(ref: React.RefObject<SVGSVGElement | null>): Size {
  const [size, setSize] = useState<Size>(FALLBACK);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const read = () => {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.height > 0) setSize({ width: box.width, height: box.height });
    };
    read();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(read);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

/** The pointer's gestures on a page: a stroke, a box, a stamp, a note, a placed item or remark, a mark moved. */
function useGestures(ref: React.RefObject<SVGSVGElement | null>, page: number, state: MarksState) {
  const [gesture, setGesture] = useState<Gesture | null>(null);
  const { tool, pending } = state;
  const drawing = tool !== 'select' || pending !== null;
  const at = (event: ReactPointerEvent) => fractionAt(ref.current!.getBoundingClientRect(), event.clientX, event.clientY);

  function place(what: Pending, [x, y]: Point) {
    const common = { id: newMarkId(), page, x, y };
    state.add(
      what.kind === 'item'
        ? { ...common, kind: 'item', itemId: what.itemId }
        : { ...common, kind: 'bank', bankId: what.bankId, text: what.text },
    );
    state.setPending(null);
  }

  function onDrop(event: React.DragEvent<SVGSVGElement>) {
    const raw = event.dataTransfer.getData(MARK_DRAG_TYPE);
    if (!raw) return;
    event.preventDefault();
    place(JSON.parse(raw) as Pending, fractionAt(ref.current!.getBoundingClientRect(), event.clientX, event.clientY));
  }

  function onPointerDown(event: ReactPointerEvent<SVGSVGElement>) {
    if (event.isPrimary === false || event.button > 0) return;
    const point = at(event);
    if (pending) return place(pending, point);
    // Keeps the stroke when the finger leaves the page; a pointer the browser no longer tracks throws (a stylus
    // lifted between events), which must not lose the stroke.
    try {
      event.currentTarget.setPointerCapture?.(event.pointerId);
    } catch {
      /* drawn without capture */
    }
    const { pointerId } = event;
    if (tool === 'ink') setGesture({ kind: 'ink', pointerId, points: [point] });
    else if (tool === 'box') setGesture({ kind: 'box', pointerId, from: point, to: point });
    else if (tool === 'tick' || tool === 'cross') state.add({ id: newMarkId(), page, kind: tool, x: point[0], y: point[1] });
    else if (tool === 'note') state.setNote({ id: null, page, at: point, text: '' });
    else {
      const id = (event.target as Element).closest('[data-mark-id]')?.getAttribute('data-mark-id') ?? null;
      const mark = state.marks.find((m) => m.id === id);
      state.setSelected(mark ? mark.id : null);
      if (mark) setGesture({ kind: 'move', pointerId, mark, from: point, to: point });
    }
  }

  function onPointerMove(event: ReactPointerEvent<SVGSVGElement>) {
    if (!gesture || event.pointerId !== gesture.pointerId) return;
    const point = at(event);
    if (gesture.kind === 'ink') setGesture({ ...gesture, points: [...gesture.points, point] });
    else setGesture({ ...gesture, to: point });
  }

  function onPointerUp(event: ReactPointerEvent<SVGSVGElement>) {
    if (!gesture || event.pointerId !== gesture.pointerId) return;
    setGesture(null);
    if (gesture.kind === 'ink') {
      state.add({ id: newMarkId(), page, kind: 'ink', color: 'red', points: thinPoints(gesture.points) });
    } else if (gesture.kind === 'box') {
      const box = boxOf(gesture.from, gesture.to);
      if (box.w > 0.005 && box.h > 0.005) state.add({ id: newMarkId(), page, kind: 'box', ...box });
    } else {
      const [dx, dy] = [gesture.to[0] - gesture.from[0], gesture.to[1] - gesture.from[1]];
      if (Math.abs(dx) + Math.abs(dy) > 0.002) state.replace(moveMark(gesture.mark, dx, dy));
    }
  }

  const shown = (mark: Annotation) =>
    gesture?.kind === 'move' && gesture.mark.id === mark.id
      ? moveMark(mark, gesture.to[0] - gesture.from[0], gesture.to[1] - gesture.from[1])
      : mark;
  const draft: Annotation | null =
    gesture?.kind === 'ink'
      ? { id: 'draft', page, kind: 'ink', color: 'red', points: gesture.points }
      : gesture?.kind === 'box'
        ? { id: 'draft', page, kind: 'box', ...boxOf(gesture.from, gesture.to) }
        : null;
  return { cancel: () => setGesture(null), onPointerDown, onPointerMove, onPointerUp, onDrop, shown, draft, drawing };
}

/**
 * The marks of one page of the copy (docs/product.md#returned-copies, decision 159), an SVG over the page's canvas in
 * page fractions. Pointer events serve the mouse, the stylus and the finger alike; while a drawing tool is on, the
 * layer takes the touches (`touch-action: none`) so that a finger draws instead of scrolling the page.
 */
export function AnnotationLayer({
  page,
  state,
  others = [],
  itemText,
}: {
  page: number;
  state: MarksState;
  others?: readonly OtherLayer[];
  itemText: (id: string) => string | undefined;
}) {
  const ref = useRef<SVGSVGElement>(null);
  const size = useSize(ref);
  const { cancel, onPointerDown, onPointerMove, onPointerUp, onDrop, shown, draft, drawing } = useGestures(ref, page, state);
  const onPage = (list: readonly Annotation[]) => list.filter((m) => m.page === page);
  return (
    <>
      <svg
        ref={ref}
        data-testid={`annotation-layer-${page}`}
        aria-hidden="true"
        viewBox={`0 0 ${size.width} ${size.height}`}
        style={{
          position: 'absolute',
          inset: 0,
          width: '100%',
          height: '100%',
          touchAction: drawing ? 'none' : 'auto',
          cursor: drawing ? 'crosshair' : 'default',
        }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={cancel}
        onDragOver={(event) => {
          if (event.dataTransfer.types.includes(MARK_DRAG_TYPE)) event.preventDefault();
        }}
        onDrop={onDrop}
        onDoubleClick={(event) => {
          const id = (event.target as Element).closest('[data-mark-id]')?.getAttribute('data-mark-id');
          const mark = state.marks.find((m) => m.id === id);
          if (mark?.kind === 'note') state.setNote({ id: mark.id, page, at: [mark.x, mark.y], text: mark.text });
        }}
      >
        {others.map((layer) =>
          onPage(layer.annotations).map((m) => (
            <MarkShape key={`${layer.key}-${m.id}`} mark={m} size={size} color={layer.color} itemText={itemText} />
          )),
        )}
        {onPage(state.marks).map((m) => (
          <MarkShape key={m.id} mark={shown(m)} size={size} selected={m.id === state.selected} itemText={itemText} />
        ))}
        {draft ? <MarkShape mark={draft} size={size} itemText={itemText} /> : null}
      </svg>
      {state.note && state.note.page === page ? (
        <NotePopover draft={state.note} onCancel={() => state.setNote(null)} onSave={state.saveNote} />
      ) : null}
    </>
  );
}
