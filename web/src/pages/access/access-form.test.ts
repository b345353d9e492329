import { describe, expect, it } from 'vitest';
import { newAccessRow, toAccessGroups, toFormRow } from './access-form';

describe('access form ↔ access groups', () => {
  it('starts a new row as docs/product.md#spec-2 says and sends it as "anyone"', () => {
    const row = newAccessRow();
    expect(row).toMatchObject({ name: 'all', genders: ['male', 'female', 'other'], duration: '', start: '', end: '' });
    expect(row.grades).toHaveLength(7);
    expect(toAccessGroups([row])).toEqual({
      groups: [
        {
          name: 'all',
          authorizedGenders: [],
          authorizedGrades: [],
          birthDateMin: null,
          birthDateMax: null,
          timeDuration: null,
          accessStart: null,
          accessEnd: null,
          requiredSelectionId: null,
        },
      ],
    });
  });

  it('keeps the selection a group requires, and « Aucune sélection » as null (decision 157)', () => {
    const view = { ...newAccessRow(), name: 'Qualifiés' };
    const sent = toAccessGroups([{ ...view, requiredSelectionId: 's1' }, view]);
    if ('error' in sent) throw new Error(sent.error);
    expect(sent.groups.map((g) => g.requiredSelectionId)).toEqual(['s1', null]);
    expect(sent.groups.map(toFormRow).map((r) => r.requiredSelectionId)).toEqual(['s1', null]);
    const { requiredSelectionId: _, ...older } = sent.groups[0];
    expect(toFormRow(older).requiredSelectionId).toBeNull();
  });

  it('converts Paris wall-clock dates to instants across the daylight-saving changes', () => {
    const row = {
      ...newAccessRow(),
      genders: ['female' as const],
      grades: ['3eme' as const],
      duration: 90,
      start: '2026-03-29T03:00',
      end: '2026-10-25T02:30',
    };
    const result = toAccessGroups([row]);
    if ('error' in result) throw new Error(result.error);
    expect(result.groups[0]).toMatchObject({
      authorizedGenders: ['female'],
      authorizedGrades: ['3eme'],
      timeDuration: 90,
      accessStart: '2026-03-29T01:00:00.000Z',
      accessEnd: '2026-10-25T00:30:00.000Z',
    });
    // And back: what the server returns shows the same Paris times.
    const back = toFormRow(result.groups[0]);
    expect(back).toMatchObject({ start: '2026-03-29T03:00', end: '2026-10-25T02:30', genders: ['female'], grades: ['3eme'], duration: 90 });
  });

  it('shows "any" (empty lists) as everything ticked', () => {
    const back = toFormRow({
      name: 'x',
      authorizedGenders: [],
      authorizedGrades: [],
      birthDateMin: '2010-01-01',
      birthDateMax: null,
      timeDuration: 0,
      accessStart: null,
      accessEnd: null,
    });
    expect(back.genders).toEqual(['male', 'female', 'other']);
    expect(back).toMatchObject({ birthDateMin: '2010-01-01', birthDateMax: '', duration: 0 });
  });

  it('refuses bad rows in French before any call', () => {
    const base = newAccessRow();
    expect(toAccessGroups([{ ...base, genders: [] }])).toEqual({ error: 'Groupe 1 (« all ») : choisissez au moins un genre.' });
    expect(toAccessGroups([{ ...base, grades: [] }])).toHaveProperty('error');
    expect(toAccessGroups([{ ...base, duration: -1 }])).toHaveProperty('error');
    expect(toAccessGroups([{ ...base, duration: 2.5 }])).toHaveProperty('error');
    expect(toAccessGroups([{ ...base, start: '2026-05-02T10:00', end: '2026-05-02T10:00' }])).toEqual({
      error: 'Groupe 1 (« all ») : la fin de l’accès doit être après son début.',
    });
    expect(toAccessGroups([{ ...base, birthDateMin: '2012-01-01', birthDateMax: '2011-01-01' }])).toHaveProperty('error');
    expect(toAccessGroups([{ ...base, start: '2026-13-01T10:00' }])).toHaveProperty('error');
  });
});
