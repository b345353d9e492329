import { Suspense } from 'react';
import { Center, Loader } from '@mantine/core';
import type { Institution } from '@olympe/contract';
import { usePublicConfig } from '../../api/institutions';
import { SchoolMap } from '../../components/SchoolMap';
import { WhenNear } from '../../components/when-near';
import type { PickerMap as PickerMapState } from './use-picker-map';

const mapLoader = (
  <Center h={420}>
    <Loader role="status" aria-label="Chargement de la carte" />
  </Center>
);

/** The map of the school picker: a click on a marker chooses its school. */
export function PickerMap({ map, selectedId, onSelect }: { map: PickerMapState; selectedId?: string; onSelect: (i: Institution) => void }) {
  const { data: config } = usePublicConfig();
  return (
    // Decisions 121–122: the map is below the form (a screen or two on a phone); Leaflet, its chunk, the schools in
    // view and the tiles come when the pupil scrolls within 200 px of it, not with the page: its first draw is
    // a 200 ms task on a phone's CPU, while the pupil starts filling in the form.
    <WhenNear minHeight={420} margin="200px">
      <Suspense fallback={mapLoader}>
        {map.ready ? (
          <SchoolMap
            label="Carte des établissements"
            tileUrl={config?.tileUrl ?? ''}
            markers={map.placed}
            clusters={map.clusters}
            selectedId={selectedId}
            onBoundsChange={map.onBoundsChange}
            onSelect={onSelect}
            focus={map.focus}
            initialView={map.startView}
            renderPopup={(i) => (
              <>
                <strong>{i.name}</strong>
                {i.address && <div>{i.address}</div>}
                {!i.confirmed && <div>En attente de vérification</div>}
              </>
            )}
          />
        ) : (
          mapLoader
        )}
      </Suspense>
    </WhenNear>
  );
}
