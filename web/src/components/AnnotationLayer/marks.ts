import { getStroke } from 'perfect-freehand';
import { INK_POINTS_MAX, type Annotation } from '@olympe/contract';

/**
 * The corrector's marks on a copy (docs/product.md#returned-copies, decision 159): pure helpers of the layer and of the
 * keyboard list. Every position is a fraction of the page (0 = left/top, 1 = right/bottom), so a mark stays put at any zoom.
 */

export type Point = [number, number];

/** The tools of the layer's toolbar; `item` and `bank` place what the corrector chose beside the copy. */
export type Tool = 'select' | 'ink' | 'box' | 'note' | 'tick' | 'cross';

/** What a click on the page places next, chosen beside the copy (a scheme item, a bank remark). */
export type Pending = { kind: 'item'; itemId: string; text: string } | { kind: 'bank'; bankId: string; text: string };

export const TOOL_TEXT: Record<Tool, string> = {
  select: 'Sélection',
  ink: 'Stylo',
  box: 'Cadre',
  note: 'Note',
  tick: 'Juste',
  cross: 'Faux',
};

const clamp = (n: number) => Math.min(1, Math.max(0, n));
const round = (n: number) => Math.round(n * 10_000) / 10_000;

/** Where a pointer is on a page, as fractions of its box. */
export function fractionAt(box: Pick<DOMRect, 'left' | 'top' | 'width' | 'height'>, clientX: number, clientY: number): Point {
  if (box.width <= 0 || box.height <= 0) return [0, 0];
  return [round(clamp((clientX - box.left) / box.width)), round(clamp((clientY - box.top) / box.height))];
}

let counter = 0;
/** Stable per mark (decision 159): made here, kept by edits and moves. */
export const newMarkId = () => `m${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The points of a stroke, thinned to what the contract takes. */
export function thinPoints(points: readonly Point[]): Point[] {
  if (points.length <= INK_POINTS_MAX) return [...points];
  const step = points.length / INK_POINTS_MAX;
  return Array.from({ length: INK_POINTS_MAX }, (_, i) => points[Math.floor(i * step)]!);
}

/** The outline of an ink stroke drawn at `width` × `height` pixels, as an SVG path (perfect-freehand smooths it). */
export function inkPath(points: readonly Point[], width: number, height: number): string {
  const outline = getStroke(
    points.map(([x, y]) => [x * width, y * height]),
    { size: Math.max(2, width / 250), thinning: 0.5, smoothing: 0.5, streamline: 0.5 },
  );
  if (outline.length === 0) return '';
  const [first, ...rest] = outline;
  return `M${first![0].toFixed(1)},${first![1].toFixed(1)}${rest.map(([x, y]) => `L${x.toFixed(1)},${y.toFixed(1)}`).join('')}Z`;
}

/** The 3 × 3 regions of a page a keyboard user pins a note to. */
export const REGIONS: { label: string; at: Point }[] = ['en haut', 'au milieu', 'en bas'].flatMap((row, r) =>
  ['à gauche', 'au centre', 'à droite'].map((col, c) => ({
    label: r === 1 && c === 1 ? 'au centre' : `${row} ${col}`,
    at: [round((c + 0.5) / 3), round((r + 0.5) / 3)] as Point,
  })),
);

/** The region a point lies in (« en haut à gauche »). */
export function regionOf([x, y]: Point): string {
  const c = Math.min(2, Math.floor(clamp(x) * 3));
  const r = Math.min(2, Math.floor(clamp(y) * 3));
  return REGIONS[r * 3 + c]!.label;
}

/** A mark's anchor: where it is pinned (an ink stroke: its first point; a box: its corner). */
export function anchorOf(mark: Annotation): Point {
  return mark.kind === 'ink' ? mark.points[0]! : [mark.x, mark.y];
}

/** A mark moved by (dx, dy), kept on its page. */
export function moveMark(mark: Annotation, dx: number, dy: number): Annotation {
  if (mark.kind === 'ink') {
    const xs = mark.points.map((p) => p[0]);
    const ys = mark.points.map((p) => p[1]);
    const mx = Math.min(Math.max(dx, -Math.min(...xs)), 1 - Math.max(...xs));
    const my = Math.min(Math.max(dy, -Math.min(...ys)), 1 - Math.max(...ys));
    return { ...mark, points: mark.points.map(([x, y]) => [round(x + mx), round(y + my)] as Point) };
  }
  if (mark.kind === 'box') {
    return { ...mark, x: round(clamp(Math.min(mark.x + dx, 1 - mark.w))), y: round(clamp(Math.min(mark.y + dy, 1 - mark.h))) };
  }
  return { ...mark, x: round(clamp(mark.x + dx)), y: round(clamp(mark.y + dy)) };
}

/** How the list and screen readers name a mark. */
export function describeMark(mark: Annotation, itemText: (id: string) => string | undefined): string {
  switch (mark.kind) {
    case 'ink':
      return 'Trait à main levée';
    case 'box':
      return 'Cadre';
    case 'note':
      return `Note : ${mark.text}`;
    case 'tick':
      return 'Juste';
    case 'cross':
      return 'Faux';
    case 'item':
      return `Barème : ${itemText(mark.itemId) ?? 'élément retiré'}`;
    case 'bank':
      return `Remarque : ${mark.text}`;
  }
}

/** The box of two corners, drawn in any direction. */
export function boxOf([x1, y1]: Point, [x2, y2]: Point) {
  return { x: Math.min(x1, x2), y: Math.min(y1, y2), w: round(Math.abs(x2 - x1)), h: round(Math.abs(y2 - y1)) };
}

/** The drag-and-drop type of a scheme item or a bank remark dragged onto the page (its `Pending` as JSON). */
export const MARK_DRAG_TYPE = 'application/x-olympe-mark';
