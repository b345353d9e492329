import { Group, Text } from '@mantine/core';

const dot = (color: string) => (
  <span aria-hidden style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, background: color, marginRight: 4 }} />
);

/**
 * Colour key of the markers (docs/product.md#spec-4: unconfirmed institutions have a different colour), and of
 * the clusters when the map shows some (decision 89).
 */
export function MarkerLegend({ clusters = false }: { clusters?: boolean }) {
  return (
    <Group gap="md">
      <Text size="sm">{dot('#2a81cb')}Vérifié</Text>
      <Text size="sm">{dot('#cb8427')}En attente de vérification</Text>
      <Text size="sm">{dot('#2aad27')}Sélectionné</Text>
      {clusters && <Text size="sm">{dot('#1c4f80')}Groupe d’établissements : cliquez sur son nombre pour zoomer</Text>}
    </Group>
  );
}
