import { subjectFileName, type AnswerFormat, type ChapterPage, type ExerciseRaw } from '@olympe/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from './client';

export const exerciseKeys = {
  raw: (chapterId: string) => ['exercises', 'raw', chapterId] as const,
  page: (chapterId: string) => ['exercises', 'chapter', chapterId] as const,
  one: (id: string) => ['exercises', id] as const,
};

export interface ExerciseFields {
  title: string;
  answerFormat: AnswerFormat;
  statementVersions: Array<{ content: string; answer: string | null }>;
  /** Decision 61: what the exercise is worth (default 1) and its marking-scheme items. */
  maxPoints?: number;
  schemeItems?: Array<{ id?: string; text: string; points: number }>;
}

/** PATCH /exos/{id}'s fields; `confirmRecompute` (decision 161) is the number of grades the scheme change moves, as previewed. */
export type ExercisePatch = Partial<ExerciseFields> & { confirmRecompute?: number };

/** GET /exos/raw/{chapterId}: every exercise with all versions and expected answers (admin). */
export async function fetchRawExercises(chapterId: string): Promise<ExerciseRaw[]> {
  const { data } = await api.get<ExerciseRaw[]>(`/exos/raw/${chapterId}`);
  return data;
}

export const rawExercisesQuery = (chapterId: string) =>
  queryOptions({ queryKey: exerciseKeys.raw(chapterId), queryFn: () => fetchRawExercises(chapterId) });

/** Every exercise of a chapter with all versions and expected answers (admins, /exos/{id}). */
export function useRawExercises(chapterId: string) {
  return useQuery(rawExercisesQuery(chapterId));
}

/** GET /exos/chapter/{id}: header and exercises as the caller may read them (pupils: their version only). */
export async function fetchChapterPage(chapterId: string): Promise<ChapterPage> {
  const { data } = await api.get<ChapterPage>(`/exos/chapter/${chapterId}`);
  return data;
}

export const chapterPageQuery = (chapterId: string) =>
  queryOptions({ queryKey: exerciseKeys.page(chapterId), queryFn: () => fetchChapterPage(chapterId) });

/** The chapter page's header and exercises, as the caller may read them. */
export function useChapterPage(chapterId: string) {
  return useQuery(chapterPageQuery(chapterId));
}

export async function createExercise(body: ExerciseFields & { chapter: string }, quiet = false): Promise<ExerciseRaw> {
  const { data } = await api.post<ExerciseRaw>('/exos', body, { skipNotifications: quiet });
  return data;
}

/** PATCH /exos/{id} with the changed fields only. */
export async function updateExercise(id: string, body: ExercisePatch, quiet = false): Promise<void> {
  await api.patch(`/exos/${id}`, body, { skipNotifications: quiet });
}

export async function deleteExercise(id: string, quiet = false): Promise<void> {
  await api.delete(`/exos/${id}`, { skipNotifications: quiet });
}

/** GET /exos/latex/{chapterId}, saved by the browser as "{chapter title}.tex" (docs/product.md#spec-9). */
export async function downloadSubject(chapterId: string, chapterTitle: string): Promise<void> {
  const { data } = await api.get<Blob>(`/exos/latex/${chapterId}`, { responseType: 'blob' });
  const url = URL.createObjectURL(new Blob([data], { type: 'application/x-tex;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = subjectFileName(chapterTitle);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Downloads a chapter's LaTeX subject (its title names the file); a failure is only logged. */
export function useDownloadSubject(chapterId: string) {
  return useMutation({
    mutationFn: (chapterTitle: string) => downloadSubject(chapterId, chapterTitle),
    onError: (error) => console.error(error),
  });
}
