import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { MapContainer, Marker, TileLayer } from 'react-leaflet';
import { CENTER_STATUS_LABELS, MAP_DEFAULT_VIEW, type CenterOption, type CenterStatus, type PlacedMarker } from '@olympe/contract';
import { markerIconBase } from '../../../components/SchoolMap/leaflet-icon';
import { isSelectable } from './center-options';
import './center-map.css';

const iconCache = new Map<string, L.Icon>();
function iconOf(status: CenterStatus, selected: boolean): L.Icon {
  const key = `${status}:${selected}`;
  let icon = iconCache.get(key);
  if (!icon) {
    icon = new L.Icon({ ...markerIconBase, className: `center-marker center-marker--${status}${selected ? ' center-marker--selected' : ''}` });
    iconCache.set(key, icon);
  }
  return icon;
}

export interface CenterMapProps {
  height: number;
  tileUrl: string;
  markers: PlacedMarker<CenterOption>[];
  selectedId: string | null;
  onSelect: (option: CenterOption) => void;
}

/** The map of exam centres (Leaflet, loaded with the paper panel only). */
export default function CenterMap({ height, tileUrl, markers, selectedId, onSelect }: CenterMapProps) {
  return (
    <div role="region" aria-label="Carte des centres d’examen">
      <MapContainer
        className="center-map"
        center={[MAP_DEFAULT_VIEW.lat, MAP_DEFAULT_VIEW.lng]}
        zoom={MAP_DEFAULT_VIEW.zoom}
        style={{ height }}
        scrollWheelZoom
      >
        {tileUrl && (
          <TileLayer url={tileUrl} attribution='&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>' />
        )}
        {markers.map(({ item, lat, lng }) => {
          const selectable = isSelectable(item);
          const label = `${item.name} : ${CENTER_STATUS_LABELS[item.status]}${item.own ? ' (votre établissement)' : ''}`;
          return (
            // Leaflet sets title, alt and keyboard focus when a marker is created: the key remounts it when they change.
            <Marker
              key={`${item._id}:${item.status}:${item._id === selectedId}`}
              position={[lat, lng]}
              icon={iconOf(item.status, item._id === selectedId)}
              title={label}
              alt={label}
              keyboard={selectable}
              interactive={selectable}
              eventHandlers={selectable ? { click: () => onSelect(item) } : undefined}
            />
          );
        })}
      </MapContainer>
    </div>
  );
}
