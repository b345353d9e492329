import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppFrame, newQueryClient } from '../app';

describe('the notices’ file in the background (decision 127)', () => {
  afterEach(() => {
    // Unmounted while the stubs are still there (it cancels its idle callback).
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('is not asked for in the first 3 seconds of the page, then in its next idle moment', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const idleCallbacks: IdleRequestCallback[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => idleCallbacks.push(callback));
    vi.stubGlobal('cancelIdleCallback', vi.fn());
    render(
      <AppFrame client={newQueryClient()}>
        <p>Écran</p>
      </AppFrame>,
    );
    act(() => vi.advanceTimersByTime(2999));
    expect(idleCallbacks).toHaveLength(0);
    act(() => vi.advanceTimersByTime(1));
    expect(idleCallbacks).toHaveLength(1);
    expect(document.querySelector('.mantine-Notifications-root')).toBeNull();
    vi.useRealTimers();
    await act(async () => idleCallbacks[0]({ didTimeout: false, timeRemaining: () => 50 }));
    await vi.waitFor(() => expect(document.querySelector('.mantine-Notifications-root')).not.toBeNull());
  });
});
