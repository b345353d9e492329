import { Center, Loader, Stack, Title } from '@mantine/core';

/** The page's title over a loader, while the table's data loads. */
export function TitledLoader({ title, label }: { title: string; label: string }) {
  return (
    <Stack>
      <Title order={1}>{title}</Title>
      <Center py="xl">
        <Loader role="status" aria-label={label} />
      </Center>
    </Stack>
  );
}
