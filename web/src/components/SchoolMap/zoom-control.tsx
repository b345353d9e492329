import { ZoomControl } from 'react-leaflet';

/** French titles of the zoom buttons; Leaflet also gives them as the buttons' aria-label. */
export const ZOOM_IN_TITLE = 'Zoomer';
export const ZOOM_OUT_TITLE = 'Dézoomer';

/**
 * Leaflet's zoom buttons, named in French (decision 141): its own control says « Zoom in » and « Zoom out » to a
 * screen reader. A map using it sets `zoomControl={false}` on its MapContainer.
 */
export function FrenchZoomControl() {
  return <ZoomControl position="topleft" zoomInTitle={ZOOM_IN_TITLE} zoomOutTitle={ZOOM_OUT_TITLE} />;
}
