/**
 * The one date module (docs/product.md#style (§12)): access dates are entered and shown as Europe/Paris wall-clock
 * time whatever the browser's zone (docs/product.md#spec-5). Intl only, no dependency.
 */

import { frenchTime } from './typography.js';

export const PARIS_TIME_ZONE = 'Europe/Paris';

/** 'YYYY-MM-DDTHH:mm', the value of an <input type="datetime-local">. */
export type WallClock = string;

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * Made at its first use, not at load: a browser's first `Intl.DateTimeFormat` loads its locale data (about 14 ms on a
 * desktop, four times that on a phone), and a screen that shows no date need not pay it (decision 121).
 */
let partsFormatter: Intl.DateTimeFormat | undefined;
const parisFormatter = () =>
  (partsFormatter ??= new Intl.DateTimeFormat('en-US', {
    timeZone: PARIS_TIME_ZONE,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }));

interface WallParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function parisParts(ms: number): WallParts {
  const out: Record<string, number> = {};
  for (const p of parisFormatter().formatToParts(new Date(ms))) {
    if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return {
    year: out.year,
    month: out.month,
    day: out.day,
    hour: out.hour === 24 ? 0 : out.hour,
    minute: out.minute,
    second: out.second,
  };
}

/** Offset of Paris from UTC at an instant, in minutes (+60 in winter, +120 in summer). */
export function parisOffsetMinutes(ms: number): number {
  const p = parisParts(ms);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** An ISO instant (or Date) as Paris wall-clock 'YYYY-MM-DDTHH:mm'. */
export function isoToParisWallClock(instant: string | Date): WallClock {
  const ms = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  if (Number.isNaN(ms)) throw new RangeError(`Invalid instant: ${String(instant)}`);
  const p = parisParts(ms);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/** True for a well-formed 'YYYY-MM-DDTHH:mm' naming a real calendar date and time. */
export function isWallClock(value: string): boolean {
  const m = WALL_CLOCK.exec(value);
  if (!m) return false;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  const probe = new Date(Date.UTC(y, mo - 1, d, h, mi));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d && h < 24 && mi < 60;
}

/**
 * Paris wall-clock 'YYYY-MM-DDTHH:mm' to an ISO instant ('…Z'). Like Temporal's "compatible"
 * choice: a time that occurs twice (October change) takes the earlier instant; a time skipped by
 * the March change (02:00–02:59) is moved forward by the gap (02:30 → 03:30 summer time).
 */
export function parisWallClockToIso(wall: WallClock): string {
  if (!isWallClock(wall)) throw new RangeError(`Invalid wall-clock time: ${wall}`);
  const [y, mo, d, h, mi] = WALL_CLOCK.exec(wall)!.slice(1).map(Number);
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  const day = 24 * 3600_000;
  const offsets = [...new Set([parisOffsetMinutes(asUtc - day), parisOffsetMinutes(asUtc + day)])];
  const matches = offsets
    .map((o) => asUtc - o * 60_000)
    .filter((ms) => isoToParisWallClock(new Date(ms)) === wall)
    .sort((a, b) => a - b);
  // In a gap, the offset in force before the change lands after it, one gap later on the wall.
  const ms = matches[0] ?? asUtc - parisOffsetMinutes(asUtc - day) * 60_000;
  return new Date(ms).toISOString();
}

const MONTHS = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
];

/** 'le 29 mars 2026 à 3 h 00' without the article: '29 mars 2026 à 3 h 00', Paris time (frenchTime's no-break spaces). */
export function formatParisDateTime(instant: string | Date): string {
  const wall = isoToParisWallClock(instant);
  const [date, time] = wall.split('T');
  return `${formatFrenchDate(date)} à ${frenchTime(time)}`;
}

/** A date-only 'YYYY-MM-DD' (e.g. a birth date) as '5 mars 2010'; '1er' for the first of the month. */
export function formatFrenchDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!m) return date;
  const day = Number(m[3]);
  return `${day === 1 ? '1er' : day} ${MONTHS[Number(m[2]) - 1]} ${Number(m[1])}`;
}

/** The Paris calendar date of an instant, 'YYYY-MM-DD'. */
export function parisDateOf(instant: string | Date): string {
  return isoToParisWallClock(instant).slice(0, 10);
}
