import { describe, expect, it } from 'vitest';
import {
  formatFrenchDate,
  formatLongFrenchDate,
  formatParisDateTime,
  isoToParisWallClock,
  isWallClock,
  parisDateOf,
  parisOffsetMinutes,
  parisWallClockToIso,
} from './dates.js';

describe('Paris wall clock ↔ ISO instant', () => {
  it('uses +01:00 in winter and +02:00 in summer', () => {
    expect(parisWallClockToIso('2026-01-15T10:00')).toBe('2026-01-15T09:00:00.000Z');
    expect(parisWallClockToIso('2026-07-14T10:00')).toBe('2026-07-14T08:00:00.000Z');
    expect(isoToParisWallClock('2026-01-15T09:00:00Z')).toBe('2026-01-15T10:00');
    expect(isoToParisWallClock('2026-07-14T08:00:00.000Z')).toBe('2026-07-14T10:00');
    expect(parisOffsetMinutes(Date.parse('2026-01-15T09:00:00Z'))).toBe(60);
    expect(parisOffsetMinutes(Date.parse('2026-07-14T09:00:00Z'))).toBe(120);
  });

  it('crosses the spring change (2026-03-29, 02:00 → 03:00)', () => {
    expect(parisWallClockToIso('2026-03-29T01:59')).toBe('2026-03-29T00:59:00.000Z');
    expect(parisWallClockToIso('2026-03-29T03:00')).toBe('2026-03-29T01:00:00.000Z');
    // 02:30 does not exist: moved forward by the hour skipped.
    expect(parisWallClockToIso('2026-03-29T02:30')).toBe('2026-03-29T01:30:00.000Z');
    expect(isoToParisWallClock('2026-03-29T00:59:00Z')).toBe('2026-03-29T01:59');
    expect(isoToParisWallClock('2026-03-29T01:00:00Z')).toBe('2026-03-29T03:00');
    // The day before and after keep their own offset.
    expect(parisWallClockToIso('2026-03-28T12:00')).toBe('2026-03-28T11:00:00.000Z');
    expect(parisWallClockToIso('2026-03-30T12:00')).toBe('2026-03-30T10:00:00.000Z');
  });

  it('crosses the autumn change (2026-10-25, 03:00 → 02:00)', () => {
    expect(parisWallClockToIso('2026-10-25T01:30')).toBe('2026-10-24T23:30:00.000Z');
    // 02:30 happens twice: the earlier (summer-time) instant is taken.
    expect(parisWallClockToIso('2026-10-25T02:30')).toBe('2026-10-25T00:30:00.000Z');
    expect(parisWallClockToIso('2026-10-25T03:00')).toBe('2026-10-25T02:00:00.000Z');
    expect(isoToParisWallClock('2026-10-25T00:30:00Z')).toBe('2026-10-25T02:30');
    expect(isoToParisWallClock('2026-10-25T01:30:00Z')).toBe('2026-10-25T02:30');
    expect(isoToParisWallClock('2026-10-25T02:00:00Z')).toBe('2026-10-25T03:00');
  });

  it('round-trips every hour of both change days', () => {
    for (const day of ['2026-03-29', '2026-10-25']) {
      const start = Date.parse(`${day}T00:00:00Z`) - 2 * 3600_000;
      for (let h = 0; h < 28; h++) {
        const iso = new Date(start + h * 3600_000).toISOString();
        const wall = isoToParisWallClock(iso);
        const back = parisWallClockToIso(wall);
        // Only the second 02:xx of October maps back to the first one.
        expect(isoToParisWallClock(back)).toBe(wall);
      }
    }
  });

  it('rejects malformed or impossible wall-clock values', () => {
    expect(isWallClock('2026-02-30T10:00')).toBe(false);
    expect(isWallClock('2026-02-28T24:00')).toBe(false);
    expect(isWallClock('2026-02-28 10:00')).toBe(false);
    expect(isWallClock('2026-02-28T10:00')).toBe(true);
    expect(() => parisWallClockToIso('demain')).toThrow(RangeError);
    expect(() => isoToParisWallClock('nope')).toThrow(RangeError);
  });
});

describe('French formatting', () => {
  it('formats dates and Paris times in French', () => {
    expect(formatFrenchDate('2026-03-01')).toBe('1er mars 2026');
    expect(formatLongFrenchDate('2027-03-13')).toBe('samedi 13 mars 2027');
    expect(formatLongFrenchDate('2027-03-01')).toBe('lundi 1er mars 2027');
    expect(formatFrenchDate('2010-08-15')).toBe('15 août 2010');
    expect(formatParisDateTime('2026-03-29T01:00:00Z')).toBe('29 mars 2026 à 3 h 00');
    expect(formatParisDateTime('2026-12-31T23:30:00Z')).toBe('1er janvier 2027 à 0 h 30');
    expect(parisDateOf('2026-12-31T23:30:00Z')).toBe('2027-01-01');
  });
});

describe('the summer-time rule against the tz database (decision 123)', () => {
  const tzDatabase = new Intl.DateTimeFormat('en-US', {
    timeZone: 'Europe/Paris',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  /** 'YYYY-MM-DDTHH:mm' in Paris as the browser's tz database gives it. */
  const fromTzDatabase = (ms: number) => {
    const p = Object.fromEntries(tzDatabase.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
    return `${p.year}-${p.month}-${p.day}T${p.hour === '24' ? '00' : p.hour}:${p.minute}`;
  };

  it('gives the same wall clock as Intl at noon and midnight UTC of every day from 1996 to 2099', () => {
    const mismatches: string[] = [];
    for (let ms = Date.UTC(1996, 0, 1); ms < Date.UTC(2100, 0, 1); ms += 12 * 3600_000) {
      if (isoToParisWallClock(new Date(ms)) !== fromTzDatabase(ms)) mismatches.push(new Date(ms).toISOString());
    }
    expect(mismatches).toEqual([]);
  });

  it('changes at the same minute as Intl on every change day from 1996 to 2099', () => {
    const mismatches: string[] = [];
    for (let year = 1996; year < 2100; year++) {
      for (const month of [2, 9]) {
        // The last Sunday of the month, every quarter hour from 22:00 UTC the day before to 04:00 UTC, and the
        // minutes around 01:00 UTC.
        const last = Date.UTC(year, month + 1, 0);
        const sunday = last - new Date(last).getUTCDay() * 24 * 3600_000;
        const instants = [];
        for (let q = -8; q <= 16; q++) instants.push(sunday + q * 15 * 60_000);
        for (let m = 55; m <= 65; m++) instants.push(sunday + m * 60_000);
        for (const ms of instants) {
          if (isoToParisWallClock(new Date(ms)) !== fromTzDatabase(ms)) mismatches.push(new Date(ms).toISOString());
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('asks Intl outside those years', () => {
    // 1995's autumn change was on the last Sunday of September (24 September, 01:00 UTC): the rule would say summer.
    expect(isoToParisWallClock('1995-09-30T12:00:00Z')).toBe(fromTzDatabase(Date.parse('1995-09-30T12:00:00Z')));
    expect(isoToParisWallClock('1995-09-30T12:00:00Z')).toBe('1995-09-30T13:00');
    expect(isoToParisWallClock('2100-07-01T12:00:00Z')).toBe(fromTzDatabase(Date.parse('2100-07-01T12:00:00Z')));
  });

  it('makes no Intl date formatter for the years of the rule', () => {
    const made: unknown[] = [];
    const { DateTimeFormat } = Intl;
    const spy = function (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
      made.push(args);
      return new DateTimeFormat(...args);
    };
    Intl.DateTimeFormat = spy as unknown as typeof Intl.DateTimeFormat;
    try {
      formatParisDateTime('2026-11-30T08:00:00Z');
      parisWallClockToIso('2026-03-29T02:30');
      parisOffsetMinutes(Date.parse('2026-07-14T09:00:00Z'));
    } finally {
      Intl.DateTimeFormat = DateTimeFormat;
    }
    expect(made).toEqual([]);
  });
});
