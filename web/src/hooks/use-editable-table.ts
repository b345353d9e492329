import { useEffect, useState } from 'react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { notifyError } from '../api/client';
import { showNotice } from '../api/notify';

export interface EditableTableOptions<Data, Row extends { key: string }, Deleted> {
  /** The query's data: each new value replaces the rows and forgets the removed ones. */
  data: Data | undefined;
  toRows: (data: Data) => Row[];
  /**
   * What a save must delete for a removed row (its id, say), or undefined for a row the server never
   * had. Without it, removing a row only drops it from the table.
   */
  deletedOf?: (row: Row) => Deleted | undefined;
}

/** One "Enregistrer": the page's own plan and calls. */
export interface SaveSteps<Row, Deleted, Plan extends object> {
  /** What to send, or the first problem found, in French, before any call. */
  plan: (rows: readonly Row[], deleted: readonly Deleted[]) => Plan | { error: string };
  /** The calls, made quiet: the hook tells the outcome in one notification. */
  run: (plan: Plan) => Promise<void>;
  /** The page's query: reloaded after the save, whether it succeeded or not. */
  queryKey: QueryKey;
  /** Anything else to reload afterwards (e.g. the session, for the sidebar). */
  after?: () => Promise<void>;
}

/**
 * The skeleton of the admin pages with an editable table (/chapters, /groups, /exos/{id}, /access/{id}):
 * the rows being edited, reset from each new answer of the page's query, the rows removed since, and
 * the "Enregistrer" flow. Each page keeps its columns, its plan and its calls.
 */
export function useEditableTable<Data, Row extends { key: string }, Deleted = never>({
  data,
  toRows,
  deletedOf,
}: EditableTableOptions<Data, Row, Deleted>) {
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<Row[]>([]);
  const [deleted, setDeleted] = useState<Deleted[]>([]);
  // The calls, the one notice and the reloads: `saving` until the table has reloaded.
  const saving = useMutation({
    mutationFn: ({ run }: { run: () => Promise<void>; queryKey: QueryKey; after?: () => Promise<void> }) => run(),
    onSuccess: () => showNotice('Modifications enregistrées', 'green'),
    onError: (error) => {
      notifyError(error);
      console.error(error);
    },
    onSettled: async (_data, _error, { queryKey, after }) => {
      await queryClient.invalidateQueries({ queryKey });
      await after?.();
    },
  });

  useEffect(() => {
    if (data) {
      setRows(toRows(data));
      setDeleted([]);
    }
    // Only new data resets the table; `toRows` is a new function at every render.
  }, [data]);

  /** Changes one row: the fields given, or those computed from the row as it is now. */
  function update(key: string, changes: Partial<Row> | ((row: Row) => Partial<Row>)) {
    setRows((current) => current.map((r) => (r.key === key ? { ...r, ...(typeof changes === 'function' ? changes(r) : changes) } : r)));
  }

  function remove(row: Row) {
    setRows((current) => current.filter((r) => r.key !== row.key));
    const gone = deletedOf?.(row);
    if (gone !== undefined) setDeleted((current) => [...current, gone]);
  }

  function add(row: Row) {
    setRows((current) => [...current, row]);
  }

  /**
   * docs/product.md#spec-7 "Enregistrer": nothing is sent when the plan finds a problem; otherwise the calls run,
   * one notification tells the outcome, and the table reloads from the server either way.
   */
  async function save<Plan extends object>({ plan: planOf, run, queryKey, after }: SaveSteps<Row, Deleted, Plan>) {
    const plan = planOf(rows, deleted);
    if ('error' in plan) {
      showNotice(`Erreur : ${plan.error}`, 'red');
      return;
    }
    // Failures are told by onError: the promise only says the save is over.
    await saving.mutateAsync({ run: () => run(plan), queryKey, after }).catch(() => undefined);
  }

  return { rows, deleted, update, remove, add, save, saving: saving.isPending };
}
