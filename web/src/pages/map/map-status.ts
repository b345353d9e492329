import { INSTITUTION_MAP_MAX_MARKERS, type InViewResponse } from '@olympe/contract';
import { frenchNumber } from '@olympe/contract/typography';

/** What the map of /map shows, said above it (decision 89: at most 500 markers, clusters for the rest). */
export function mapStatus(data: InViewResponse | undefined, failed: boolean, shown: number, isAdmin: boolean): string {
  if (!data) {
    return failed
      ? 'Les établissements de la carte n’ont pas pu être chargés : déplacez la carte pour réessayer.'
      : 'Chargement des établissements…';
  }
  if (!data.tooMany) return `${shown} établissement${shown > 1 ? 's' : ''} affiché${shown > 1 ? 's' : ''} sur la carte.`;
  const total = frenchNumber(data.total);
  return isAdmin
    ? `${total} établissements dans la zone affichée : seuls les ${shown} premiers en attente de vérification sont affichés (${INSTITUTION_MAP_MAX_MARKERS} au plus). Zoomez pour voir les autres.`
    : `${total} établissements dans la zone affichée : zoomez pour voir les marqueurs (${INSTITUTION_MAP_MAX_MARKERS} au plus).`;
}
