import type {
  Board,
  Category,
  CutoffSettings,
  Decision,
  DecisionKind,
  Selection,
  SelectionInput,
  SelectionSummary,
  VersionSummary,
} from '@olympe/contract';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from './client';
import { downloadCenterFile } from './exam-day';

/** Selections: the jury's board, its settings, versions and publication (docs/product.md#selections, decisions 155–158). */

export const selectionKeys = {
  all: ['selections'] as const,
  detail: (id: string) => ['selections', id] as const,
  board: (id: string) => ['selections', id, 'board'] as const,
  changes: (id: string, n: number, from: number) => ['selections', id, 'changes', n, from] as const,
};

/** The body of PUT /selection/{id}/decision: `decision: null` undoes the jury's decision on that pupil. */
export interface DecisionBody {
  categoryId: string;
  key: string;
  decision: DecisionKind | null;
  reason: string;
}

/** The body of PUT /selection/{id}/publication (admins). */
export interface SelectionPublicationBody {
  mode: 'now' | 'scheduled' | 'unpublished';
  publishAt: string | null;
}

export type VersionChange = { key: string; name: string | null; categoryId: string; before: boolean; after: boolean };

/** GET /selection: the selections the caller sees (403 for who is neither admin nor on a jury). */
export async function fetchSelections(): Promise<SelectionSummary[]> {
  const { data } = await api.get<SelectionSummary[]>('/selection', { skipNotifications: true });
  return data;
}

/** GET /selection/{id}: settings, categories with their cut-offs, versions, the caller's right. */
export async function fetchSelection(id: string): Promise<Selection> {
  const { data } = await api.get<Selection>(`/selection/${id}`, { skipNotifications: true });
  return data;
}

/** POST /selection (admins). */
export async function createSelection(body: SelectionInput): Promise<Selection> {
  const { data } = await api.post<Selection>('/selection', body);
  return data;
}

/** PATCH /selection/{id} (admins). */
export async function updateSelection(id: string, body: SelectionInput): Promise<Selection> {
  const { data } = await api.patch<Selection>(`/selection/${id}`, body);
  return data;
}

/** PUT /selection/{id}/categories/{categoryId}/cutoff: saved quietly, the board says « Enregistré ». */
export async function saveCutoff(id: string, categoryId: string, settings: CutoffSettings): Promise<Category> {
  const { data } = await api.put<Category>(`/selection/${id}/categories/${categoryId}/cutoff`, settings, { skipNotifications: true });
  return data;
}

/** PUT /selection/{id}/decision. */
export async function saveDecision(id: string, body: DecisionBody): Promise<Decision[]> {
  const { data } = await api.put<Decision[]>(`/selection/${id}/decision`, body);
  return data;
}

/** GET /selection/{id}/board: every participant in columns, sorted by score. */
export async function fetchBoard(id: string): Promise<Board> {
  const { data } = await api.get<Board>(`/selection/${id}/board`, { skipNotifications: true });
  return data;
}

/** POST /selection/{id}/freeze: a new version (a 409 says why not: a tie unresolved, a cut-off missing). */
export async function freezeSelection(id: string, reason: string): Promise<VersionSummary> {
  const { data } = await api.post<VersionSummary>(`/selection/${id}/freeze`, { reason }, { skipNotifications: true });
  return data;
}

/** GET /selection/{id}/versions/{n}/changes?from=m: who changed status between two versions. */
export async function fetchVersionChanges(id: string, n: number, from: number): Promise<VersionChange[]> {
  const { data } = await api.get<VersionChange[]>(`/selection/${id}/versions/${n}/changes`, { params: { from } });
  return data;
}

/** POST /selection/{id}/reveal-names (admins, audited). */
export async function revealNames(id: string): Promise<Selection> {
  const { data } = await api.post<Selection>(`/selection/${id}/reveal-names`, {});
  return data;
}

/** PUT /selection/{id}/publication (admins). */
export async function updateSelectionPublication(id: string, body: SelectionPublicationBody): Promise<void> {
  await api.put(`/selection/${id}/publication`, body);
}

/** The two spreadsheets, fetched with the bearer token. */
export const downloadSelectionXlsx = (id: string, title: string) =>
  downloadCenterFile(`/selection/${id}/export.xlsx`, `Sélection - ${title}.xlsx`);
export const downloadFiguresXlsx = (id: string, title: string) =>
  downloadCenterFile(`/selection/${id}/figures.xlsx`, `Chiffres - ${title}.xlsx`);

export const selectionsQuery = queryOptions({ queryKey: selectionKeys.all, queryFn: fetchSelections, retry: false });
export const selectionQuery = (id: string) =>
  queryOptions({ queryKey: selectionKeys.detail(id), queryFn: () => fetchSelection(id), enabled: !!id, retry: false });
/** The board is fetched once: the browser recomputes each list from it (decision 156); a window's return does not reload it. */
export const boardQuery = (id: string) =>
  queryOptions({ queryKey: selectionKeys.board(id), queryFn: () => fetchBoard(id), enabled: !!id, retry: false, staleTime: Infinity });
export const versionChangesQuery = (id: string, n: number, from: number) =>
  queryOptions({
    queryKey: selectionKeys.changes(id, n, from),
    queryFn: () => fetchVersionChanges(id, n, from),
    enabled: n > 0 && from > 0 && n !== from,
  });

export function useSelections() {
  return useQuery(selectionsQuery);
}

export function useSelection(id: string) {
  return useQuery(selectionQuery(id));
}

export function useBoard(id: string) {
  return useQuery(boardQuery(id));
}

export function useVersionChanges(id: string, n: number, from: number) {
  return useQuery(versionChangesQuery(id, n, from));
}

const invalidateSelection = (client: QueryClient, id: string) =>
  Promise.all([
    client.invalidateQueries({ queryKey: selectionKeys.all, exact: true }),
    client.invalidateQueries({ queryKey: selectionKeys.detail(id), exact: true }),
  ]);

/** Creates a selection, then the list reloads. */
export function useCreateSelection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createSelection,
    onSuccess: () => client.invalidateQueries({ queryKey: selectionKeys.all, exact: true }),
  });
}

/** Saves a selection's settings; its board reloads too (the chapters or the categories may have changed). */
export function useUpdateSelection(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SelectionInput) => updateSelection(id, body),
    onSuccess: async () => {
      await Promise.all([invalidateSelection(client, id), client.invalidateQueries({ queryKey: selectionKeys.board(id) })]);
    },
  });
}

/** Saves one category's cut-off and quotas; the category saved takes its place in the selection, without a reload. */
export function useSaveCutoff(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ categoryId, settings }: { categoryId: string; settings: CutoffSettings }) => saveCutoff(id, categoryId, settings),
    onSuccess: (saved) =>
      client.setQueryData<Selection>(selectionKeys.detail(id), (s) =>
        s ? { ...s, categories: s.categories.map((c) => (c._id === saved._id ? saved : c)) } : s,
      ),
  });
}

/** Includes or excludes one pupil; the board's decisions of that category become the server's. */
export function useSaveDecision(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DecisionBody) => saveDecision(id, body),
    onSuccess: (decisions, body) =>
      client.setQueryData<Board>(selectionKeys.board(id), (b) =>
        b
          ? {
              ...b,
              decisions: [
                ...b.decisions.filter((d) => d.categoryId !== body.categoryId),
                ...decisions.filter((d) => d.categoryId === body.categoryId),
              ],
            }
          : b,
      ),
  });
}

/** Freezes a version: the selection (its versions), the list and the board (names, drift) reload. */
export function useFreezeSelection(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => freezeSelection(id, reason),
    onSuccess: async () => {
      await Promise.all([invalidateSelection(client, id), client.invalidateQueries({ queryKey: selectionKeys.board(id) })]);
    },
  });
}

/** Lifts the anonymity: the board reloads with the names. */
export function useRevealNames(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => revealNames(id),
    onSuccess: async (selection) => {
      client.setQueryData(selectionKeys.detail(id), selection);
      await client.invalidateQueries({ queryKey: selectionKeys.board(id) });
    },
  });
}

export function useUpdateSelectionPublication(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SelectionPublicationBody) => updateSelectionPublication(id, body),
    onSuccess: () => invalidateSelection(client, id),
  });
}
