import { describe, expect, it } from 'vitest';
import { planGroupSave, type GroupRow } from './plan-save';

const saved = (id: string, name: string): GroupRow => ({ key: id, _id: id, name, savedName: name });

describe('planGroupSave', () => {
  it('deletes, creates new rows and renames changed ones only', () => {
    const rows: GroupRow[] = [
      saved('t', 'teachers'),
      { ...saved('a', 'Stage'), name: ' Stage 2026 ' },
      saved('b', 'Club'),
      { key: 'n1', name: 'Nouveau groupe' },
    ];
    expect(planGroupSave(rows, [{ _id: 'x', name: 'Ancien' }])).toEqual({
      deletes: [{ _id: 'x', name: 'Ancien' }],
      creates: ['Nouveau groupe'],
      renames: [{ _id: 'a', name: 'Stage 2026' }],
    });
  });

  it('refuses blank names, duplicates (any case) and the reserved names before any call', () => {
    expect(planGroupSave([{ key: 'n', name: '  ' }], [])).toEqual({ error: 'Un groupe doit avoir un nom.' });
    expect(
      planGroupSave(
        [
          { key: 'n1', name: 'Nouveau groupe' },
          { key: 'n2', name: 'nouveau groupe' },
        ],
        [],
      ),
    ).toEqual({
      error: 'Deux groupes s’appellent « nouveau groupe ».',
    });
    expect(planGroupSave([{ key: 'n', name: 'Members' }], [])).toEqual({ error: 'Le nom « Members » est réservé à un groupe du système.' });
    expect(planGroupSave([saved('m', 'members')], [])).toEqual({ deletes: [], creates: [], renames: [] });
  });
});
