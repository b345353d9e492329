import { useState } from 'react';
import { Button, Group, List, Stack, Text, Title } from '@mantine/core';
import { useCenterOptions, useSaveCenter } from '../../api/centers';
import { useSchoolSearch } from '../../api/institutions';
import { SchoolSearch } from '../../components/school-search';

/** Admins mark centres as poles (status center, open to all pupils), or take the mark away. */
export function PoleCenters({ chapterId }: { chapterId: string }) {
  const options = useCenterOptions(chapterId);
  const save = useSaveCenter(chapterId);
  const [choosing, setChoosing] = useState(false);
  const [institution, setInstitution] = useState<{ _id: string; name: string } | null>(null);
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
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  disabled={saving}
                  onClick={() => mark(p._id, false)}
                  aria-label={`Retirer le statut de centre pôle à ${p.name}`}
                >
                  Retirer
                </Button>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
      {choosing ? (
        <PolePicker
          value={institution}
          onChange={setInstitution}
          onSubmit={() => institution && mark(institution._id, true)}
          saving={saving}
        />
      ) : (
        <Button variant="light" w="fit-content" onClick={() => setChoosing(true)}>
          Désigner un centre pôle
        </Button>
      )}
    </Stack>
  );
}

/** The school to mark, found by the server's search (decision 89: no page downloads the whole directory). */
function PolePicker(props: {
  value: { _id: string; name: string } | null;
  onChange: (school: { _id: string; name: string }) => void;
  onSubmit: () => void;
  saving: boolean;
}) {
  const search = useSchoolSearch();
  return (
    <Stack gap="xs" maw={560}>
      <SchoolSearch
        search={search}
        onChoose={(school) => props.onChange({ _id: school._id, name: school.name })}
        selectedId={props.value?._id}
      />
      <Group align="center">
        <Text size="sm">{props.value ? `Établissement choisi : ${props.value.name}` : 'Aucun établissement choisi.'}</Text>
        <Button onClick={props.onSubmit} disabled={!props.value} loading={props.saving}>
          Marquer comme centre pôle
        </Button>
      </Group>
    </Stack>
  );
}
