import { describe, expect, it } from 'vitest';
import { centerDayRows, type CenterOverview, type OverviewUser } from '@olympe/contract';
import { toCsv } from '../../lib/csv';
import {
  centerDayCsvName,
  centerDayCsvRows,
  filterRegistrations,
  flattenOverview,
  registrationsCsvName,
  registrationsCsvRows,
} from './registrations';

const user = (id: string, lastName: string, school = 'Collège Pascal'): OverviewUser => ({
  _id: id,
  email: `${id}@exemple.fr`,
  firstName: 'Élise',
  lastName,
  grade: '3eme',
  institution: { _id: 's', name: school },
});

const stats = { registered: 1, present: 0, absent: 0, copies: 0, pagesSorted: 0 };
const overview: CenterOverview = {
  members: [
    {
      institution: { _id: 'a', name: 'Lycée Pôle' },
      validated: true,
      opened: true,
      isPole: true,
      status: 'center',
      members: [user('1', 'Dupont')],
      stats,
    },
    {
      institution: { _id: 'b', name: 'Collège Attente' },
      validated: false,
      opened: null,
      isPole: false,
      status: 'unknown',
      members: [user('2', 'Martin'), user('3', 'Noël')],
      stats,
    },
  ],
  unregistered: [user('4', 'Zola', 'Lycée Hugo')],
};

describe('registrations overview', () => {
  const rows = flattenOverview(overview);

  it('groups by centre with VALIDÉ / EN ATTENTE, unregistered last', () => {
    expect(rows.map((r) => [r.user._id, r.center?.name ?? null, r.status])).toEqual([
      ['1', 'Lycée Pôle', 'VALIDÉ'],
      ['2', 'Collège Attente', 'EN ATTENTE'],
      ['3', 'Collège Attente', 'EN ATTENTE'],
      ['4', null, 'Non inscrit'],
    ]);
  });

  it('filters by status and searches accent-insensitively', () => {
    expect(filterRegistrations(rows, '', 'pending').map((r) => r.user._id)).toEqual(['2', '3']);
    expect(filterRegistrations(rows, '', 'validated').map((r) => r.user._id)).toEqual(['1']);
    expect(filterRegistrations(rows, '', 'unregistered').map((r) => r.user._id)).toEqual(['4']);
    expect(filterRegistrations(rows, 'noel', 'all').map((r) => r.user._id)).toEqual(['3']);
    expect(filterRegistrations(rows, 'pole', 'all').map((r) => r.user._id)).toEqual(['1']);
    expect(filterRegistrations(rows, 'hugo', 'all').map((r) => r.user._id)).toEqual(['4']);
  });

  it('exports registrations_{chapter}.csv with one line per participant', () => {
    expect(registrationsCsvName('Coupe 2026')).toBe('registrations_Coupe 2026.csv');
    const csv = registrationsCsvRows(rows);
    expect(csv).toHaveLength(5);
    expect(csv[0][0]).toBe('Centre');
    expect(csv[1]).toEqual(['Lycée Pôle', 'VALIDÉ', 'Dupont', 'Élise', '1@exemple.fr', '3ème', 'Collège Pascal']);
    expect(csv[4][0]).toBe('');
  });
});

describe('exam-day table per centre', () => {
  it('sorts the centres in French order and says what to chase', () => {
    expect(centerDayRows(overview).map((r) => [r.name, r.followUp])).toEqual([
      ['Collège Attente', 'n’a pas répondu, aucune copie déposée, présences non saisies'],
      ['Lycée Pôle', 'aucune copie déposée, présences non saisies'],
    ]);
  });

  it('exports centres_{chapter}.csv: French headers, counts as numbers, a formula-looking centre name neutralised', () => {
    const risky: CenterOverview = {
      unregistered: [],
      members: [
        {
          ...overview.members[0],
          institution: { _id: 'x', name: '=cmd|’/C calc’!A0' },
          stats: { registered: 12, present: 10, absent: 2, copies: 9, pagesSorted: 30 },
        },
      ],
    };
    expect(centerDayCsvName('Coupe 2026')).toBe('centres_Coupe 2026.csv');
    const rows = centerDayCsvRows(centerDayRows(risky));
    expect(rows[0]).toEqual(['Centre', 'Inscrits', 'Présents', 'Absents', 'Copies reçues', 'Pages triées', 'À relancer']);
    expect(rows[1].slice(1, 6)).toEqual([12, 10, 2, 9, 30]);
    const lines = toCsv(rows).split('\r\n');
    expect(lines[1]).toBe(`"'=cmd|’/C calc’!A0";"12";"10";"2";"9";"30";""`);
  });
});
