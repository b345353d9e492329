import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useState, type ReactNode } from 'react';
import { MapContainer, Marker, Popup, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { CENTER_STATUS_LABELS, MAP_DEFAULT_VIEW, type CenterOption, type CenterStatus, type PlacedMarker } from '@olympe/contract';
import { markerIconBase } from '../../../components/SchoolMap/leaflet-icon';
import { FrenchZoomControl } from '../../../components/SchoolMap/zoom-control';
import { fanOutAtZoom, isSelectable } from './center-options';
import { CenterDetailsList } from './center-details';
import './center-map.css';

const iconCache = new Map<string, L.Icon>();
function iconOf(status: CenterStatus, selected: boolean): L.Icon {
  const key = `${status}:${selected}`;
  let icon = iconCache.get(key);
  if (!icon) {
    icon = new L.Icon({
      ...markerIconBase,
      className: `center-marker center-marker--${status}${selected ? ' center-marker--selected' : ''}`,
    });
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

/** Follows the map's zoom, so centres at one place are fanned out by screen pixels. */
function ZoomWatcher({ onZoom }: { onZoom: (zoom: number) => void }) {
  const map = useMapEvents({ zoomend: () => onZoom(map.getZoom()) });
  return null;
}

/** Leaflet's popup adds about 80 px of margins, padding and border around its content. */
const POPUP_CHROME_PX = 80;

/**
 * The widest popup content that fits in the map (decision 141): Leaflet's default of 300 px, plus its chrome, is wider
 * than a phone's map (about 310 px at 375 px), which cut the popup off at both sides whatever the panning.
 */
export function popupMaxWidth(mapWidth: number): number {
  return Math.max(160, Math.min(280, mapWidth - POPUP_CHROME_PX));
}

function FittedPopup({ children }: { children: ReactNode }) {
  const map = useMap();
  return (
    <Popup maxWidth={popupMaxWidth(map.getSize().x)} minWidth={160} autoPanPadding={[12, 12]} keepInView>
      {children}
    </Popup>
  );
}

/** The map of exam centres (Leaflet, loaded with the paper panel only). */
export default function CenterMap({ height, tileUrl, markers: given, selectedId, onSelect }: CenterMapProps) {
  const [zoom, setZoom] = useState<number>(MAP_DEFAULT_VIEW.zoom);
  const markers = fanOutAtZoom(given, zoom);
  return (
    <div role="region" aria-label="Carte des centres d’examen">
      <MapContainer
        className="center-map"
        center={[MAP_DEFAULT_VIEW.lat, MAP_DEFAULT_VIEW.lng]}
        zoom={MAP_DEFAULT_VIEW.zoom}
        style={{ height }}
        scrollWheelZoom
        zoomControl={false}
      >
        <FrenchZoomControl />
        <ZoomWatcher onZoom={setZoom} />
        {tileUrl && <TileLayer url={tileUrl} attribution='&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>' />}
        {markers.map(({ item, lat, lng }) => {
          const selectable = isSelectable(item);
          const label = `${item.name} : ${CENTER_STATUS_LABELS[item.status]}${item.own ? ' (votre établissement)' : ''}`;
          return (
            // Leaflet sets title, alt and keyboard focus when a marker is created: the key remounts it when they change.
            <Marker
              key={`${item._id}:${item.status}:${item._id === selectedId}`}
              position={[lat, lng]}
              icon={iconOf(item.status, item._id === selectedId)}
              title={label}
              alt={label}
              keyboard
            >
              {/* Decision 59: a click opens the centre's details; registering takes a button and a confirmation. */}
              <FittedPopup>
                <div className="center-popup">
                  <strong>{item.name}</strong>
                  <div>{CENTER_STATUS_LABELS[item.status]}</div>
                  {item.details ? <CenterDetailsList details={item.details} compact /> : item.address && <div>{item.address}</div>}
                  {selectable && item._id !== selectedId && (
                    <button type="button" className="center-popup__choose" onClick={() => onSelect(item)}>
                      Choisir ce centre
                    </button>
                  )}
                  {item._id === selectedId && <div>Vous êtes inscrit dans ce centre.</div>}
                </div>
              </FittedPopup>
            </Marker>
          );
        })}
      </MapContainer>
    </div>
  );
}
