import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { inFrance } from './coordinates';
import { positionOf } from './draft';
import type { InstitutionEditor } from './use-institution-editor';

/** Without the mouse (decision 88): the selected school's latitude and longitude, typed with a decimal comma. */
export function PositionForm({ editor }: { editor: InstitutionEditor }) {
  const { draft, setDraft, errors, moves } = editor;
  if (!draft) return null;
  const at = positionOf(draft);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        editor.placeTyped();
      }}
      aria-label="Position de l’établissement"
      noValidate
    >
      <Stack gap="xs">
        <Group align="flex-start" grow>
          <TextInput
            label="Latitude"
            description="Par exemple 48,8566"
            inputMode="decimal"
            autoComplete="off"
            value={draft.latText}
            error={errors.lat}
            onChange={(e) => setDraft({ ...draft, latText: e.currentTarget.value })}
          />
          <TextInput
            label="Longitude"
            description="Par exemple 2,3522"
            inputMode="decimal"
            autoComplete="off"
            value={draft.lngText}
            error={errors.lng}
            onChange={(e) => setDraft({ ...draft, lngText: e.currentTarget.value })}
          />
        </Group>
        <Group>
          <Button type="submit" variant="light">
            Placer sur la carte
          </Button>
        </Group>
        <div aria-live="polite">
          {errors.position && (
            <Text size="sm" c="red.8">
              {errors.position}
            </Text>
          )}
          {at && !inFrance(at.lat, at.lng) && (
            // orange.9 on white is 4.3:1, under AA for small text (axe, profile journey): the darkest red is 6:1.
            <Text size="sm" c="red.9">
              Cette position est hors de France et de ses territoires d’outre-mer : vérifiez la latitude et la longitude (inversées ?).
            </Text>
          )}
        </div>
        {moves.undoable && (
          <Alert variant="light" color="blue" aria-live="polite">
            <Group justify="space-between">
              <Text size="sm">Établissement déplacé{moves.undoable.saved ? ' et enregistré' : ''}.</Text>
              <Button size="xs" variant="default" onClick={moves.revert}>
                Annuler le déplacement
              </Button>
            </Group>
          </Alert>
        )}
      </Stack>
    </form>
  );
}
