import { useCallback, useEffect, useState } from 'react';

/**
 * A whole-second countdown: after `start(n)`, `remaining` goes n, n-1, ... 0.
 * It is computed from a deadline rather than by counting ticks, because browsers throttle
 * timers in background tabs and a tick counter would then run slow.
 */
export function useCountdown() {
  const [deadline, setDeadline] = useState<number | null>(null);
  const [remaining, setRemaining] = useState(0);

  useEffect(() => {
    if (deadline === null) return;
    const update = () => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setRemaining(left);
      if (left === 0) setDeadline(null);
    };
    update();
    const timer = setInterval(update, 1000);
    return () => clearInterval(timer);
  }, [deadline]);

  /** `from`: when the duration was true, e.g. when the server's answer arrived (default: now). */
  const start = useCallback((seconds: number, from: number = Date.now()) => {
    const deadline = from + seconds * 1000;
    // Set at once, not on the next effect, so the caller is disabled in the very same render.
    setRemaining(Math.max(0, Math.ceil((deadline - Date.now()) / 1000)));
    setDeadline(deadline);
  }, []);
  /** Ends the countdown at once (e.g. the request it guarded was refused). */
  const stop = useCallback(() => {
    setRemaining(0);
    setDeadline(null);
  }, []);
  return { remaining, start, stop };
}
