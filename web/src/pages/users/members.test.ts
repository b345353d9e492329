import type { GroupMember } from '@olympe/contract';
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../lib/csv';
import {
  addEmails,
  buildSearchIndex,
  diffEmails,
  filterMembers,
  formatBirthDate,
  MEMBER_CSV_HEADER,
  memberCsvFileName,
  memberCsvRows,
  removeEmails,
} from './members';

function member(i: number, overrides: Partial<GroupMember> = {}): GroupMember {
  const first = ['Léa', 'Hugo', 'Chloé', 'Noé', 'Inès', 'Lucas', 'Zoé', 'Théo'][i % 8];
  const last = ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Lefèvre', 'Petit', 'Durand'][(i * 7) % 8];
  return {
    _id: `u${i}`,
    email: `eleve${i}@exemple.fr`,
    emailStudent: null,
    emailParent: `parent${i}@exemple.fr`,
    emailOtherParent: null,
    firstName: first,
    lastName: `${last} ${i}`,
    birthDate: '2010-03-04',
    gender: 'female',
    grade: '3eme',
    defaultChoice: 'local',
    emailNotifications: i % 2 === 0,
    institution: { _id: 'i1', name: 'Lycée Fermat', email: 'ce@fermat.fr' },
    isAdmin: false,
    ...overrides,
  };
}

describe('member search', () => {
  const members = [
    member(1, { firstName: 'Chloé', lastName: 'Lefèvre', email: 'c.lefevre@exemple.fr' }),
    member(2, { firstName: 'Hugo', lastName: 'Dupont', email: 'hugo.d@lycee.fr' }),
    member(3, { firstName: null, lastName: null, email: 'anonyme@exemple.fr' }),
  ];
  const index = buildSearchIndex(members);
  const find = (q: string) => filterMembers(members, index, q).map((m) => m._id);

  it('matches first name, last name or e-mail, ignoring accents and case', () => {
    expect(find('chloe')).toEqual(['u1']);
    expect(find('LEFÈVRE')).toEqual(['u1']);
    expect(find('lycee.fr')).toEqual(['u2']);
    expect(find('anonyme')).toEqual(['u3']);
    expect(find('  ')).toEqual(['u1', 'u2', 'u3']);
    expect(find('hugo dupont')).toEqual(['u2']);
    expect(find('hugo lefevre')).toEqual([]);
  });

  it('searches 10,000 members per keystroke fast enough (time printed, not asserted)', () => {
    const big = Array.from({ length: 10_000 }, (_, i) => member(i));
    let t = performance.now();
    const bigIndex = buildSearchIndex(big);
    const indexMs = performance.now() - t;
    const queries = ['l', 'le', 'lef', 'lefe', 'lefev', 'lefevr', 'lefevre', 'lefevre 1', 'lefevre 12'];
    const times: number[] = [];
    let last = 0;
    for (const q of queries) {
      t = performance.now();
      last = filterMembers(big, bigIndex, q).length;
      times.push(performance.now() - t);
    }
    console.log(
      `[members search] 10,000 members: index built in ${indexMs.toFixed(1)} ms; per keystroke ${times
        .map((x) => x.toFixed(2))
        .join(', ')} ms (max ${Math.max(...times).toFixed(2)} ms)`,
    );
    expect(last).toBeGreaterThan(0);
    expect(filterMembers(big, bigIndex, 'lefevre 12').every((m) => m.lastName!.startsWith('Lefèvre') && m.lastName!.includes('12'))).toBe(
      true,
    );
  });
});

describe('e-mail list buttons', () => {
  it('adds with the split and lower-case rule, each address once', () => {
    expect(addEmails(['a@x.fr'], 'B@x.fr; a@x.fr,c@x.fr\nb@x.fr')).toEqual(['a@x.fr', 'b@x.fr', 'c@x.fr']);
  });

  it('removes whatever the case and separator', () => {
    expect(removeEmails(['a@x.fr', 'b@x.fr', 'c@x.fr'], ' A@X.FR ;c@x.fr ')).toEqual(['b@x.fr']);
  });

  it('tells what a pending list adds and removes', () => {
    expect(diffEmails(['a@x.fr', 'b@x.fr'], ['b@x.fr', 'c@x.fr'])).toEqual({ added: ['c@x.fr'], removed: ['a@x.fr'] });
  });
});

describe('members CSV', () => {
  it('has 16 columns, French display values, and is named after the group', () => {
    const rows = memberCsvRows([member(1, { gender: 'other', grade: 'Tale', birthDate: '2009-12-31', isAdmin: true, institution: null })]);
    expect(MEMBER_CSV_HEADER).toHaveLength(16);
    expect(rows[1]).toHaveLength(16);
    expect(rows[1].slice(7, 12)).toEqual(['O', '31-12-2009', 'Terminale', 'Local', 'Non']);
    expect(rows[1].slice(12)).toEqual([undefined, undefined, undefined, 'Oui']);
    expect(memberCsvFileName('Stage d’été 2026')).toBe('Stage d’été 2026_members.csv');
  });

  it('neutralises a formula typed as a name', () => {
    const csv = toCsv(memberCsvRows([member(1, { firstName: '=cmd|"/c calc"!A1' })]));
    expect(csv.split('\r\n')[1]).toContain(`"'=cmd|""/c calc""!A1"`);
  });
});

describe('formatBirthDate', () => {
  it('shows dd-mm-yyyy and nothing for a missing date', () => {
    expect(formatBirthDate('2010-03-04')).toBe('04-03-2010');
    expect(formatBirthDate(null)).toBe('');
  });
});
