import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
// Bundled by Vite (no CDN): Leaflet's default icon guesses its URL from the CSS, which breaks once bundled.
import iconRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import iconUrl from 'leaflet/dist/images/marker-icon.png';
import shadowUrl from 'leaflet/dist/images/marker-shadow.png';
import './school-map.css';

export type MarkerKind = 'confirmed' | 'unconfirmed' | 'selected';

const base = {
  iconUrl,
  iconRetinaUrl,
  shadowUrl,
  iconSize: [25, 41] as [number, number],
  iconAnchor: [12, 41] as [number, number],
  popupAnchor: [1, -34] as [number, number],
  shadowSize: [41, 41] as [number, number],
};

/** SPEC §2/§4: confirmed and unconfirmed schools have different marker colours (CSS filter on the one bundled icon). */
export const markerIcons: Record<MarkerKind, L.Icon> = {
  confirmed: new L.Icon({ ...base, className: 'school-marker school-marker--confirmed' }),
  unconfirmed: new L.Icon({ ...base, className: 'school-marker school-marker--unconfirmed' }),
  selected: new L.Icon({ ...base, className: 'school-marker school-marker--selected' }),
};
