import type { CSSProperties } from 'react';
import type { Annotation } from '@olympe/contract';

/**
 * A corrector's marks drawn over one rendered page, read-only (docs/product.md#returned-copies, decision 159): an SVG
 * in page fractions for ink, boxes, ticks and crosses, and labels for notes, scheme items and bank remarks. It sits
 * over the page (`position: absolute`, the page's box) and lets clicks through unless `onPick` makes marks choosable.
 */
export interface AnnotationViewProps {
  annotations: readonly Annotation[];
  /** 0-based page this layer covers. */
  page: number;
  /** Scheme items' texts by id. */
  items?: Readonly<Record<string, string>>;
  /** The mark chosen (a regrade request points at it): drawn thicker. */
  selected?: string | null;
  /** Makes marks clickable (the regrade form picks one). */
  onPick?: (annotation: Annotation) => void;
}

const COLORS = { red: '#d10d0d', blue: '#1a40d9', green: '#0d8c26' } as const;
const cover: CSSProperties = { position: 'absolute', inset: 0, width: '100%', height: '100%' };
const pct = (f: number) => `${(f * 100).toFixed(3)}%`;

/** What a mark says in words (the list under the page, the regrade form, screen readers). */
export function annotationText(a: Annotation, items: Readonly<Record<string, string>> = {}): string {
  switch (a.kind) {
    case 'note':
      return a.text;
    case 'bank':
      return `Remarque\u00a0: ${a.text}`;
    case 'item':
      return `Barème\u00a0: ${items[a.itemId] ?? a.itemId}`;
    case 'tick':
      return 'Coche';
    case 'cross':
      return 'Croix';
    case 'box':
      return 'Zone encadrée';
    case 'ink':
      return 'Trait à main levée';
  }
}

function Shape({ a, selected, onPick }: { a: Annotation; selected: boolean; onPick?: (a: Annotation) => void }) {
  const width = selected ? 4 : 2;
  const common = {
    fill: 'none',
    strokeWidth: width,
    vectorEffect: 'non-scaling-stroke' as const,
    strokeLinecap: 'round' as const,
    strokeLinejoin: 'round' as const,
    style: onPick ? ({ pointerEvents: 'stroke', cursor: 'pointer' } as CSSProperties) : undefined,
    onClick: onPick ? () => onPick(a) : undefined,
    'data-annotation': a.id,
  };
  const k = 0.012;
  switch (a.kind) {
    case 'ink':
      return <polyline {...common} stroke={COLORS[a.color]} points={a.points.map(([x, y]) => `${x},${y}`).join(' ')} />;
    case 'box':
      return <rect {...common} stroke={COLORS.red} x={a.x} y={a.y} width={a.w} height={a.h} />;
    case 'tick':
      return (
        <polyline
          {...common}
          stroke={COLORS.green}
          points={`${a.x - k},${a.y} ${a.x - k / 5},${a.y + k} ${a.x + k * 1.4},${a.y - k * 1.4}`}
        />
      );
    case 'cross':
      return (
        <path
          {...common}
          stroke={COLORS.red}
          d={`M${a.x - k},${a.y - k} L${a.x + k},${a.y + k} M${a.x - k},${a.y + k} L${a.x + k},${a.y - k}`}
        />
      );
    default:
      return null;
  }
}

export function AnnotationView({ annotations, page, items = {}, selected = null, onPick }: AnnotationViewProps) {
  const mine = annotations.filter((a) => a.page === page);
  const labels = mine.filter((a) => a.kind === 'note' || a.kind === 'item' || a.kind === 'bank');
  return (
    <div style={{ ...cover, pointerEvents: 'none' }} data-testid={`annotations-page-${page}`}>
      <svg viewBox="0 0 1 1" preserveAspectRatio="none" style={cover} aria-hidden="true">
        {mine.map((a) => (
          <Shape key={a.id} a={a} selected={a.id === selected} onPick={onPick} />
        ))}
      </svg>
      {labels.map((a) => {
        if (a.kind !== 'note' && a.kind !== 'item' && a.kind !== 'bank') return null;
        const style: CSSProperties = {
          position: 'absolute',
          left: pct(a.x),
          top: pct(a.y),
          maxWidth: '40%',
          padding: '1px 4px',
          fontSize: 12,
          lineHeight: 1.3,
          background: 'rgba(255, 255, 235, 0.92)',
          border: `${a.id === selected ? 2 : 1}px solid ${a.kind === 'item' ? COLORS.blue : COLORS.red}`,
          color: a.kind === 'item' ? COLORS.blue : COLORS.red,
          whiteSpace: 'pre-wrap',
          pointerEvents: onPick ? 'auto' : 'none',
          cursor: onPick ? 'pointer' : undefined,
        };
        const text = annotationText(a, items);
        return onPick ? (
          <button key={a.id} type="button" style={{ ...style, font: 'inherit', fontSize: 12, textAlign: 'left' }} onClick={() => onPick(a)}>
            {text}
          </button>
        ) : (
          <div key={a.id} style={style}>
            {text}
          </div>
        );
      })}
    </div>
  );
}
