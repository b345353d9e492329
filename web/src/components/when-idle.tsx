import { useEffect, useState, type ReactNode } from 'react';
import { onIdle } from '../lib/idle';

/**
 * Its children once the browser has had a quiet moment since it was put on the page, or at once when `now` is: for
 * something a screen may show later (a dialog whose file is loaded when it is first rendered), which must not share
 * a phone's slow line and CPU with what the screen shows first (decision 127). A browser without
 * `requestIdleCallback` waits half a second.
 */
export function WhenIdle({ now, children }: { now: boolean; children: ReactNode }) {
  const [idle, setIdle] = useState(false);
  useEffect(() => onIdle(() => setIdle(true), 500), []);
  return idle || now ? children : null;
}
