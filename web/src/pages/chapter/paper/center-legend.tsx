import { Group, Text } from '@mantine/core';
import { CENTER_STATUS_LABELS, type CenterStatus } from '@olympe/contract';

/** Legend colours, matching the marker filters of center-map.css. */
export const CENTER_STATUS_COLORS: Record<CenterStatus, string> = {
  center: '#8e44c9',
  yes: '#2aad27',
  full: '#cb8427',
  unknown: '#2a81cb',
  no: '#7b7b7b',
};

const ORDER: CenterStatus[] = ['center', 'yes', 'full', 'unknown', 'no'];

/** docs/product.md#spec-2: the centre map has a colour legend per status. */
export function CenterLegend() {
  return (
    <Group gap="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Légende de la carte">
      {ORDER.map((status) => (
        <Text size="sm" component="li" key={status}>
          <span
            aria-hidden
            style={{
              display: 'inline-block',
              width: 10,
              height: 10,
              borderRadius: 5,
              background: CENTER_STATUS_COLORS[status],
              marginRight: 4,
            }}
          />
          {CENTER_STATUS_LABELS[status]}
        </Text>
      ))}
    </Group>
  );
}
