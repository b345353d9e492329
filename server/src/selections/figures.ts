import { GENDERS, GRADES } from '@olympe/contract';
import writeXlsxFile, { type Row } from 'write-excel-file/node';
import { academyLabel, genderLabel, gradeLabel, header, sectorLabel, text, UNKNOWN } from './exports.js';
import type { Participant, SelectionVersion } from './qualification.js';

interface Count {
  label: string;
  selected: number;
  participants: number;
}

/** Counts per value of `key` (selected: qualified in some category), in the order `order` gives, « Inconnu » last. */
function breakdown(participants: Participant[], key: (p: Participant) => string, order: readonly string[] = []): Count[] {
  const counts = new Map<string, Count>();
  for (const p of participants) {
    const label = key(p);
    const c = counts.get(label) ?? { label, selected: 0, participants: 0 };
    c.participants++;
    if (p.qualified_in.length > 0) c.selected++;
    counts.set(label, c);
  }
  const rankOf = (label: string) => (label === UNKNOWN ? Infinity : order.includes(label) ? order.indexOf(label) : order.length);
  return [...counts.values()].sort((a, b) => rankOf(a.label) - rankOf(b.label) || a.label.localeCompare(b.label, 'fr'));
}

const share = (c: Count) => (c.participants > 0 ? Math.round((1000 * c.selected) / c.participants) / 10 : null);

/**
 * GET /selection/{id}/figures.xlsx (decision 158): per category, then per gender, class, académie and school sector,
 * the selected and all participants side by side, and the share selected in %.
 */
export async function figuresWorkbook(version: NonNullable<SelectionVersion['version']>, participants: Participant[]): Promise<Buffer> {
  const perCategory: Count[] = version.categories.map((c) => ({
    label: c.name,
    selected: participants.filter((p) => p.qualified_in.includes(c.id)).length,
    participants: participants.filter((p) => p.categories.includes(c.id)).length,
  }));
  const sections: Array<[string, Count[]]> = [
    ['Catégorie', perCategory],
    ['Genre', breakdown(participants, (p) => genderLabel(p.gender), GENDERS.map(genderLabel))],
    ['Classe', breakdown(participants, (p) => gradeLabel(p.grade), GRADES.map(gradeLabel))],
    ['Académie', breakdown(participants, (p) => academyLabel(p.academy))],
    ['Secteur', breakdown(participants, (p) => sectorLabel(p.sector), ['Public', 'Privé'])],
    [
      'Total',
      [{ label: 'Tous', selected: participants.filter((p) => p.qualified_in.length > 0).length, participants: participants.length }],
    ],
  ];
  const data: Row[] = sections.flatMap(([title, counts], i): Row[] => [
    ...(i > 0 ? [[null]] : []),
    [title, 'Qualifié(e)s', 'Participants', 'Part (%)'].map(header),
    ...counts.map((c): Row => {
      const pct = share(c);
      return [
        text(c.label),
        { value: c.selected, type: Number },
        { value: c.participants, type: Number },
        pct === null ? null : { value: pct, type: Number, format: '0.0' },
      ];
    }),
  ]);
  return writeXlsxFile(data, { sheet: 'Chiffres', columns: [{ width: 28 }, { width: 14 }, { width: 14 }, { width: 10 }] }).toBuffer();
}
