import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WhenIdle } from './when-idle';

describe('WhenIdle (decision 127)', () => {
  // The browser's quiet moments are given by the test.
  let idleCallbacks: IdleRequestCallback[] = [];
  const beIdle = () =>
    act(() => {
      const callbacks = idleCallbacks;
      idleCallbacks = [];
      for (const callback of callbacks) callback({ didTimeout: false, timeRemaining: () => 50 });
    });
  beforeEach(() => {
    idleCallbacks = [];
    vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => idleCallbacks.push(callback));
    vi.stubGlobal('cancelIdleCallback', vi.fn());
  });
  afterEach(() => {
    // Unmounted while the stubs are still there (it cancels its callback).
    cleanup();
    vi.unstubAllGlobals();
  });

  it('puts its children on the page once the browser is idle, and keeps them there', () => {
    const { rerender } = render(<WhenIdle now={false}>le dialogue</WhenIdle>);
    expect(screen.queryByText('le dialogue')).toBeNull();
    beIdle();
    expect(screen.getByText('le dialogue')).toBeTruthy();
    rerender(<WhenIdle now={false}>le dialogue</WhenIdle>);
    expect(screen.getByText('le dialogue')).toBeTruthy();
    expect(idleCallbacks).toEqual([]);
  });

  it('puts them at once when they are asked for before (a click on the button that opens the dialog)', () => {
    const { rerender } = render(<WhenIdle now={false}>le dialogue</WhenIdle>);
    expect(screen.queryByText('le dialogue')).toBeNull();
    rerender(<WhenIdle now>le dialogue</WhenIdle>);
    expect(screen.getByText('le dialogue')).toBeTruthy();
  });

  it('waits half a second in a browser without idle callbacks', () => {
    vi.stubGlobal('requestIdleCallback', undefined);
    vi.useFakeTimers();
    try {
      render(<WhenIdle now={false}>le dialogue</WhenIdle>);
      act(() => vi.advanceTimersByTime(499));
      expect(screen.queryByText('le dialogue')).toBeNull();
      act(() => vi.advanceTimersByTime(1));
      expect(screen.getByText('le dialogue')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});
