/**
 * How an upload's progress reads in French (decision 92): sizes and speeds with a decimal comma and a
 * no-break space before the unit (« 12,4 Mo/s »), the time left rounded as a person says it
 * (« environ 2 min restantes »). 1 Mo is 1 048 576 octets, as in the server's size limits.
 */

import { frenchHours, frenchNumberFormat, NBSP } from '@olympe/contract';

const KO = 1024;
const MO = 1024 * 1024;
const GO = 1024 * MO;

/** « 850 ko », « 12,4 Mo », « 1,2 Go »; below 1 ko, « 512 octets ». */
export function formatBytes(bytes: number): string {
  // Made at the first size shown, not when a screen's file loads (decision 121).
  const whole = frenchNumberFormat({ maximumFractionDigits: 0 });
  if (bytes < KO) return `${whole.format(bytes)}${NBSP}octet${bytes >= 2 ? 's' : ''}`;
  if (bytes < MO) return `${whole.format(bytes / KO)}${NBSP}ko`;
  if (bytes < GO)
    return `${(bytes < 100 * MO ? frenchNumberFormat({ maximumFractionDigits: 1, minimumFractionDigits: 1 }) : whole).format(bytes / MO)}${NBSP}Mo`;
  return `${frenchNumberFormat({ maximumFractionDigits: 1, minimumFractionDigits: 0 }).format(bytes / GO)}${NBSP}Go`;
}

/** « 12,4 Mo/s », « 850 ko/s ». */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** « quelques secondes restantes », « environ 40 s restantes », « environ 2 min restantes », « environ 1 h 05 restantes ». */
export function formatTimeLeft(seconds: number): string {
  const s = Math.max(0, seconds);
  if (s < 10) return 'quelques secondes restantes';
  if (s < 55) return `environ ${Math.round(s / 5) * 5}${NBSP}s restantes`;
  const minutes = Math.max(1, Math.round(s / 60));
  if (minutes < 60) return minutes === 1 ? `environ 1${NBSP}min restante` : `environ ${minutes}${NBSP}min restantes`;
  const hours = Math.floor(minutes / 60);
  return `environ ${frenchHours(hours, minutes % 60)} restantes`;
}

/**
 * The speed of a transfer over its last few seconds, from the byte counts it reports. A count that
 * goes back (a resume that re-sends the end of a cut chunk) or a pause (offline) starts a new window,
 * so the speed says what the connection does now.
 */
export function createRateMeter(windowMs = 5000) {
  let samples: Array<{ at: number; bytes: number }> = [];
  return {
    add(bytes: number, at = Date.now()) {
      const last = samples[samples.length - 1];
      if (last && (bytes < last.bytes || at - last.at > windowMs)) samples = [];
      samples.push({ at, bytes });
      while (samples.length > 2 && at - samples[1].at >= windowMs) samples.shift();
    },
    /** Bytes per second, or null until a second of transfer has been seen. */
    rate(): number | null {
      if (samples.length < 2) return null;
      const first = samples[0];
      const last = samples[samples.length - 1];
      const span = last.at - first.at;
      return span >= 1000 ? ((last.bytes - first.bytes) * 1000) / span : null;
    },
    reset() {
      samples = [];
    },
  };
}
