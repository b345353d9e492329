import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PdfView } from './PdfView';

// A loaded one-page document in a view 300 px wide; pdf.js itself never runs here.
const drawPage = vi.hoisted(() => vi.fn());
vi.mock('./use-pdf', () => ({
  PDF_FAILED_TEXT: 'Ce PDF n’a pas pu être affiché.',
  usePdfDocument: () => ({ doc: { numPages: 1 }, failed: false }),
  useElementWidth: () => 300,
  usePageCanvas: drawPage,
}));
// jsdom does not scroll: the page's scroll after a pinch is the journey's to check.
window.scrollBy = () => {};

/** The width the page was last drawn at. */
const drawnWidth = () => (drawPage.mock.lastCall?.[3] as { width: number }).width;

/** A touch event with the fingers at these points (jsdom has no Touch constructor). */
function touch(target: Element, type: string, points: Array<[number, number]>) {
  const event = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'touches', { value: points.map(([clientX, clientY]) => ({ clientX, clientY })) });
  act(() => {
    target.dispatchEvent(event);
  });
  return event;
}

function renderView() {
  render(
    <MantineProvider>
      <PdfView path="pdfs/copie.pdf" label="Copie" />
    </MantineProvider>,
  );
  return { view: screen.getByRole('region', { name: 'Copie : pages' }), zoom: screen.getByTestId('pdf-zoom') };
}

describe('PdfView pinch zoom (decision 65)', () => {
  it('zooms as two fingers move apart, previews by CSS, and draws at the new zoom when they lift', () => {
    const { view, zoom } = renderView();
    const pages = screen.getByRole('img', { name: 'Copie, page 1 sur 1' }).parentElement!;
    expect(zoom.textContent).toBe('100\u202f%');
    expect(drawnWidth()).toBe(300);
    const start = touch(view, 'touchstart', [
      [100, 100],
      [200, 100],
    ]);
    // Taken from the browser, which would otherwise zoom the whole app.
    expect(start.defaultPrevented).toBe(true);
    expect(
      touch(view, 'touchmove', [
        [50, 100],
        [250, 100],
      ]).defaultPrevented,
    ).toBe(true);
    expect(pages.style.transform).toBe('scale(2)');
    // Not yet drawn again: the zoom changes when a finger lifts.
    expect(zoom.textContent).toBe('100\u202f%');
    expect(drawnWidth()).toBe(300);
    touch(view, 'touchend', [[50, 100]]);
    expect(zoom.textContent).toBe('200\u202f%');
    expect(pages.style.transform).toBe('');
    expect(drawnWidth()).toBe(600);
    expect(screen.getByRole('button', { name: 'Ajuster à la largeur' })).toHaveProperty('disabled', false);
  });

  it('stays within the buttons’ range, and pinching in goes back down', () => {
    const { view, zoom } = renderView();
    touch(view, 'touchstart', [
      [100, 100],
      [110, 100],
    ]);
    touch(view, 'touchmove', [
      [0, 100],
      [300, 100],
    ]);
    touch(view, 'touchend', []);
    expect(zoom.textContent).toBe('400\u202f%');
    expect(screen.getByRole('button', { name: 'Zoom avant' })).toHaveProperty('disabled', true);
    touch(view, 'touchstart', [
      [0, 100],
      [300, 100],
    ]);
    touch(view, 'touchmove', [
      [145, 100],
      [155, 100],
    ]);
    touch(view, 'touchcancel', []);
    expect(zoom.textContent).toBe('50\u202f%');
    // The keyboard's way back still works after a pinch.
    fireEvent.click(screen.getByRole('button', { name: 'Ajuster à la largeur' }));
    expect(zoom.textContent).toBe('100\u202f%');
  });

  it('leaves one finger to the browser (scrolling)', () => {
    const { view, zoom } = renderView();
    expect(touch(view, 'touchstart', [[100, 100]]).defaultPrevented).toBe(false);
    expect(touch(view, 'touchmove', [[100, 300]]).defaultPrevented).toBe(false);
    touch(view, 'touchend', []);
    expect(zoom.textContent).toBe('100\u202f%');
  });
});
