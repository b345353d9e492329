import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WhenNear } from './when-near';

describe('WhenNear', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('holds the place empty until the box comes near the viewport, then mounts its content', () => {
    let report: ((entries: Array<{ isIntersecting: boolean }>) => void) | undefined;
    const observed: Element[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: (entries: Array<{ isIntersecting: boolean }>) => void) {
          report = callback;
        }
        observe(element: Element) {
          observed.push(element);
        }
        disconnect() {}
      },
    );
    const { container } = render(
      <WhenNear minHeight={120}>
        <p>Panneau des centres</p>
      </WhenNear>,
    );
    expect(screen.queryByText('Panneau des centres')).toBeNull();
    expect((container.firstChild as HTMLElement).style.minHeight).toBe('120px');
    expect(observed).toEqual([container.firstChild]);
    act(() => report!([{ isIntersecting: false }]));
    expect(screen.queryByText('Panneau des centres')).toBeNull();
    act(() => report!([{ isIntersecting: true }]));
    expect(screen.getByText('Panneau des centres')).toBeTruthy();
  });

  it('mounts at once where the browser has no IntersectionObserver', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(
      <WhenNear minHeight={120}>
        <p>Panneau des centres</p>
      </WhenNear>,
    );
    expect(screen.getByText('Panneau des centres')).toBeTruthy();
  });
});
