import { GRADE_LABELS, type Grade, type SchoolQualified } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import writeXlsxFile, { type Row } from 'write-excel-file/node';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { notFound } from '../errors.js';
import { assertMaySeeList, selectionInstitutionOf } from './policies.js';
import { presentSchoolQualified } from './presenters.js';
import { categoryOf, loadSelectionVersion, versionOf } from './qualification.js';

/**
 * GET /selection/{id}/school?institution= (decision 157): the qualified pupils of one school in the latest version,
 * once published; school staff their own school only, an admin names one (and reads it as soon as a version exists).
 */
export async function schoolQualified(db: Db, auth: AuthContext, selectionId: string, requested?: string, now = new Date()) {
  const institutionId = selectionInstitutionOf(auth, requested);
  const selection = await loadSelectionVersion(db, selectionId, now);
  assertMaySeeList(auth, selection.published);
  const version = versionOf(selection);
  const institution = await one(db, z.object({ name: z.string() }), sql`SELECT name FROM institutions WHERE id = ${institutionId}::uuid`);
  if (!institution) throw notFound('Établissement introuvable.');
  const found = await rows(
    db,
    z.object({
      id: z.string(),
      first_name: z.string().nullable(),
      last_name: z.string().nullable(),
      grade: z.string().nullable(),
      score: column.number,
      categories: z.array(z.string()),
      qualified_in: z.array(z.string()),
    }),
    sql`SELECT u.id, u.first_name, u.last_name, u.grade, o.score, o.categories::text[] AS categories, o.qualified_in::text[] AS qualified_in
        FROM selection_outcomes o JOIN users u ON u.id = o.user_id
        WHERE o.version_id = ${version.id}::uuid AND u.institution_id = ${institutionId}::uuid AND cardinality(o.qualified_in) > 0
        ORDER BY lower(coalesce(u.last_name, '')), lower(coalesce(u.first_name, '')), u.id`,
  );
  const pupils = found.map((p) =>
    presentSchoolQualified(p, categoryOf(version.categories, { categories: p.categories, qualifiedIn: p.qualified_in })),
  );
  return { title: selection.title, institution: institution.name, pupils };
}

/** A string cell: never read as a formula by a spreadsheet, whatever it starts with (as results/xlsx.ts). */
const text = (value: string) => ({ value, type: String });
const header = (value: string) => ({ value, type: String, fontWeight: 'bold' as const });

/** GET /selection/{id}/school.xlsx: the same list as a workbook. */
export async function schoolWorkbook(pupils: SchoolQualified): Promise<Buffer> {
  const data: Row[] = [
    ['Nom', 'Prénom', 'Classe', 'Catégorie', 'Score'].map(header),
    ...pupils.map((p): Row => [
      text(p.lastName ?? ''),
      text(p.firstName ?? ''),
      text(p.grade ? (GRADE_LABELS[p.grade as Grade] ?? p.grade) : ''),
      text(p.category),
      { value: p.score, type: Number, format: '0.####' },
    ]),
  ];
  return writeXlsxFile(data, {
    sheet: 'Qualifiés',
    stickyRowsCount: 1,
    columns: data[0].map((_, i) => ({ width: i < 2 ? 20 : 16 })),
  }).toBuffer();
}
