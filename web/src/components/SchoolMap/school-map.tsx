import { useEffect, useRef, type ReactNode } from 'react';
import { MapContainer, Marker, Popup, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import type L from 'leaflet';
import {
  MAP_DEFAULT_VIEW,
  MAP_REDRAW_DEBOUNCE_MS,
  type Bounds,
  type Institution,
  type MapCluster,
  type PlacedMarker,
} from '@olympe/contract';
import { clusterIcon, clusterLabel, markerIcons, type MarkerKind } from './marker-icons';
import { FrenchZoomControl } from './zoom-control';

export interface SchoolMapProps {
  /** Accessible name of the map region. */
  label: string;
  /** Tile URL template from GET /api/config; empty: no tiles (markers still work). */
  tileUrl: string;
  markers: PlacedMarker<Institution>[];
  /** Groups of schools the server did not send one by one (decision 89): a marker with their number, a click zooms in. */
  clusters?: MapCluster[];
  selectedId?: string | null;
  /** Called once the map is ready, then after each move or zoom (debounced 200 ms, docs/product.md#spec-9). */
  onBoundsChange: (bounds: Bounds, zoom: number) => void;
  onSelect: (institution: Institution) => void;
  /** A click on the map itself (not on a marker). */
  onMapClick?: (lat: number, lng: number) => void;
  renderPopup?: (institution: Institution) => ReactNode;
  /** A position not yet saved (the /map page's new or moved institution). */
  draft?: { lat: number; lng: number } | null;
  /** Centres the map here when it changes (e.g. a school chosen from the list); no zoom: the current one. */
  focus?: { lat: number; lng: number; zoom?: number } | null;
  /** Where the map opens (read once); France by default. */
  initialView?: { lat: number; lng: number; zoom: number } | null;
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
    timer.current = setTimeout(() => report.current(toBounds(map.getBounds()), map.getZoom()), MAP_REDRAW_DEBOUNCE_MS);
  }
  useEffect(() => {
    report.current(toBounds(map.getBounds()), map.getZoom());
    return () => clearTimeout(timer.current);
  }, [map]);
  return null;
}

/**
 * Leaflet reads its size on window resizes only: a container that changes width later (the app shell's
 * sidebar sliding in or out after a rotation) would leave it with a stale size, and the view it reports (the
 * schools the server sends) would be that of a narrower map. A ResizeObserver tells it every change.
 */
function SizeWatcher() {
  const map = useMap();
  useEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => map.invalidateSize({ debounceMoveend: true }));
    observer.observe(map.getContainer());
    return () => observer.disconnect();
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

/** Deepest zoom a cluster's click goes to: the street, where schools sharing a site are spread apart. */
const CLUSTER_MAX_ZOOM = 17;

/** One cluster: its number on a round marker; a click, Enter or Space zooms to its schools. */
function ClusterMarker({ cluster }: { cluster: MapCluster }) {
  const map = useMap();
  const zoomIn = () =>
    map.fitBounds(
      [
        [cluster.south, cluster.west],
        [cluster.north, cluster.east],
      ],
      { padding: [40, 40], maxZoom: Math.max(map.getZoom() + 1, CLUSTER_MAX_ZOOM) },
    );
  return (
    <Marker
      position={[cluster.latitude, cluster.longitude]}
      icon={clusterIcon(cluster.count)}
      title={clusterLabel(cluster.count)}
      eventHandlers={{
        click: zoomIn,
        keydown: (e) => {
          const key = (e.originalEvent as KeyboardEvent).key;
          if (key !== 'Enter' && key !== ' ') return;
          e.originalEvent.preventDefault();
          zoomIn();
        },
      }}
    />
  );
}

/** The shared Leaflet map of schools (profile and /map); loaded lazily with those routes only. */
export default function SchoolMap(props: SchoolMapProps) {
  const { markers, selectedId, onSelect, renderPopup, draft } = props;
  const start = props.initialView ?? MAP_DEFAULT_VIEW;
  const kindOf = (i: Institution): MarkerKind => (i._id === selectedId ? 'selected' : i.confirmed ? 'confirmed' : 'unconfirmed');
  return (
    <div role="region" aria-label={props.label}>
      <MapContainer
        className="school-map"
        center={[start.lat, start.lng]}
        zoom={start.zoom}
        style={{ height: props.height ?? 420 }}
        scrollWheelZoom
        zoomControl={false}
      >
        <FrenchZoomControl />
        {props.tileUrl && (
          <TileLayer url={props.tileUrl} attribution='&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>' />
        )}
        <ViewWatcher onBoundsChange={props.onBoundsChange} onMapClick={props.onMapClick} />
        <Focus focus={props.focus} />
        <SizeWatcher />
        {props.clusters?.map((c) => (
          <ClusterMarker key={`${c.latitude}:${c.longitude}:${c.count}`} cluster={c} />
        ))}
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
