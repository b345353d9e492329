import { useMemo, useState } from 'react';
import { Button, Group, List, Select, Stack, Text, Title } from '@mantine/core';
import { useCenterOptions, useSaveCenter } from '../../api/centers';
import { useInstitutions } from '../../api/institutions';

/** Admins mark centres as poles (status center, open to all pupils), or take the mark away. */
export function PoleCenters({ chapterId }: { chapterId: string }) {
  const options = useCenterOptions(chapterId);
  const save = useSaveCenter(chapterId);
  const [choosing, setChoosing] = useState(false);
  const [institution, setInstitution] = useState<string | null>(null);
  const saving = save.isPending;
  const poles = (options.data ?? []).filter((o) => o.status === 'center');

  function mark(id: string, isPole: boolean) {
    save.mutate({ institution: id, isPole }, { onSuccess: () => setInstitution(null), onError: (error) => console.error(error) });
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby="pole-centers-title">
      <Title order={2} size="h4" id="pole-centers-title">
        Centres pôles
      </Title>
      {poles.length === 0 ? (
        <Text size="sm">Aucun centre pôle pour ce chapitre.</Text>
      ) : (
        <List size="sm">
          {poles.map((p) => (
            <List.Item key={p._id}>
              <Group gap="xs">
                {p.name}
                <Button size="compact-xs" variant="subtle" color="red" disabled={saving} onClick={() => mark(p._id, false)} aria-label={`Retirer le statut de centre pôle à ${p.name}`}>
                  Retirer
                </Button>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
      {choosing ? (
        <PolePicker value={institution} onChange={setInstitution} onSubmit={() => institution && mark(institution, true)} saving={saving} />
      ) : (
        <Button variant="light" w="fit-content" onClick={() => setChoosing(true)}>
          Désigner un centre pôle
        </Button>
      )}
    </Stack>
  );
}

function PolePicker(props: { value: string | null; onChange: (id: string | null) => void; onSubmit: () => void; saving: boolean }) {
  // The full list of schools loads only when an admin opens the picker.
  const institutions = useInstitutions();
  const data = useMemo(
    () => (institutions.data ?? []).map((i) => ({ value: i._id, label: i.address ? `${i.name} — ${i.address}` : i.name })),
    [institutions.data],
  );
  return (
    <Group align="end">
      <Select
        label="Établissement"
        placeholder={institutions.isPending ? 'Chargement…' : 'Rechercher un établissement'}
        data={data}
        value={props.value}
        onChange={props.onChange}
        searchable
        limit={50}
        nothingFoundMessage="Aucun établissement"
        miw={360}
      />
      <Button onClick={props.onSubmit} disabled={!props.value} loading={props.saving}>
        Marquer comme centre pôle
      </Button>
    </Group>
  );
}
