import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCountdown } from './use-countdown';

describe('useCountdown', () => {
  beforeEach(() => vi.useFakeTimers({ now: new Date('2026-03-14T14:00:00Z') }));
  afterEach(() => vi.useRealTimers());

  it('counts from the moment the duration was true, not from the render that starts it', () => {
    const { result } = renderHook(() => useCountdown());
    // The server said 60 s; its answer arrived 1.5 s before the page started the countdown.
    act(() => result.current.start(60, Date.now() - 1500));
    expect(result.current.remaining).toBe(59);
    act(() => vi.advanceTimersByTime(10_000));
    expect(result.current.remaining).toBe(49);
  });

  it('stops at zero', () => {
    const { result } = renderHook(() => useCountdown());
    act(() => result.current.start(3));
    expect(result.current.remaining).toBe(3);
    act(() => vi.advanceTimersByTime(5_000));
    expect(result.current.remaining).toBe(0);
  });
});
