import { DEFAULT_BRING_TEXT, parisWallClockToIso, type CenterDetails } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../db/client.js';
import { column, one } from '../db/query.js';

/** The centre's own detail values (null / empty: the default applies). */
export interface OwnDetails {
  sittingAt: Date | string | null;
  address: string | null;
  room: string;
  bring: string;
}

const iso = (d: Date | string) => (typeof d === 'string' ? new Date(d) : d).toISOString();

/**
 * Decision 59: what a pupil is told, each value the centre's or its default — the chapter's first
 * access start for the date (a paper chapter opens when the pupils sit it), the institution's
 * postal address, the default list of what to bring.
 */
export function effectiveDetails(own: OwnDetails | null, institutionAddress: string, chapterStart: Date | string | null): CenterDetails {
  const sitting = own?.sittingAt ?? null;
  const address = own?.address?.trim() ? own.address.trim() : null;
  const bring = own?.bring.trim() ? own.bring.trim() : null;
  return {
    sittingAt: sitting ? iso(sitting) : chapterStart ? iso(chapterStart) : null,
    address: address ?? institutionAddress,
    room: own?.room.trim() ?? '',
    bring: bring ?? DEFAULT_BRING_TEXT,
    defaults: { sittingAt: !sitting, address: !address, bring: !bring },
  };
}

/** The chapter's default sitting: its earliest access start. */
export async function chapterStartOf(db: Tx, chapterId: string): Promise<Date | null> {
  const row = await one(
    db,
    z.object({ start: column.dateOrNull }),
    sql`
    SELECT min(access_start) AS start FROM access_groups WHERE chapter_id = ${chapterId}`,
  );
  return row?.start ? new Date(row.start) : null;
}

/** A patched wall clock (Paris) to the stored instant; null clears it. */
export const sittingFromWallClock = (wall: string | null) => (wall ? new Date(parisWallClockToIso(wall)) : null);
