import { centerDayRows, type AttendanceBody } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { findChapter } from '../chapters/service.js';
import type { Db, Tx } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { badRequest, notFound } from '../errors.js';
import { recordAttendance } from './attendance.js';
import { effectiveDetails } from './details.js';
import { renderAttendanceSheet, renderConvocations, type ExamCentre, type ExamPupil } from './exam-pdfs.js';
import { canGetCentreConvocations, centerInstitutionOf } from './policies.js';
import { getCenterOverview } from './overview.js';
import { findPaperChapter } from './queries.js';
import { centerDayXlsx, registeredPupilsXlsx } from './xlsx.js';

const centreRowShape = z.object({
  name: z.string(),
  inst_address: z.string(),
  opened: z.boolean().nullable(),
  is_pole: z.boolean().nullable(),
  instructions: z.string().nullable(),
  sitting_at: column.dateOrNull,
  address: z.string().nullable(),
  room: z.string().nullable(),
  bring: z.string().nullable(),
  chapter_start: column.dateOrNull,
});

/** A paper chapter's centre as its convocations and sheets show it. */
export async function loadExamCentre(db: Tx, chapterId: string, institutionId: string): Promise<ExamCentre & { validated: boolean }> {
  const chapter = await findPaperChapter(db, chapterId);
  const row = await one(
    db,
    centreRowShape,
    sql`
    SELECT i.name, i.address AS inst_address, c.opened, c.is_pole, c.instructions, c.sitting_at, c.address, c.room, c.bring,
      (SELECT min(g.access_start) FROM access_groups g WHERE g.chapter_id = ${chapterId}) AS chapter_start
    FROM institutions i LEFT JOIN centers c ON c.institution_id = i.id AND c.chapter_id = ${chapterId}
    WHERE i.id = ${institutionId}`,
  );
  if (!row) throw notFound('Établissement introuvable.');
  return {
    chapterId,
    chapterTitle: chapter.title,
    centreName: row.name,
    instructions: row.instructions ?? '',
    details: effectiveDetails(
      { sittingAt: row.sitting_at, address: row.address, room: row.room ?? '', bring: row.bring ?? '' },
      row.inst_address,
      row.chapter_start,
    ),
    validated: !!row.is_pole || row.opened === true,
  };
}

const examPupilShape = z.object({
  id: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  grade: z.string().nullable(),
  school: z.string().nullable(),
  present: z.boolean().nullable(),
});

/** The pupils registered at a centre (or one of them), sorted by name. */
export async function loadExamPupils(db: Tx, chapterId: string, institutionId: string, userId?: string): Promise<ExamPupil[]> {
  const list = await rows(
    db,
    examPupilShape,
    sql`
    SELECT u.id, u.first_name, u.last_name, u.grade, i.name AS school, r.present
    FROM center_registrations r JOIN users u ON u.id = r.user_id LEFT JOIN institutions i ON i.id = u.institution_id
    WHERE r.chapter_id = ${chapterId} AND r.institution_id = ${institutionId} ${userId ? sql`AND r.user_id = ${userId}` : sql``}
    ORDER BY lower(coalesce(u.last_name, '')), lower(coalesce(u.first_name, '')), u.id`,
  );
  return list.map((r) => ({
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    grade: r.grade,
    school: r.school,
    present: r.present,
  }));
}

/** The caller's registration centre for a chapter; 404 when they are not registered. */
async function registrationOf(db: Tx, chapterId: string, userId: string): Promise<string> {
  const row = await one(
    db,
    z.object({ institution_id: z.string() }),
    sql`
    SELECT institution_id FROM center_registrations WHERE chapter_id = ${chapterId} AND user_id = ${userId}`,
  );
  if (!row) throw notFound('Vous n’êtes inscrit dans aucun centre pour cette épreuve.');
  return row.institution_id;
}

/**
 * GET /center/convocation/{chapterId}.pdf: the pupil's own convocation, or all of the centre's
 * in one PDF for its staff. A convocation exists once the centre opened (or is a pole centre).
 */
export async function convocationPdf(
  db: Db,
  auth: AuthContext,
  chapterId: string,
  requested?: string,
): Promise<{ bytes: Uint8Array; name: string }> {
  const staff = canGetCentreConvocations(auth);
  const institutionId = staff ? centerInstitutionOf(auth, requested) : await registrationOf(db, chapterId, auth.userId);
  const centre = await loadExamCentre(db, chapterId, institutionId);
  if (!centre.validated)
    throw badRequest('Ce centre n’a pas encore confirmé qu’il organise l’épreuve : la convocation n’est pas encore disponible.');
  const pupils = await loadExamPupils(db, chapterId, institutionId, staff ? undefined : auth.userId);
  if (staff && pupils.length === 0) throw badRequest('Aucun élève n’est inscrit dans ce centre.');
  return { bytes: await renderConvocations(centre, pupils), name: staff ? `convocations-${centre.centreName}.pdf` : 'convocation.pdf' };
}

/** One pupil's convocation, for the mail that confirms the registration. */
export async function convocationOf(db: Db, chapterId: string, institutionId: string, userId: string) {
  const centre = await loadExamCentre(db, chapterId, institutionId);
  const pupils = await loadExamPupils(db, chapterId, institutionId, userId);
  return { centre, pupil: pupils[0] ?? null, bytes: pupils[0] ? await renderConvocations(centre, pupils) : null };
}

/** GET /center/attendance-sheet/{chapterId}.pdf: the feuille d’émargement of the caller's centre. */
export async function attendanceSheetPdf(
  db: Db,
  auth: AuthContext,
  chapterId: string,
  requested?: string,
): Promise<{ bytes: Uint8Array; name: string }> {
  const institutionId = centerInstitutionOf(auth, requested);
  const centre = await loadExamCentre(db, chapterId, institutionId);
  const pupils = await loadExamPupils(db, chapterId, institutionId);
  return { bytes: await renderAttendanceSheet(centre, pupils), name: `emargement-${centre.centreName}.pdf` };
}

/** GET /center/registered/{chapterId}.xlsx: the registered pupils as a spreadsheet. */
export async function registeredXlsx(
  db: Db,
  auth: AuthContext,
  chapterId: string,
  requested?: string,
): Promise<{ bytes: Uint8Array; name: string }> {
  const institutionId = centerInstitutionOf(auth, requested);
  const centre = await loadExamCentre(db, chapterId, institutionId);
  const pupils = await loadExamPupils(db, chapterId, institutionId);
  return { bytes: await registeredPupilsXlsx(pupils), name: `inscrits-${centre.centreName}.xlsx` };
}

/** GET /center/overview/{chapterId}/centres.xlsx (admins): the exam-day table per centre. */
export async function centerDayWorkbook(db: Db, chapterId: string): Promise<{ bytes: Uint8Array; name: string }> {
  const overview = await getCenterOverview(db, chapterId);
  const chapter = await findChapter(db, chapterId);
  return { bytes: await centerDayXlsx(centerDayRows(overview)), name: `centres_${chapter.title}.xlsx` };
}

/** PUT /center/attendance/{chapterId}: the staff's presence list for their centre. */
export async function putAttendance(
  db: Db,
  auth: AuthContext,
  chapterId: string,
  body: AttendanceBody,
  requested?: string,
): Promise<number> {
  const institutionId = centerInstitutionOf(auth, requested);
  await loadExamCentre(db, chapterId, institutionId);
  return recordAttendance(db, auth, chapterId, institutionId, body);
}
