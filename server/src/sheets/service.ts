import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import { centerInstitutionOf } from '../centers/policies.js';
import { findChapter } from '../chapters/service.js';
import type { Db } from '../db/client.js';
import { centerRegistrations, exercises, institutions, users } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import { PDF_LINK_TTL_SECONDS } from '../files/service.js';
import { renderAnswerSheets, type SheetInput } from './render.js';

/** What a sheet download is: a centre's pupils, or one blank set. */
export interface SheetRequest {
  chapterId: string;
  /** The centre's institution; null for the blank sheet. */
  institutionId: string | null;
  spare: number;
}

/**
 * Who may download (decision 20): the personalised sheets carry pupils' names, so only
 * an admin or the staff of the centre's institution; the blank sheet, any school staff.
 * Returns the request with the institution resolved (a teacher's own by default).
 */
export function authorizeSheets(
  auth: AuthContext,
  chapterId: string,
  q: { institution?: string; spare: number; blank: boolean },
): SheetRequest {
  if (q.blank) return { chapterId, institutionId: null, spare: q.spare };
  return { chapterId, institutionId: centerInstitutionOf(auth, q.institution), spare: q.spare };
}

/** Renders the PDF of a request already authorised (by the caller's role or a signed link). */
export async function buildSheets(db: Db, secret: string, req: SheetRequest): Promise<{ pdf: Uint8Array; filename: string }> {
  const { input, filename } = await loadSheetInput(db, secret, req);
  return { pdf: await renderAnswerSheets(input), filename };
}

/** What the sheets print; refuses (400/404, French) a chapter or centre they cannot be made for. */
export async function loadSheetInput(db: Db, secret: string, req: SheetRequest): Promise<{ input: SheetInput; filename: string }> {
  const chapter = await findChapter(db, req.chapterId);
  if (!chapter.offline) throw badRequest('Ce chapitre n’est pas une épreuve papier.');
  const pdfExercises = await db
    .select({ id: exercises.id, title: exercises.title })
    .from(exercises)
    .where(and(eq(exercises.chapterId, chapter.id), eq(exercises.answerFormat, 'pdf'), isNull(exercises.deletedAt)))
    .orderBy(asc(exercises.position), asc(exercises.createdAt));
  if (pdfExercises.length === 0) throw badRequest('Ce chapitre n’a aucun exercice à rendre sur papier (format PDF).');

  const input: SheetInput = {
    secret,
    chapter: { id: chapter.id, title: chapter.title },
    centreName: null,
    exercises: pdfExercises,
    pupils: null,
    spare: req.spare,
    anonymous: chapter.anonymousGrading,
  };
  if (req.institutionId) {
    const [school] = await db.select({ name: institutions.name }).from(institutions).where(eq(institutions.id, req.institutionId));
    if (!school) throw notFound('Établissement introuvable.');
    input.centreName = school.name;
    input.pupils = await db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
      .from(centerRegistrations)
      .innerJoin(users, eq(users.id, centerRegistrations.userId))
      .where(and(eq(centerRegistrations.chapterId, chapter.id), eq(centerRegistrations.institutionId, req.institutionId)))
      .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
    if (input.pupils.length === 0) throw badRequest('Aucun élève n’est inscrit dans ce centre pour ce chapitre.');
  }
  const name = req.institutionId ? 'feuilles-reponses' : 'feuille-reponse-vierge';
  return { input, filename: `${name}-${slug(chapter.title)}.pdf` };
}

const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'chapitre';

const signature = (secret: string, req: SheetRequest, exp: number) =>
  createHmac('sha256', secret)
    .update(`sheets:${req.chapterId}:${req.institutionId ?? 'blank'}:${req.spare}:${exp}`)
    .digest('base64url');

/**
 * A browser download cannot send the Authorization header: like PDF links (docs/product.md#design-3 Files), the
 * caller, once authorised, gets a URL valid for a few minutes that serves exactly this request.
 */
export function signSheetLink(secret: string, req: SheetRequest, nowMs = Date.now()): { url: string; expiresAt: string } {
  const exp = Math.floor(nowMs / 1000) + PDF_LINK_TTL_SECONDS;
  const query = new URLSearchParams({
    ...(req.institutionId ? { institution: req.institutionId } : {}),
    spare: String(req.spare),
    exp: String(exp),
    sig: signature(secret, req, exp),
  });
  const path = req.institutionId ? `${req.chapterId}.pdf` : `${req.chapterId}/blank.pdf`;
  return { url: `/api/sheets/${path}?${query}`, expiresAt: new Date(exp * 1000).toISOString() };
}

export function verifySheetSignature(secret: string, req: SheetRequest, exp: number, sig: string, nowMs = Date.now()): boolean {
  if (!Number.isInteger(exp) || exp * 1000 < nowMs) return false;
  const expected = Buffer.from(signature(secret, req, exp));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
