import type {
  AutoCorrectionCount,
  DeletionImpact,
  InstitutionResults,
  PreviewOptions,
  Publication,
  PublicationUpdateInput,
  ResultsCard,
  ReturnedCopies,
} from '@olympe/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { chapterKeys } from './chapters';
import { api, handleSuccess, isApiError, notifyError } from './client';
import { downloadCenterFile } from './exam-day';

/** Decisions 69–72: results (cards, publication, school results, certificates) and the counts of confirmation dialogs. */

export const resultsKeys = {
  all: ['results'] as const,
  card: (chapterId: string) => ['results', 'card', chapterId] as const,
  preview: (chapterId: string, userId: string, options: PreviewOptions = {}) => ['results', 'preview', chapterId, userId, options] as const,
  publication: (chapterId: string) => ['results', 'publication', chapterId] as const,
  institution: (chapterId: string) => ['results', 'institution', chapterId] as const,
  impact: (kind: string, id: string) => ['results', 'impact', kind, id] as const,
  autoCount: (chapterId: string) => ['results', 'auto-count', chapterId] as const,
  copies: (chapterId: string) => ['results', 'copies', chapterId] as const,
};

/** GET /results/{chapterId}: the pupil's own card (403 before publication: no card, no notice). */
export async function fetchResultsCard(chapterId: string): Promise<ResultsCard> {
  const { data } = await api.get<ResultsCard>(`/results/${chapterId}`, { skipNotifications: true });
  return data;
}

export function useResultsCard(chapterId: string, enabled: boolean) {
  return useQuery({
    queryKey: resultsKeys.card(chapterId),
    queryFn: () => fetchResultsCard(chapterId),
    enabled: enabled && !!chapterId,
    retry: false,
  });
}

/** GET /results/{chapterId}/preview/{userId} (admins): the card that pupil gets. */
export async function fetchPreview(chapterId: string, userId: string, options: PreviewOptions = {}): Promise<ResultsCard> {
  const { data } = await api.get<ResultsCard>(`/results/${chapterId}/preview/${userId}`, { params: options });
  return data;
}

/** The card under the dialog's options, saved or not; the previous card stays shown while the next one loads. */
export function usePreview(chapterId: string, userId: string | null, options: PreviewOptions = {}) {
  return useQuery({
    queryKey: resultsKeys.preview(chapterId, userId ?? '', options),
    queryFn: () => fetchPreview(chapterId, userId!, options),
    enabled: !!userId,
    placeholderData: keepPreviousData,
  });
}

/** GET /results/{chapterId}/publication (admins). */
export async function fetchPublication(chapterId: string): Promise<Publication> {
  const { data } = await api.get<Publication>(`/results/${chapterId}/publication`);
  return data;
}

export function usePublication(chapterId: string) {
  return useQuery({ queryKey: resultsKeys.publication(chapterId), queryFn: () => fetchPublication(chapterId) });
}

/**
 * PUT /results/{chapterId}/publication; the chapters list and the results reload after. A 409
 * `still_answering` (decision 139) is not notified: the dialog asks the admin to confirm instead.
 */
export async function updatePublication(chapterId: string, body: PublicationUpdateInput): Promise<void> {
  try {
    handleSuccess(await api.put(`/results/${chapterId}/publication`, body, { skipNotifications: true }));
  } catch (error) {
    if (stillAnsweringOf(error) === null) notifyError(error);
    throw error;
  }
}

/** Decision 139: the number of pupils still able to answer a refused publication names, else null. */
export function stillAnsweringOf(error: unknown): number | null {
  if (!isApiError(error) || error.code !== 'still_answering') return null;
  const n = (error.response?.data as { stillAnswering?: unknown } | undefined)?.stillAnswering;
  return typeof n === 'number' ? n : null;
}

export function useUpdatePublication(chapterId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PublicationUpdateInput) => updatePublication(chapterId, body),
    onSuccess: async () => {
      await Promise.all([client.invalidateQueries({ queryKey: resultsKeys.all }), client.invalidateQueries({ queryKey: chapterKeys.all })]);
    },
  });
}

/** GET /results/{chapterId}/institution (school staff): their school's pupils. */
export async function fetchInstitutionResults(chapterId: string): Promise<InstitutionResults> {
  const { data } = await api.get<InstitutionResults>(`/results/${chapterId}/institution`, { skipNotifications: true });
  return data;
}

export function useInstitutionResults(chapterId: string, enabled: boolean) {
  return useQuery({
    queryKey: resultsKeys.institution(chapterId),
    queryFn: () => fetchInstitutionResults(chapterId),
    enabled: enabled && !!chapterId,
    retry: false,
  });
}

/** GET /results/{chapterId}/copies: the pupil's corrected copies, when the chapter returns them (decision 162). */
export async function fetchReturnedCopies(chapterId: string): Promise<ReturnedCopies> {
  const { data } = await api.get<ReturnedCopies>(`/results/${chapterId}/copies`, { skipNotifications: true });
  return data;
}

export function useReturnedCopies(chapterId: string, enabled: boolean) {
  return useQuery({
    queryKey: resultsKeys.copies(chapterId),
    queryFn: () => fetchReturnedCopies(chapterId),
    enabled: enabled && !!chapterId,
    retry: false,
  });
}

/** The files of results, fetched with the bearer token. */
export const downloadCorrectedCopy = (chapterId: string, exerciseId: string, title: string, exercise: string) =>
  downloadCenterFile(`/results/${chapterId}/copies/${exerciseId}.pdf`, `Ma copie corrigée - ${title} - ${exercise}.pdf`);
export const downloadCopiesZip = (chapterId: string, title: string) =>
  downloadCenterFile(`/results/${chapterId}/copies.zip`, `Copies corrigées - ${title}.zip`);
export const downloadCertificate = (chapterId: string, title: string) =>
  downloadCenterFile(`/results/${chapterId}/certificate.pdf`, `Attestation - ${title}.pdf`);
export const downloadInstitutionXlsx = (chapterId: string, title: string) =>
  downloadCenterFile(`/results/${chapterId}/institution.xlsx`, `Résultats - ${title}.xlsx`);
export const downloadChapterGradesXlsx = (chapterId: string, title: string) =>
  downloadCenterFile(`/results/${chapterId}/grades.xlsx`, `Notes - ${title}.xlsx`);
export const downloadCertificatesZip = (chapterId: string, title: string) =>
  downloadCenterFile(`/results/${chapterId}/certificates.zip`, `Attestations - ${title}.zip`);

/** GET /results/impact/{kind}/{id} (admins): what a deletion takes with it. */
export async function fetchDeletionImpact(kind: 'chapter' | 'exercise', id: string): Promise<DeletionImpact> {
  const { data } = await api.get<DeletionImpact>(`/results/impact/${kind}/${id}`);
  return data;
}

export function useDeletionImpact(kind: 'chapter' | 'exercise', id: string | null) {
  return useQuery({
    queryKey: resultsKeys.impact(kind, id ?? ''),
    queryFn: () => fetchDeletionImpact(kind, id!),
    enabled: !!id,
    staleTime: 0,
  });
}

export async function fetchGroupImpact(id: string): Promise<{ members: number }> {
  const { data } = await api.get<{ members: number }>(`/results/impact/group/${id}`);
  return data;
}

export function useGroupImpact(id: string | null) {
  return useQuery({ queryKey: resultsKeys.impact('group', id ?? ''), queryFn: () => fetchGroupImpact(id!), enabled: !!id, staleTime: 0 });
}

/** GET /answer/auto/{chapterId}/count (admins): how many copies « Correction automatique » would grade. */
export async function fetchAutoCorrectionCount(chapterId: string): Promise<number> {
  const { data } = await api.get<AutoCorrectionCount>(`/answer/auto/${chapterId}/count`);
  return data.count;
}

export function useAutoCorrectionCount(chapterId: string, enabled: boolean) {
  return useQuery({
    queryKey: resultsKeys.autoCount(chapterId),
    queryFn: () => fetchAutoCorrectionCount(chapterId),
    enabled,
    staleTime: 0,
  });
}
