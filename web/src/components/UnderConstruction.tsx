import { Stack, Text, Title } from '@mantine/core';

/** Shared placeholder for screens of SPEC §2 that are not built yet; remove a use when its screen lands. */
export function UnderConstruction({ title }: { title: string }) {
  return (
    <Stack>
      <Title order={1}>{title}</Title>
      <Text>Cette page est en construction.</Text>
    </Stack>
  );
}
