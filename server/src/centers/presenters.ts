import type { Center, CenterMember, CenterOption, CenterOverview, OverviewUser } from '@olympe/contract';
import type { centers } from '../db/schema.js';
import { effectiveDetails } from './details.js';
import type { MemberRow, OptionRow } from './queries.js';
import { isExtraOption, type Viewer } from './policies.js';
import { computeCenterStatus, isCenterValidated, type CenterFacts } from './status.js';

/** Rows → the contract's centre shapes (docs/architecture.md « Response shaping »). */

type CenterRow = typeof centers.$inferSelect;
type DayStats = Center['stats'];

const NO_STATS: DayStats = { registered: 0, present: 0, absent: 0, copies: 0, pagesSorted: 0 };

export const factsOf = (row: { opened: boolean | null; nbPlaces: number; isPole: boolean } | null): CenterFacts | null =>
  row ? { opened: row.opened, nbPlaces: row.nbPlaces, isPole: row.isPole } : null;

const optionFactsOf = (r: OptionRow): CenterFacts | null =>
  r.has_center ? { opened: r.opened, nbPlaces: Number(r.nb_places ?? 0), isPole: !!r.is_pole } : null;

export const presentMember = (r: MemberRow): CenterMember => ({
  _id: r.id,
  firstName: r.first_name,
  lastName: r.last_name,
  grade: r.grade as CenterMember['grade'],
  institution: r.institution_id ? { _id: r.institution_id, name: r.institution_name ?? '' } : null,
  ...(typeof r.changed_ms === 'number'
    ? {
        schoolChange: {
          at: new Date(r.changed_ms).toISOString(),
          previous: r.previous_id ? { _id: r.previous_id, name: r.previous_name ?? '' } : null,
        },
      }
    : {}),
  present: r.present ?? null,
});

export const presentOverviewUser = (r: MemberRow): OverviewUser => {
  const { schoolChange: _, present: __, ...member } = presentMember(r);
  return { ...member, email: r.email };
};

/** GET /center/{chapterId}: the centre row (or its absence), the school and its registered pupils. */
export function presentCenter(input: {
  institution: { id: string; name: string; address: string };
  row: CenterRow | null;
  members: MemberRow[];
  chapterStart: Date | null;
  stats: DayStats | undefined;
}): Center {
  const { institution, row, members } = input;
  const outside = members.filter((m) => m.institution_id !== institution.id).length;
  return {
    institution: { _id: institution.id, name: institution.name },
    opened: row?.opened ?? null,
    instructions: row?.instructions ?? '',
    nb_places: row?.nbPlaces ?? 0,
    isPole: row?.isPole ?? false,
    status: computeCenterStatus(factsOf(row), outside),
    members: members.map(presentMember),
    details: effectiveDetails(row, institution.address, input.chapterStart),
    own: {
      sittingAt: row?.sittingAt ? row.sittingAt.toISOString() : null,
      address: row?.address ?? null,
      room: row?.room ?? '',
      bring: row?.bring ?? '',
    },
    stats: input.stats ?? NO_STATS,
  };
}

export function presentOption(r: OptionRow, viewer: Viewer): CenterOption {
  const facts = optionFactsOf(r);
  const status = computeCenterStatus(facts, Number(r.outside));
  return {
    _id: r.id,
    name: r.name,
    address: r.address,
    latitude: r.latitude,
    longitude: r.longitude,
    status,
    // docs/product.md#spec-4: instructions only once the centre is open (a pole centre is open to all).
    instructions: isCenterValidated(facts) ? (r.instructions ?? '') : '',
    details: isCenterValidated(facts)
      ? effectiveDetails(
          { sittingAt: r.sitting_at, address: r.center_address, room: r.room ?? '', bring: r.bring ?? '' },
          r.address,
          r.chapter_start,
        )
      : null,
    own: r.id === viewer.institutionId,
    extra: isExtraOption(viewer, { institutionId: r.id, status }),
  };
}

/** A centre of the overview, with its registered pupils and exam-day counts. */
export function presentOverviewCentre(
  c: OptionRow,
  members: OverviewUser[],
  stats: DayStats | undefined,
): CenterOverview['members'][number] {
  const facts = optionFactsOf(c);
  return {
    institution: { _id: c.id, name: c.name },
    validated: isCenterValidated(facts),
    opened: facts?.opened ?? null,
    isPole: facts?.isPole ?? false,
    status: computeCenterStatus(facts, Number(c.outside)),
    members,
    stats: stats ?? NO_STATS,
  };
}

export const presentRefusals = (list: Array<{ id: string; name: string; at: Date }>) =>
  list.map((r) => ({ institution: { _id: r.id, name: r.name }, at: r.at.toISOString() }));
