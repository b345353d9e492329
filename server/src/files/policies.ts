import { hasRole, type AuthContext } from '../auth/context.js';
import { forbidden } from '../errors.js';

/** Per-record rules on stored PDFs (docs/architecture.md « Where things go »). */

/** What the reading rule knows of a stored file. */
export interface FileAccessRow {
  owner_id: string | null;
  institution_id: string | null;
  owner_institution: string | null;
  /** The caller has an answer referencing the file (a labelled scan of their copy). */
  own_answer: boolean;
  /**
   * The file is a scan filed for a chapter under anonymous correction and already sorted: its pages show the
   * names that the copies made of it mask (decision 130).
   */
  sorted_anonymous_scan: boolean;
}

/**
 * Who may read a stored PDF (docs/product.md#design-3 Files): its owner, members, admins, school staff of the
 * uploading or owner's institution, and a pupil whose answer references it (labelled scans). A sorted scan of
 * an anonymous chapter is no longer a member's (decision 130): correctors grade the masked copies made of it.
 */
export function assertMaySeeFile(auth: AuthContext, row: FileAccessRow): void {
  if (auth.isAdmin || row.owner_id === auth.userId || row.own_answer) return;
  if (auth.isMember && !row.sorted_anonymous_scan) return;
  const school = auth.institutionId;
  if (auth.isTeacher && school && (row.institution_id === school || row.owner_institution === school)) return;
  throw forbidden();
}

/** A resumable upload is its creator's alone; another's is not revealed (404, docs/security.md). */
export function canResumeUpload(auth: AuthContext, upload: { owner: string }): boolean {
  return upload.owner === auth.userId;
}

/** A scan of a whole chapter's copies (POST /pdfs with a chapter) is sent by school staff, members and admins. */
export function assertMayUploadForChapter(auth: AuthContext): void {
  if (!hasRole(auth, 'teacher') && !hasRole(auth, 'member')) throw forbidden();
}

/** School staff (teachers, members, admins) send whole scans: their limits are the STAFF_ ones (decision 133). */
export const canUseStaffUploadLimits = (auth: AuthContext): boolean => auth.isAdmin || auth.isTeacher || auth.isMember;
