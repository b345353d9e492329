import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useEditableTable } from './use-editable-table';

const notices = vi.hoisted(() => ({ showNotice: vi.fn(), notifyError: vi.fn() }));
vi.mock('../api/notify', () => ({ showNotice: notices.showNotice }));
vi.mock('../api/client', () => ({ notifyError: notices.notifyError }));

interface Item {
  _id: string;
  name: string;
}
interface Row {
  key: string;
  _id?: string;
  name: string;
}
interface Plan {
  deletes: string[];
  names: string[];
}

const QUERY_KEY = ['items'];
const plan = (rows: readonly Row[], deleted: readonly string[]): Plan | { error: string } =>
  rows.some((r) => !r.name.trim()) ? { error: 'Un nom est vide.' } : { deletes: [...deleted], names: rows.map((r) => r.name) };

function setup(first: Item[]) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  const hook = renderHook(
    ({ data }: { data: Item[] | undefined }) =>
      useEditableTable({
        data,
        toRows: (items) => items.map((i): Row => ({ key: i._id, _id: i._id, name: i.name })),
        deletedOf: (row) => row._id,
      }),
    { wrapper, initialProps: { data: first as Item[] | undefined } },
  );
  return { ...hook, invalidate };
}

describe('useEditableTable', () => {
  beforeEach(() => {
    notices.showNotice.mockReset();
    notices.notifyError.mockReset();
  });

  it('edits, adds and removes rows, remembering only the saved ones removed', () => {
    const { result } = setup([
      { _id: 'a', name: 'A' },
      { _id: 'b', name: 'B' },
    ]);
    act(() => result.current.update('a', { name: 'A2' }));
    act(() => result.current.update('a', (row) => ({ name: `${row.name}!` })));
    act(() => result.current.add({ key: 'new', name: 'N' }));
    act(() => result.current.remove(result.current.rows[1]));
    act(() => result.current.remove(result.current.rows[1]));
    expect(result.current.rows).toEqual([{ key: 'a', _id: 'a', name: 'A2!' }]);
    expect(result.current.deleted).toEqual(['b']);
  });

  it('replaces the rows and forgets the deletions when new data arrives', () => {
    const { result, rerender } = setup([
      { _id: 'a', name: 'A' },
      { _id: 'b', name: 'B' },
    ]);
    act(() => result.current.remove(result.current.rows[0]));
    act(() => result.current.update('b', { name: 'B2' }));
    expect(result.current.deleted).toEqual(['a']);

    // Still loading (no data): the edits stay.
    rerender({ data: undefined });
    expect(result.current.rows).toEqual([{ key: 'b', _id: 'b', name: 'B2' }]);

    rerender({
      data: [
        { _id: 'b', name: 'B2' },
        { _id: 'c', name: 'C' },
      ],
    });
    expect(result.current.rows).toEqual([
      { key: 'b', _id: 'b', name: 'B2' },
      { key: 'c', _id: 'c', name: 'C' },
    ]);
    expect(result.current.deleted).toEqual([]);
  });

  it('runs the plan, tells the outcome once, then reloads the query and the rest', async () => {
    const { result, invalidate } = setup([
      { _id: 'a', name: 'A' },
      { _id: 'b', name: 'B' },
    ]);
    act(() => result.current.remove(result.current.rows[0]));
    const steps: string[] = [];
    notices.showNotice.mockImplementation((message: string) => void steps.push(`notice ${message}`));
    invalidate.mockImplementation(async () => void steps.push('invalidate'));
    await act(() =>
      result.current.save({
        plan,
        run: async (p) => void steps.push(`run ${JSON.stringify(p)}`),
        queryKey: QUERY_KEY,
        after: async () => void steps.push('after'),
      }),
    );
    expect(steps).toEqual(['run {"deletes":["a"],"names":["B"]}', 'notice Modifications enregistrées', 'invalidate', 'after']);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: QUERY_KEY });
    expect(result.current.saving).toBe(false);
  });

  it('reports a failed call and reloads the query all the same', async () => {
    const { result, invalidate } = setup([{ _id: 'a', name: 'A' }]);
    const failure = new Error('refusé');
    vi.spyOn(console, 'error').mockImplementationOnce(() => {});
    await act(() =>
      result.current.save({
        plan,
        run: async () => {
          throw failure;
        },
        queryKey: QUERY_KEY,
      }),
    );
    expect(notices.notifyError).toHaveBeenCalledWith(failure);
    expect(notices.showNotice).not.toHaveBeenCalled();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: QUERY_KEY });
    expect(result.current.saving).toBe(false);
  });

  it('sends nothing and reloads nothing when the plan finds a problem', async () => {
    const { result, invalidate } = setup([{ _id: 'a', name: 'A' }]);
    act(() => result.current.update('a', { name: ' ' }));
    const run = vi.fn();
    await act(() => result.current.save({ plan, run, queryKey: QUERY_KEY }));
    expect(notices.showNotice).toHaveBeenCalledExactlyOnceWith('Erreur : Un nom est vide.', 'red');
    expect(run).not.toHaveBeenCalled();
    expect(invalidate).not.toHaveBeenCalled();
  });
});
