import { fireEvent, screen } from '@testing-library/react';
import { useEffect, useState, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { RegionPicker, type PagePlace } from './region-picker';

// pdf.js does not draw in jsdom: the viewer stands for a two-page copy and its overlays.
vi.mock('../../components/PdfView', () => ({
  PdfView: ({ overlay, onPages }: { overlay?: (page: number) => ReactNode; onPages?: (n: number) => void }) => {
    useEffect(() => onPages?.(2), [onPages]);
    return (
      <div>
        {overlay?.(0)}
        {overlay?.(1)}
      </div>
    );
  },
}));

function renderPicker() {
  const onChange = vi.fn();
  function Harness() {
    const [value, setValue] = useState<PagePlace | null>(null);
    return (
      <RegionPicker
        pdf="pdfs/copie.pdf"
        annotations={[]}
        value={value}
        onChange={(place) => {
          onChange(place);
          setValue(place);
        }}
      />
    );
  }
  renderWithProviders(<Harness />);
  return onChange;
}

/** A page drawn 500 × 700 px at (10, 20) in the window. */
function layerOf(page: number) {
  const layer = screen.getByTestId(`region-layer-${page}`);
  layer.getBoundingClientRect = () => ({
    left: 10,
    top: 20,
    width: 500,
    height: 700,
    right: 510,
    bottom: 720,
    x: 10,
    y: 20,
    toJSON: () => '',
  });
  return layer;
}

function drag(layer: Element, from: [number, number], to: [number, number]) {
  const at = ([clientX, clientY]: [number, number]) => ({
    pointerId: 3,
    pointerType: 'mouse',
    button: 0,
    isPrimary: true,
    clientX,
    clientY,
  });
  fireEvent.pointerDown(layer, at(from));
  fireEvent.pointerMove(layer, at([(from[0] + to[0]) / 2, (from[1] + to[1]) / 2]));
  fireEvent.pointerMove(layer, at(to));
  fireEvent.pointerUp(layer, at(to));
}

describe('RegionPicker (decision 162)', () => {
  it('turns a box dragged on a page into page fractions, whichever way it was drawn', () => {
    const onChange = renderPicker();
    // From the bottom right to the top left of the box, on the second page.
    drag(layerOf(1), [310, 160], [110, 90]);
    expect(onChange).toHaveBeenLastCalledWith({ page: 1, region: { x: 0.2, y: 0.1, w: 0.4, h: 0.1 } });
    expect(screen.getAllByTestId('region-box')).toHaveLength(1);
    expect(screen.getByTestId('region-layer-1').contains(screen.getByTestId('region-box'))).toBe(true);
  });

  it('marks nothing for a click without a drag', () => {
    const onChange = renderPicker();
    drag(layerOf(0), [200, 200], [201, 201]);
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.queryByTestId('region-box')).toBeNull();
  });

  it('gives the keyboard the page and one of the nine regions as a box', async () => {
    const onChange = renderPicker();
    fireEvent.click(screen.getByLabelText('Page', { selector: 'input' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Page 2', hidden: true }));
    expect(onChange).toHaveBeenLastCalledWith({ page: 1, region: { x: 0.3333, y: 0.3333, w: 0.3333, h: 0.3333 } });
    fireEvent.click(screen.getByLabelText('Zone de la page', { selector: 'input' }));
    fireEvent.click(await screen.findByRole('option', { name: 'en bas à droite', hidden: true }));
    expect(onChange).toHaveBeenLastCalledWith({ page: 1, region: { x: 0.6667, y: 0.6667, w: 0.3333, h: 0.3333 } });
    fireEvent.click(screen.getByLabelText('Zone de la page', { selector: 'input' }));
    fireEvent.click(await screen.findByRole('option', { name: 'en haut à gauche', hidden: true }));
    expect(onChange).toHaveBeenLastCalledWith({ page: 1, region: { x: 0, y: 0, w: 0.3333, h: 0.3333 } });
  });
});
