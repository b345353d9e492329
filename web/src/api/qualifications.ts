import type { OwnQualification, PublishedSelection, SchoolQualified, SelectionSummary } from '@olympe/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { downloadCenterFile } from './exam-day';

/**
 * After a selection's decision (docs/product.md#selections, decision 157): a pupil's own qualifications and letter,
 * a school's qualified pupils and their XLSX, and the selections an access group may require. The jury's own calls
 * are in api/selections.ts; the keys share its `selections` root, so its invalidations reach these too.
 */

export const qualificationKeys = {
  mine: ['selections', 'mine'] as const,
  published: ['selections', 'published'] as const,
  school: (selectionId: string, institution: string | null) => ['selections', selectionId, 'school', institution] as const,
  choices: ['selections', 'choices'] as const,
};

/** GET /selection/mine: the published selections the caller took part in, qualified or not. */
export async function fetchMyQualifications(): Promise<OwnQualification[]> {
  const { data } = await api.get<OwnQualification[]>('/selection/mine', { skipNotifications: true });
  return data;
}

/** GET /selection/published (school staff and admins): the published selections. */
export async function fetchPublishedSelections(): Promise<PublishedSelection[]> {
  const { data } = await api.get<PublishedSelection[]>('/selection/published', { skipNotifications: true });
  return data;
}

/** GET /selection/{id}/school: the qualified pupils of the caller's school (an admin names the school). */
export async function fetchSchoolQualified(selectionId: string, institution: string | null): Promise<SchoolQualified> {
  const { data } = await api.get<SchoolQualified>(`/selection/${selectionId}/school`, {
    params: institution ? { institution } : undefined,
    skipNotifications: true,
  });
  return data;
}

/** GET /selection (admins): every selection, which the access page offers to require. */
export async function fetchSelectionChoices(): Promise<SelectionSummary[]> {
  const { data } = await api.get<SelectionSummary[]>('/selection');
  return data;
}

export const myQualificationsQuery = (enabled: boolean) =>
  queryOptions({ queryKey: qualificationKeys.mine, queryFn: fetchMyQualifications, enabled, retry: false });
export const publishedSelectionsQuery = () =>
  queryOptions({ queryKey: qualificationKeys.published, queryFn: fetchPublishedSelections, retry: false });
export const schoolQualifiedQuery = (selectionId: string, institution: string | null) =>
  queryOptions({
    queryKey: qualificationKeys.school(selectionId, institution),
    queryFn: () => fetchSchoolQualified(selectionId, institution),
    enabled: !!selectionId,
    retry: false,
  });
export const selectionChoicesQuery = (enabled: boolean) =>
  queryOptions({ queryKey: qualificationKeys.choices, queryFn: fetchSelectionChoices, enabled, staleTime: 60_000 });

export const useMyQualifications = (enabled = true) => useQuery(myQualificationsQuery(enabled));
export const usePublishedSelections = () => useQuery(publishedSelectionsQuery());
export const useSchoolQualified = (selectionId: string, institution: string | null) =>
  useQuery(schoolQualifiedQuery(selectionId, institution));
export const useSelectionChoices = (enabled = true) => useQuery(selectionChoicesQuery(enabled));

/** The files, fetched with the bearer token; a refusal's French message is shown under the button. */
export const downloadQualificationLetter = (selectionId: string, title: string) =>
  downloadCenterFile(`/selection/${selectionId}/letter`, `Lettre de qualification - ${title}.pdf`);
export const downloadSchoolQualifiedXlsx = (selectionId: string, title: string, institution: string | null) =>
  downloadCenterFile(`/selection/${selectionId}/school.xlsx`, `Qualifiés - ${title}.xlsx`, institution ?? undefined);
