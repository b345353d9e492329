import { useEffect, useState } from 'react';
import type { SessionStateView } from '@olympe/contract';
import { useCountdown } from './use-countdown';

/**
 * docs/product.md#spec-4: the countdown starts from the server's remainingTime at receipt (never the browser's
 * absolute clock: only the time elapsed since the answer arrived counts), ticks each second, and
 * calls `onZero` at zero. Null when unlimited.
 */
export function useServerCountdown(state: SessionStateView | undefined, receivedAt: number, onZero: () => void): number | null {
  const { remaining, start } = useCountdown();
  const [running, setRunning] = useState(false);
  const initial = state?.remainingTime ?? null;
  useEffect(() => {
    if (initial !== null && initial > 0) {
      start(initial, receivedAt || Date.now());
      setRunning(true);
    } else {
      setRunning(false);
    }
  }, [initial, receivedAt, start]);
  useEffect(() => {
    if (running && remaining === 0) {
      setRunning(false);
      onZero();
    }
  }, [running, remaining, onZero]);
  if (initial === null) return null;
  return running ? remaining : initial;
}
