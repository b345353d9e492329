import { useState } from 'react';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import type { InstitutionEditor } from './use-institution-editor';

/** Decision 87: an address sent to the server's geocoder; a place found puts the selected school there. */
export function AddressSearch({ editor }: { editor: InstitutionEditor }) {
  const [address, setAddress] = useState('');
  const { draft, geocoder, moves } = editor;
  if (!draft) return null;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (address.trim().length >= 3) geocoder.mutate(address.trim());
      }}
      aria-label="Recherche d’adresse"
    >
      <Stack gap="xs">
        <Group align="flex-end">
          <TextInput
            label="Rechercher une adresse"
            description="La position trouvée place l’établissement sur la carte."
            style={{ flex: 1 }}
            value={address}
            onChange={(e) => setAddress(e.currentTarget.value)}
          />
          <Button type="submit" variant="light" loading={geocoder.isPending} disabled={address.trim().length < 3}>
            Chercher
          </Button>
        </Group>
        {geocoder.data && (
          <div aria-live="polite">
            {geocoder.data.results.length === 0 ? (
              <Text size="sm">Aucune adresse trouvée.</Text>
            ) : (
              <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {geocoder.data.results.map((r) => (
                  <li key={`${r.label}:${r.latitude}:${r.longitude}`}>
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      onClick={() => {
                        // An empty address takes the one found.
                        moves.request({ lat: r.latitude, lng: r.longitude }, true, draft.address.trim() ? {} : { address: r.label });
                      }}
                    >
                      {`Placer ici : ${r.label}`}
                    </Button>
                  </li>
                ))}
              </Stack>
            )}
          </div>
        )}
      </Stack>
    </form>
  );
}
