/**
 * The one date module (docs/product.md#style (§12)): access dates are entered and shown as Europe/Paris wall-clock
 * time whatever the browser's zone (docs/product.md#spec-5). No dependency: the summer-time rule, checked against Intl.
 */

import { frenchTime } from './typography.js';

export const PARIS_TIME_ZONE = 'Europe/Paris';

/** 'YYYY-MM-DDTHH:mm', the value of an <input type="datetime-local">. */
export type WallClock = string;

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * Paris's offset by the rule in force since 1996 (European summer time, directive 2000/84/EC): UTC+2 from 01:00 UTC on
 * the last Sunday of March to 01:00 UTC on the last Sunday of October, UTC+1 otherwise. Plain arithmetic, not
 * `Intl`: a page's first `Intl.DateTimeFormat` with a time zone loads the browser's locale and zone data, a task of
 * 70–230 ms on a phone (decision 123), and every screen of a session shows a date. `dates.test.ts` checks this rule
 * against `Intl` (the tz database) every day of the years it covers and every quarter hour of each change day, so
 * that a change of the law seen in the tz database fails the tests. Outside those years, `Intl` answers.
 */
const RULE_YEARS = { first: 1996, last: 2099 };

/** 01:00 UTC on the last Sunday of a month (0-based), in ms. */
function lastSundayOneUtc(year: number, month: number): number {
  const lastDay = Date.UTC(year, month + 1, 0, 1);
  return lastDay - new Date(lastDay).getUTCDay() * 24 * 3600_000;
}

/** Paris's offset from UTC in minutes by the rule, or undefined outside the years it is checked for. */
function ruleOffsetMinutes(ms: number): number | undefined {
  const year = new Date(ms).getUTCFullYear();
  if (!(year >= RULE_YEARS.first && year <= RULE_YEARS.last)) return undefined;
  return ms >= lastSundayOneUtc(year, 2) && ms < lastSundayOneUtc(year, 9) ? 120 : 60;
}

/** Made at its first use, for the years the rule does not cover only. */
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
  const offset = ruleOffsetMinutes(ms);
  return offset === undefined ? intlParisParts(ms) : utcParts(ms + offset * 60_000);
}

function utcParts(ms: number): WallParts {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/** Paris's wall clock read from the tz database. */
function intlParisParts(ms: number): WallParts {
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
  // The rule gives it; only outside its years is it read back from Intl's wall clock.
  const byRule = ruleOffsetMinutes(ms);
  if (byRule !== undefined) return byRule;
  const p = intlParisParts(ms);
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

const MONTHS = ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'];

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

const WEEKDAYS = ['dimanche', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi'];

/** A date-only 'YYYY-MM-DD' with its weekday: 'samedi 13 mars 2027' (a qualification letter, decision 157). */
export function formatLongFrenchDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!m) return date;
  return `${WEEKDAYS[new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).getUTCDay()]} ${formatFrenchDate(date)}`;
}

/** The Paris calendar date of an instant, 'YYYY-MM-DD'. */
export function parisDateOf(instant: string | Date): string {
  return isoToParisWallClock(instant).slice(0, 10);
}
