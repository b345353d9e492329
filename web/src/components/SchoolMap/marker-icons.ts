import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import './school-map.css';
import { markerIconBase as base } from './leaflet-icon';
import { frenchNumber } from '@olympe/contract/typography';

export type MarkerKind = 'confirmed' | 'unconfirmed' | 'selected';

/** docs/product.md#spec-2/§4: confirmed and unconfirmed schools have different marker colours (CSS filter on the one bundled icon). */
export const markerIcons: Record<MarkerKind, L.Icon> = {
  confirmed: new L.Icon({ ...base, className: 'school-marker school-marker--confirmed' }),
  unconfirmed: new L.Icon({ ...base, className: 'school-marker school-marker--unconfirmed' }),
  selected: new L.Icon({ ...base, className: 'school-marker school-marker--selected' }),
};

const count = (n: number) => frenchNumber(n);

/** The accessible name of a cluster marker (decision 89): « 1 240 établissements ici : zoomer ». */
export const clusterLabel = (n: number) => `${count(n)} établissement${n > 1 ? 's' : ''} ici : zoomer`;

const clusterIcons = new Map<number, L.DivIcon>();

/**
 * A cluster's marker: a disc with the number, wider for longer numbers. Leaflet makes the marker's element a
 * focusable button; its name is the hidden sentence (the visible number alone would say nothing).
 */
export function clusterIcon(n: number): L.DivIcon {
  let icon = clusterIcons.get(n);
  if (!icon) {
    const size = 30 + 6 * Math.max(0, count(n).length - 2);
    icon = L.divIcon({
      className: 'school-cluster',
      html: `<span aria-hidden="true">${count(n)}</span><span class="school-cluster__label">${clusterLabel(n)}</span>`,
      iconSize: [size, 30],
      iconAnchor: [size / 2, 15],
    });
    clusterIcons.set(n, icon);
  }
  return icon;
}
