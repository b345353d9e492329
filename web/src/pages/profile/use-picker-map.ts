import { useMemo, useState } from 'react';
import { PROFILE_MAP_MAX_MARKERS, spreadSameLocation, type Institution } from '@olympe/contract';
import { frenchNumber } from '@olympe/contract/typography';
import { useInstitution, useInstitutionsInView, type MapView } from '../../api/institutions';

const FOCUS_ZOOM = 16;

const plural = (n: number, word: string) => `${word}${n > 1 ? 's' : ''}`;

/**
 * The profile's school map (decision 89): it asks the server for its view, opens on the school named on arrival and
 * goes to each school chosen later (`follow`).
 */
export function usePickerMap(startId: string | null) {
  const [view, setView] = useState<MapView | null>(null);
  const [focus, setFocus] = useState<{ lat: number; lng: number; zoom: number } | null>(null);
  const start = useInstitution(startId);
  const inView = useInstitutionsInView(view, 'profile');
  const data = inView.data;
  const placed = useMemo(() => spreadSameLocation(data?.schools ?? []), [data]);

  const startView =
    start.data?.latitude != null && start.data.longitude != null
      ? { lat: start.data.latitude, lng: start.data.longitude, zoom: FOCUS_ZOOM }
      : null;
  const follow = (institution: Institution) => {
    if (institution.latitude != null && institution.longitude != null) {
      setFocus({ lat: institution.latitude, lng: institution.longitude, zoom: FOCUS_ZOOM });
    }
  };

  const status = !data
    ? view === null
      ? // The map is not placed yet (on a phone, not before the pupil scrolls near it): nothing is loading.
        ''
      : inView.isError
        ? 'Les établissements de la carte n’ont pas pu être chargés : déplacez la carte pour réessayer.'
        : 'Chargement des établissements…'
    : data.tooMany
      ? `${frenchNumber(data.total)} établissements dans la zone affichée : zoomez ou précisez la recherche pour voir les marqueurs (${PROFILE_MAP_MAX_MARKERS} au plus).`
      : `${placed.length} ${plural(placed.length, 'établissement')} ${plural(placed.length, 'affiché')} sur la carte.`;

  return {
    placed,
    clusters: data?.clusters,
    status,
    focus,
    follow,
    startView,
    // The map waits for the current school's position (one small answer) rather than open on France and jump.
    ready: startId === null || !start.isPending,
    onBoundsChange: (bounds: Omit<MapView, 'zoom'>, zoom: number) => setView({ ...bounds, zoom }),
  };
}

export type PickerMap = ReturnType<typeof usePickerMap>;
