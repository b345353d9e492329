import type L from 'leaflet';
// Bundled by Vite (no CDN): Leaflet's default icon guesses its URL from the CSS, which breaks once bundled.
import iconRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import iconUrl from 'leaflet/dist/images/marker-icon.png';
import shadowUrl from 'leaflet/dist/images/marker-shadow.png';

/** Leaflet's blue marker, bundled; each map colours it with a CSS class per kind. */
export const markerIconBase: L.IconOptions = {
  iconUrl,
  iconRetinaUrl,
  shadowUrl,
  iconSize: [25, 41],
  iconAnchor: [12, 41],
  popupAnchor: [1, -34],
  shadowSize: [41, 41],
};
