import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import './school-map.css';
import { markerIconBase as base } from './leaflet-icon';

export type MarkerKind = 'confirmed' | 'unconfirmed' | 'selected';

/** docs/product.md#spec-2/§4: confirmed and unconfirmed schools have different marker colours (CSS filter on the one bundled icon). */
export const markerIcons: Record<MarkerKind, L.Icon> = {
  confirmed: new L.Icon({ ...base, className: 'school-marker school-marker--confirmed' }),
  unconfirmed: new L.Icon({ ...base, className: 'school-marker school-marker--unconfirmed' }),
  selected: new L.Icon({ ...base, className: 'school-marker school-marker--selected' }),
};
