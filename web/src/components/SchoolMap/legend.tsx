import { Group, Text } from '@mantine/core';

const dot = (color: string) => (
  <span aria-hidden style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, background: color, marginRight: 4 }} />
);

/** Colour key of the markers (docs/product.md#spec-4: unconfirmed institutions have a different colour). */
export function MarkerLegend() {
  return (
    <Group gap="md">
      <Text size="sm">{dot('#2a81cb')}Vérifié</Text>
      <Text size="sm">{dot('#cb8427')}En attente de vérification</Text>
      <Text size="sm">{dot('#2aad27')}Sélectionné</Text>
    </Group>
  );
}
