import { useEffect, useRef, type ReactNode } from 'react';
import { MapContainer, Marker, Popup, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import type L from 'leaflet';
import { MAP_DEFAULT_VIEW, MAP_REDRAW_DEBOUNCE_MS, type Bounds, type Institution, type PlacedMarker } from '@olympe/contract';
import { markerIcons, type MarkerKind } from './marker-icons';

export interface SchoolMapProps {
  /** Accessible name of the map region. */
  label: string;
  /** Tile URL template from GET /api/config; empty: no tiles (markers still work). */
  tileUrl: string;
  markers: PlacedMarker<Institution>[];
  selectedId?: string | null;
  /** Called once the map is ready, then after each move or zoom (debounced 200 ms, docs/product.md#spec-9). */
  onBoundsChange: (bounds: Bounds) => void;
  onSelect: (institution: Institution) => void;
  /** A click on the map itself (not on a marker). */
  onMapClick?: (lat: number, lng: number) => void;
  renderPopup?: (institution: Institution) => ReactNode;
  /** A position not yet saved (the /map page's new or moved institution). */
  draft?: { lat: number; lng: number } | null;
  /** Centres the map here when it changes (e.g. a school chosen from the list); no zoom: the current one. */
  focus?: { lat: number; lng: number; zoom?: number } | null;
  height?: number | string;
}

const toBounds = (b: L.LatLngBounds): Bounds => ({
  south: b.getSouth(),
  west: b.getWest(),
  north: b.getNorth(),
  east: b.getEast(),
});

/** Reports the view after move/zoom, debounced: markers are recomputed when the user stops. */
function ViewWatcher({ onBoundsChange, onMapClick }: Pick<SchoolMapProps, 'onBoundsChange' | 'onMapClick'>) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const report = useRef(onBoundsChange);
  report.current = onBoundsChange;
  const map = useMapEvents({
    moveend: () => schedule(),
    zoomend: () => schedule(),
    click: (e) => onMapClick?.(e.latlng.lat, e.latlng.lng),
  });
  function schedule() {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => report.current(toBounds(map.getBounds())), MAP_REDRAW_DEBOUNCE_MS);
  }
  useEffect(() => {
    report.current(toBounds(map.getBounds()));
    return () => clearTimeout(timer.current);
  }, [map]);
  return null;
}

function Focus({ focus }: { focus: SchoolMapProps['focus'] }) {
  const map = useMap();
  useEffect(() => {
    if (focus) map.setView([focus.lat, focus.lng], focus.zoom ?? map.getZoom());
  }, [map, focus]);
  return null;
}

/** The shared Leaflet map of schools (profile and /map); loaded lazily with those routes only. */
export default function SchoolMap(props: SchoolMapProps) {
  const { markers, selectedId, onSelect, renderPopup, draft } = props;
  const kindOf = (i: Institution): MarkerKind => (i._id === selectedId ? 'selected' : i.confirmed ? 'confirmed' : 'unconfirmed');
  return (
    <div role="region" aria-label={props.label}>
      <MapContainer
        className="school-map"
        center={[MAP_DEFAULT_VIEW.lat, MAP_DEFAULT_VIEW.lng]}
        zoom={MAP_DEFAULT_VIEW.zoom}
        style={{ height: props.height ?? 420 }}
        scrollWheelZoom
      >
        {props.tileUrl && (
          <TileLayer
            url={props.tileUrl}
            attribution='&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>'
          />
        )}
        <ViewWatcher onBoundsChange={props.onBoundsChange} onMapClick={props.onMapClick} />
        <Focus focus={props.focus} />
        {markers.map(({ item, lat, lng }) => {
          const moved = draft && item._id === selectedId;
          return (
            // Leaflet sets a marker's title and alt only when it is created: the key remounts it
            // when they change (a renamed or newly verified institution).
            <Marker
              key={`${item._id}:${item.name}:${item.confirmed}`}
              position={moved ? [draft.lat, draft.lng] : [lat, lng]}
              icon={markerIcons[kindOf(item)]}
              title={item.name}
              alt={`${item.name}${item.confirmed ? '' : ' (non vérifié)'}`}
              eventHandlers={{ click: () => onSelect(item) }}
            >
              {renderPopup && <Popup>{renderPopup(item)}</Popup>}
            </Marker>
          );
        })}
        {draft && !markers.some((m) => m.item._id === selectedId) && (
          <Marker position={[draft.lat, draft.lng]} icon={markerIcons.selected} title="Nouvel établissement" alt="Nouvel établissement" />
        )}
      </MapContainer>
    </div>
  );
}
