import { describe, expect, it } from 'vitest';
import { planChapterSave, rowOf, runChapterSave, type ChapterRow } from './plan-save';

const saved = (id: string, title: string, offline = false, analysis = false) => rowOf({ _id: id, title, offline, analysis });
const fresh = (title = 'Nouveau chapitre'): ChapterRow => ({ key: `new-${title}`, title, analysis: false, offline: false });

describe('planChapterSave', () => {
  it('sends nothing when nothing changed', () => {
    expect(planChapterSave([saved('a', 'Tour 1')], [])).toEqual({ deletes: [], creates: [], updates: [] });
  });

  it('patches only the changed fields', () => {
    const row = { ...saved('a', 'Tour 1'), offline: true };
    const renamed = { ...saved('b', 'Tour 2', false, true), title: ' Tour 2 bis ' };
    const plan = planChapterSave([row, renamed, saved('c', 'Tour 3')], []);
    expect(plan).toEqual({
      deletes: [],
      creates: [],
      updates: [
        { _id: 'a', changes: { offline: true } },
        { _id: 'b', changes: { title: 'Tour 2 bis' } },
      ],
    });
  });

  it('creates new rows with both flags as set, and deletes removed ones', () => {
    const plan = planChapterSave([saved('a', 'Tour 1'), { ...fresh(), offline: true }], ['z']);
    expect(plan).toEqual({ deletes: ['z'], creates: [{ title: 'Nouveau chapitre', analysis: false, offline: true }], updates: [] });
  });

  it('refuses an empty or too long title before any call', () => {
    expect(planChapterSave([fresh('  ')], ['z'])).toEqual({ error: 'Un chapitre doit avoir un titre.' });
    expect(planChapterSave([fresh('x'.repeat(201))], [])).toHaveProperty('error');
  });
});

describe('runChapterSave', () => {
  it('deletes first, then creates, then updates', async () => {
    const calls: string[] = [];
    const plan = planChapterSave([{ ...saved('a', 'A'), title: 'A2' }, fresh('B')], ['x', 'y']);
    if ('error' in plan) throw new Error(plan.error);
    await runChapterSave(plan, {
      remove: async (id) => calls.push(`DELETE ${id}`),
      create: async (f) => calls.push(`POST ${f.title}`),
      update: async (id, c) => calls.push(`PATCH ${id} ${JSON.stringify(c)}`),
    });
    expect(calls).toEqual(['DELETE x', 'DELETE y', 'POST B', 'PATCH a {"title":"A2"}']);
  });

  it('stops at the first failure', async () => {
    const calls: string[] = [];
    const plan = { deletes: ['x'], creates: [{ title: 'B', analysis: false, offline: false }], updates: [] };
    await expect(
      runChapterSave(plan, {
        remove: async () => {
          throw new Error('refusé');
        },
        create: async (f) => calls.push(f.title),
        update: async () => calls.push('update'),
      }),
    ).rejects.toThrow('refusé');
    expect(calls).toEqual([]);
  });
});
