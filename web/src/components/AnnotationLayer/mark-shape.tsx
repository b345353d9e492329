import type { Annotation } from '@olympe/contract';
import { inkPath } from './marks';

export interface Size {
  width: number;
  height: number;
}

const RED = '#c92a2a';
const GREEN = '#2b8a3e';
const INK = { red: RED, blue: '#1864ab', green: GREEN } as const;
const LABEL_MAX = 60;

const short = (text: string) => (text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX - 1)}…` : text);

/** A label pinned at a point: a note, a scheme item, a bank remark. */
function Label({ x, y, text, color, fill }: { x: number; y: number; text: string; color: string; fill: string }) {
  const shown = short(text);
  return (
    <g transform={`translate(${x},${y})`}>
      <circle r={5} fill={color} />
      <rect x={8} y={-11} width={shown.length * 7 + 10} height={22} rx={4} fill={fill} stroke={color} />
      <text x={13} y={5} fontSize={13} fill="#212529">
        {shown}
      </text>
    </g>
  );
}

/**
 * One mark drawn at the layer's size in pixels (decision 159); `color` draws another corrector's layer in their colour.
 * `data-mark-id` lets the select tool find the mark under the pointer.
 */
export function MarkShape({
  mark,
  size,
  color,
  selected,
  itemText,
}: {
  mark: Annotation;
  size: Size;
  color?: string;
  selected?: boolean;
  itemText: (id: string) => string | undefined;
}) {
  const { width: w, height: h } = size;
  const outline = selected ? { stroke: '#fab005', strokeWidth: 3 } : {};
  const body = (() => {
    switch (mark.kind) {
      case 'ink':
        return <path d={inkPath(mark.points, w, h)} fill={color ?? INK[mark.color]} {...outline} />;
      case 'box':
        return (
          <rect
            x={mark.x * w}
            y={mark.y * h}
            width={mark.w * w}
            height={mark.h * h}
            fill={color ?? '#ffd43b'}
            fillOpacity={0.25}
            stroke={selected ? '#fab005' : (color ?? '#f08c00')}
            strokeWidth={selected ? 3 : 2}
          />
        );
      case 'tick':
      case 'cross': {
        const c = color ?? (mark.kind === 'tick' ? GREEN : RED);
        const d = mark.kind === 'tick' ? 'M-10,0 L-3,8 L12,-10' : 'M-9,-9 L9,9 M9,-9 L-9,9';
        return (
          <g transform={`translate(${mark.x * w},${mark.y * h})`}>
            <circle r={16} fill="transparent" {...outline} />
            <path d={d} stroke={c} strokeWidth={4} fill="none" strokeLinecap="round" />
          </g>
        );
      }
      case 'note':
        return <Label x={mark.x * w} y={mark.y * h} text={mark.text} color={selected ? '#fab005' : (color ?? '#f08c00')} fill="#fff9db" />;
      case 'item':
        return (
          <Label
            x={mark.x * w}
            y={mark.y * h}
            text={`✓ ${itemText(mark.itemId) ?? ''}`}
            color={selected ? '#fab005' : (color ?? GREEN)}
            fill="#ebfbee"
          />
        );
      case 'bank':
        return <Label x={mark.x * w} y={mark.y * h} text={mark.text} color={selected ? '#fab005' : (color ?? '#1864ab')} fill="#e7f5ff" />;
    }
  })();
  return (
    <g data-mark-id={mark.id} data-kind={mark.kind} style={{ pointerEvents: color ? 'none' : undefined }}>
      {body}
    </g>
  );
}
