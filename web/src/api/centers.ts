import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Center, CenterOption, CenterOverview, CenterPatch, UnlabeledAnswer, UserCenter } from '@olympe/contract';
import { api, isApiError, notifyError, refusalOf } from './client';
import { sendResumable, type UploadProgress } from './uploads';

/** Query keys of the centres area: mutations invalidate by these. */
export const centerKeys = {
  all: ['centers'] as const,
  options: (chapterId: string) => ['centers', 'options', chapterId] as const,
  mine: (chapterId: string) => ['centers', 'mine', chapterId] as const,
  center: (chapterId: string, institution?: string) => ['centers', 'center', chapterId, institution ?? 'own'] as const,
  overview: (chapterId: string) => ['centers', 'overview', chapterId] as const,
  unlabeled: (chapterId: string) => ['centers', 'unlabeled', chapterId] as const,
};

/** GET /center/institutions/{chapterId}: the centres with their status, for the selection map. */
export async function fetchCenterOptions(chapterId: string): Promise<CenterOption[]> {
  const { data } = await api.get<CenterOption[]>(`/center/institutions/${chapterId}`);
  return data;
}

/** GET /center/user/{chapterId}: the caller's registration and its centre. */
export async function fetchUserCenter(chapterId: string): Promise<UserCenter> {
  const { data } = await api.get<UserCenter>(`/center/user/${chapterId}`);
  return data;
}

/** PATCH /center/user/{chapterId}: registers at a centre (or moves, freeing the previous place). */
export async function chooseCenter(chapterId: string, institution: string): Promise<void> {
  await api.patch(`/center/user/${chapterId}`, { institution });
}

/** GET /center/{chapterId}: the caller's school centre (admins name the institution). */
export async function fetchCenter(chapterId: string, institution?: string): Promise<Center> {
  const { data } = await api.get<Center>(`/center/${chapterId}`, { params: institution ? { institution } : undefined });
  return data;
}

/** PATCH /center/{chapterId}: opened, instructions, nb_places; admins also institution and isPole. */
export async function saveCenter(chapterId: string, body: CenterPatch): Promise<void> {
  await api.patch(`/center/${chapterId}`, body);
}

/** POST /center/refuse/{chapterId}: turns away a registered pupil who claims the centre's school. */
export async function refuseRegistration(chapterId: string, user: string): Promise<void> {
  await api.post(`/center/refuse/${chapterId}`, { user });
}

/** GET /center/overview/{chapterId} (admins): registrations by centre and unregistered pupils. */
export async function fetchCenterOverview(chapterId: string): Promise<CenterOverview> {
  const { data } = await api.get<CenterOverview>(`/center/overview/${chapterId}`);
  return data;
}

/** GET /answer/unlabeled/{chapterId}: the scanned copies (school staff: their school's). */
export async function fetchUnlabeled(chapterId: string): Promise<UnlabeledAnswer[]> {
  const { data } = await api.get<UnlabeledAnswer[]>(`/answer/unlabeled/${chapterId}`);
  return data;
}

/** POST /answer/unlabeled/{chapterId}: files an uploaded PDF (path from POST /pdfs) as a scanned copy. */
export async function registerUnlabeled(chapterId: string, answer: string, institution: string | null): Promise<void> {
  await api.post(`/answer/unlabeled/${chapterId}`, { answer, institution });
}

/** The teacher's own centre for a chapter (GET /center/{chapterId}), as the centre page shows it. */
export function useCenter(chapterId: string | undefined) {
  return useQuery({
    queryKey: centerKeys.center(chapterId ?? ''),
    queryFn: () => fetchCenter(chapterId!),
    enabled: !!chapterId,
  });
}

/** docs/product.md#spec-8: what the console says when the registrations overview fails to load. */
export const OVERVIEW_ERROR_LOG = 'Erreur lors de la récupération des inscriptions';
/** docs/product.md#spec-8: what the console says when the pupil's own registration fails to load. */
export const USER_CENTER_ERROR_LOG = 'Erreur lors de la récupération des données';

/** Runs a fetch, logging a failure under the given French message before passing it on. */
async function logged<T>(message: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    console.error(message, error);
    throw error;
  }
}

export const centerOptionsQuery = (chapterId: string) =>
  queryOptions({ queryKey: centerKeys.options(chapterId), queryFn: () => fetchCenterOptions(chapterId) });

/** The centres of a chapter with their status (the selection map, the admins' poles). */
export function useCenterOptions(chapterId: string) {
  return useQuery(centerOptionsQuery(chapterId));
}

export const userCenterQuery = (chapterId: string) =>
  queryOptions({ queryKey: centerKeys.mine(chapterId), queryFn: () => logged(USER_CENTER_ERROR_LOG, () => fetchUserCenter(chapterId)) });

/** The pupil's registration and its centre (a failure is logged and no instructions are shown). */
export function useUserCenter(chapterId: string) {
  return useQuery(userCenterQuery(chapterId));
}

export const centerOverviewQuery = (chapterId: string) =>
  queryOptions({
    queryKey: centerKeys.overview(chapterId),
    queryFn: () => logged(OVERVIEW_ERROR_LOG, () => fetchCenterOverview(chapterId)),
    enabled: !!chapterId,
  });

/** Registrations by centre and unregistered pupils (admins, /registrations/{id}). */
export function useCenterOverview(chapterId: string) {
  return useQuery(centerOverviewQuery(chapterId));
}

export const unlabeledQuery = (chapterId: string) =>
  queryOptions({ queryKey: centerKeys.unlabeled(chapterId), queryFn: () => fetchUnlabeled(chapterId) });

/** The scanned copies uploaded for a chapter (school staff: their school's). */
export function useUnlabeled(chapterId: string) {
  return useQuery(unlabeledQuery(chapterId));
}

/** Saves a centre (its form, or an admin's pole mark); every centre query reloads before it stops pending. */
export function useSaveCenter(chapterId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CenterPatch) => saveCenter(chapterId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: centerKeys.all }),
  });
}

/** Registers the pupil at a centre (or moves her); every centre query reloads after. */
export function useChooseCenter(chapterId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (institution: string) => chooseCenter(chapterId, institution),
    onSuccess: () => client.invalidateQueries({ queryKey: centerKeys.all }),
  });
}

/** Turns away a registered pupil (by user id) who claims the centre's school; every centre query reloads after. */
export function useRefuseRegistration(chapterId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (user: string) => refuseRegistration(chapterId, user),
    onSuccess: () => client.invalidateQueries({ queryKey: centerKeys.all }),
  });
}

export interface ScansUpload {
  files: readonly File[];
  /** Where the file in hand stands (its index in `files`, bytes, speed, time left, waiting for the network). */
  onProgress: (index: number, progress: UploadProgress) => void;
  /** Cancels the file in hand (the server drops it) and leaves the next ones unsent. */
  signal?: AbortSignal;
}

/**
 * Uploads scanned PDFs one by one as resumable uploads (POST /uploads and PATCH chunks, decision 91),
 * then files each as a scanned copy (POST /answer/unlabeled/{chapterId}); a file that fails is logged
 * and given back in `failed` with the server's message (shown once as a notification). The list of copies reloads after,
 * before the mutation stops pending.
 */
export function useUploadScans(chapterId: string, target: { user: string; institution: string | null }) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ files, onProgress, signal }: ScansUpload) => {
      let done = 0;
      const failed: Array<{ file: File; message: string | null }> = [];
      for (const [index, file] of files.entries()) {
        if (signal?.aborted) {
          failed.push(...files.slice(index).map((f) => ({ file: f, message: null })));
          break;
        }
        try {
          const path = await sendResumable(
            file,
            { user: target.user, chapter: chapterId },
            { onProgress: (p) => onProgress(index, p), signal },
          ).catch((error: unknown) => {
            // The tus client is not api/client.ts: its refusal (too large, not a PDF) is shown here, a cancel is not.
            if (!(isApiError(error) && error.kind === 'aborted')) notifyError(error);
            throw error;
          });
          await registerUnlabeled(chapterId, path, target.institution);
          done++;
        } catch (error) {
          // docs/product.md#spec-8: an upload failure is only logged (its message was shown once).
          console.error(error);
          failed.push({ file, message: isApiError(error) && error.kind === 'http' ? (refusalOf(error)?.message ?? null) : null });
        }
      }
      return { done, failed, cancelled: signal?.aborted ?? false };
    },
    onSettled: () => client.invalidateQueries({ queryKey: centerKeys.unlabeled(chapterId) }),
  });
}
