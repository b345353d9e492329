import type { UnlabeledAnswer } from '@olympe/contract';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import { findChapter } from '../chapters/service.js';
import type { Db } from '../db/client.js';
import { files, institutions, unlabeledAnswers } from '../db/schema.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { enqueueDecode } from '../sheets/decode-job.js';
import { assertMayFileScan, canSeeEverySchoolsScans, copyInstitutionOf } from './policies.js';

const pathOf = (fileId: string) => `pdfs/${fileId}.pdf`;
const fileIdOf = (path: string) => path.slice('pdfs/'.length, -'.pdf'.length);

/**
 * POST /answer/unlabeled/{chapterId}: files a PDF uploaded through POST /pdfs as a scanned copy
 * waiting for sorting. Only its uploader (or an admin) may file it, once.
 */
export async function registerUnlabeled(
  db: Db,
  auth: AuthContext,
  chapterId: string,
  input: { answer: string; institution?: string | null },
): Promise<{ _id: string }> {
  const chapter = await findChapter(db, chapterId);
  if (!chapter.offline) throw badRequest('Ce chapitre n’est pas une épreuve papier.');
  const institutionId = copyInstitutionOf(auth, input.institution);
  if (institutionId) {
    const [school] = await db.select({ id: institutions.id }).from(institutions).where(eq(institutions.id, institutionId));
    if (!school) throw notFound('Établissement introuvable.');
  }
  const fileId = fileIdOf(input.answer);
  const [file] = await db.select({ ownerId: files.ownerId, sha256: files.sha256 }).from(files).where(eq(files.id, fileId));
  if (!file) throw notFound('Fichier introuvable.');
  assertMayFileScan(auth, file);
  const [existing] = await db.select({ id: unlabeledAnswers.id }).from(unlabeledAnswers).where(eq(unlabeledAnswers.fileId, fileId));
  if (existing) throw conflict('Cette copie est déjà enregistrée.');
  if (file.sha256) await assertNotFiledBefore(db, chapterId, file.sha256);
  const [row] = await db
    .insert(unlabeledAnswers)
    .values({ chapterId, fileId, institutionId, uploadedBy: auth.userId })
    .returning({ id: unlabeledAnswers.id });
  await enqueueDecode(db, row.id);
  return { _id: row.id };
}

/**
 * The same scan sent twice (same bytes, so same SHA-256) for a chapter is refused (decision 58):
 * its pages would be sorted twice and each pupil's answer replaced by the same pages again.
 */
async function assertNotFiledBefore(db: Db, chapterId: string, sha256: string): Promise<void> {
  const [twin] = await db
    .select({ originalName: files.originalName })
    .from(unlabeledAnswers)
    .innerJoin(files, eq(files.id, unlabeledAnswers.fileId))
    .where(and(eq(unlabeledAnswers.chapterId, chapterId), eq(files.sha256, sha256)))
    .limit(1);
  if (!twin) return;
  const name = twin.originalName ? ` («\u202f${twin.originalName}\u202f»)` : '';
  throw conflict(`Ce fichier a déjà été déposé pour ce chapitre${name}\u00a0: il ne sera pas trié une seconde fois.`);
}

/**
 * GET /answer/unlabeled/{chapterId}: the scanned copies of a chapter, newest first; school staff
 * see their own school's, members and admins all.
 */
export async function listUnlabeled(db: Db, auth: AuthContext, chapterId: string): Promise<UnlabeledAnswer[]> {
  await findChapter(db, chapterId);
  const filters: SQL[] = [eq(unlabeledAnswers.chapterId, chapterId)];
  if (!canSeeEverySchoolsScans(auth)) {
    if (!auth.institutionId) return [];
    filters.push(eq(unlabeledAnswers.institutionId, auth.institutionId));
  }
  const rows = await db
    .select({
      id: unlabeledAnswers.id,
      fileId: unlabeledAnswers.fileId,
      institutionId: unlabeledAnswers.institutionId,
      institutionName: institutions.name,
      originalName: files.originalName,
      pages: files.pages,
      createdAt: unlabeledAnswers.createdAt,
      labeledAt: unlabeledAnswers.labeledAt,
      droppedBlanks: unlabeledAnswers.droppedBlanks,
    })
    .from(unlabeledAnswers)
    .innerJoin(files, eq(files.id, unlabeledAnswers.fileId))
    .leftJoin(institutions, eq(institutions.id, unlabeledAnswers.institutionId))
    .where(and(...filters))
    .orderBy(desc(unlabeledAnswers.createdAt), desc(unlabeledAnswers.id));
  return rows.map((r) => ({
    _id: r.id,
    answer: pathOf(r.fileId),
    institution: r.institutionId ? { _id: r.institutionId, name: r.institutionName ?? '' } : null,
    originalName: r.originalName,
    pages: r.pages,
    createdAt: r.createdAt.toISOString(),
    labeled: r.labeledAt !== null,
    droppedBlanks: r.droppedBlanks,
  }));
}
