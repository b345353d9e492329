import { normalizeText, pseudonymOf, type OverviewPage, type OverviewQuery, type OverviewRow } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { rows } from '../db/query.js';
import { doubleStatus, visibleGradings } from './double.js';
import { gradingsOf, overviewCountQuery, overviewOrder, overviewPageQuery, type GradingRow, type OverviewPageRow, type OverviewSelection } from './queries.js';
import { giveTablePseudonyms, loadChapter, presentGrading, presentStudent, seesPseudonyms } from './service.js';

/**
 * GET /answer/overview/{chapterId}?limit=… (decision 94): the review page asks for what it shows. The server
 * filters (the page's three accent-insensitive filters), sorts (any column, French name order) and pages
 * (`limit` rows from `offset`); `limit=0` gives the counts alone. Rows are the same as the whole list's
 * (listOverview): pseudonyms under anonymous correction, gradings a corrector may see in double correction.
 */
export async function listOverviewPage(db: Db, auth: AuthContext, chapterId: string, query: OverviewQuery & { limit: number }): Promise<OverviewPage> {
  const chapter = await loadChapter(db, chapterId);
  const double = chapter.double_grading;
  const exerciseIds = (
    await rows<{ id: string }>(db, sql`SELECT id FROM exercises WHERE chapter_id = ${chapterId}::uuid AND deleted_at IS NULL`)
  ).map((e) => e.id);
  if (exerciseIds.length === 0) return query.limit === 0 ? { rows: [], next: null, double, total: 0, matched: 0 } : { rows: [], next: null, double };
  const anonymous = seesPseudonyms(auth, chapter);
  // The pseudonym filter and order read grading_pseudonyms, which must then hold every pupil listed.
  if (anonymous) await giveTablePseudonyms(db, chapterId, exerciseIds);
  const selection: OverviewSelection = {
    chapterId,
    exerciseIds,
    double,
    anonymous,
    viewer: { userId: auth.userId, isAdmin: auth.isAdmin },
    filters: { student: normalizeText(query.student), grader: normalizeText(query.grader), exercise: normalizeText(query.exercise) },
  };
  if (query.limit === 0) {
    const [counts] = await rows<{ total: number; matched: number }>(db, overviewCountQuery(selection));
    return { rows: [], next: null, double, total: Number(counts.total), matched: Number(counts.matched) };
  }
  const offset = query.offset ?? 0;
  const sort = query.sort ?? 'date';
  const order = overviewOrder(sort, query.dir ?? (sort === 'date' ? 'desc' : 'asc'), anonymous);
  const found = await rows<OverviewPageRow>(db, overviewPageQuery(selection, order, query.limit + 1, offset));
  const more = found.length > query.limit;
  const shown = more ? found.slice(0, query.limit) : found;
  const byAnswer = new Map<string, GradingRow[]>();
  if (double) {
    for (const g of await gradingsOf(db, shown.map((r) => r.id))) byAnswer.set(g.answer_id, [...(byAnswer.get(g.answer_id) ?? []), g]);
  }
  return {
    rows: shown.map((r) => {
      const row: OverviewRow = {
        _id: r.id,
        student: anonymous
          ? presentStudent(r.copy_id!, null, null, pseudonymOf(Number(r.number)))
          : presentStudent(r.user_id, r.s_first, r.s_last, undefined),
        grader: r.grader_id ? { _id: r.grader_id, firstName: r.g_first, lastName: r.g_last } : null,
        exercise: { _id: r.exercise_id, title: r.title, maxPoints: r.max_points },
        grade: r.grade,
        grade_comment: r.grade_comment,
        grade_timestamp: r.grade_timestamp,
      };
      if (double) {
        const gradings = byAnswer.get(r.id) ?? [];
        row.status = doubleStatus(gradings, chapter.grading_tolerance);
        row.gradings = (auth.isAdmin ? gradings : visibleGradings(gradings, auth.userId)).map(presentGrading);
      }
      return row;
    }),
    next: more ? offset + query.limit : null,
    double,
  };
}
