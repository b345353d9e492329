import { GENDER_LABELS, GRADE_LABELS, type Gender, type Grade } from '@olympe/contract';
import writeXlsxFile, { type Row } from 'write-excel-file/node';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { selectionRightOf } from './policies.js';
import { loadSelectionVersion, participantsOf, versionOf, type Participant, type SelectionVersion } from './qualification.js';

/** A string cell: never read as a formula by a spreadsheet, whatever it starts with (as results/xlsx.ts). */
export const text = (value: string) => ({ value, type: String });
export const header = (value: string) => ({ value, type: String, fontWeight: 'bold' as const });

export const UNKNOWN = 'Inconnu';
const SECTORS: Record<string, string> = { public: 'Public', private: 'Privé' };
/** Decision 158: a school with no sector (or académie) is counted under « Inconnu ». */
export const sectorLabel = (sector: string | null) => (sector ? (SECTORS[sector] ?? sector) : UNKNOWN);
export const academyLabel = (academy: string | null) => academy ?? UNKNOWN;
export const gradeLabel = (grade: string | null) => (grade ? (GRADE_LABELS[grade as Grade] ?? grade) : UNKNOWN);
export const genderLabel = (gender: string | null) => (gender ? (GENDER_LABELS[gender as Gender] ?? gender) : UNKNOWN);

/** The latest version and its participants, for the jury and the admins (`selectionRightOf`: 403 / 404 otherwise). */
export async function loadVersionList(db: Db, auth: AuthContext, selectionId: string, now = new Date()) {
  await selectionRightOf(db, auth, selectionId);
  const selection = await loadSelectionVersion(db, selectionId, now);
  const version = versionOf(selection);
  return { selection, version, participants: await participantsOf(db, version.id) };
}

const DECISION_WORDS: Record<string, string> = { include: 'inclus(e) par le jury', exclude: 'exclu(e) par le jury' };

/** The jury's own decisions on a pupil, with their reasons (decision 156). */
function reasonsOf(version: NonNullable<SelectionVersion['version']>, userId: string): string {
  return version.decisions
    .filter((d) => d.userId === userId)
    .map((d) => {
      const category = version.categories.find((c) => c.id === d.categoryId)?.name ?? '';
      return `${category} : ${DECISION_WORDS[d.decision] ?? d.decision}${d.reason ? ` (${d.reason})` : ''}`;
    })
    .join(' ; ');
}

/**
 * GET /selection/{id}/export.xlsx (admins and the selection's jury, decision 157): the latest version's list, best
 * first, with ties sharing a rank: name, school, académie, sector, class, gender, categories, score, status and the
 * reason of the jury's decisions.
 */
export async function versionWorkbook(version: NonNullable<SelectionVersion['version']>, participants: Participant[]): Promise<Buffer> {
  const names = (ids: readonly string[]) =>
    version.categories
      .filter((c) => ids.includes(c.id))
      .map((c) => c.name)
      .join(', ');
  let rank = 0;
  const data: Row[] = [
    ['Rang', 'Nom', 'Prénom', 'Établissement', 'Académie', 'Secteur', 'Classe', 'Genre', 'Catégorie(s)', 'Score', 'Statut', 'Motif'].map(
      header,
    ),
    ...participants.map((p, i): Row => {
      if (i === 0 || p.score !== participants[i - 1].score) rank = i + 1;
      const qualified = p.qualified_in.length > 0;
      return [
        { value: rank, type: Number },
        text(p.last_name ?? ''),
        text(p.first_name ?? ''),
        text(p.institution ?? ''),
        text(academyLabel(p.academy)),
        text(sectorLabel(p.sector)),
        text(gradeLabel(p.grade)),
        text(genderLabel(p.gender)),
        text(names(qualified ? p.qualified_in : p.categories)),
        { value: p.score, type: Number, format: '0.####' },
        text(qualified ? 'Qualifié(e)' : 'Non qualifié(e)'),
        text(reasonsOf(version, p.user_id)),
      ];
    }),
  ];
  return writeXlsxFile(data, {
    sheet: 'Liste',
    stickyRowsCount: 1,
    columns: data[0].map((_, i) => ({ width: i === 0 ? 8 : 18 })),
  }).toBuffer();
}
