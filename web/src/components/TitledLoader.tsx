import { Center, Loader, Stack } from '@mantine/core';
import { PageHeading } from './page-heading';

/** The page's title (h1 and browser tab) over a loader, while the page's data loads. */
export function TitledLoader({ title, label }: { title: string; label: string }) {
  return (
    <Stack>
      <PageHeading>{title}</PageHeading>
      <Center py="xl">
        <Loader role="status" aria-label={label} />
      </Center>
    </Stack>
  );
}
