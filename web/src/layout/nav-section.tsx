import type { ReactNode } from 'react';
import { Box, Text } from '@mantine/core';

/** A titled group of sidebar links; the title is a heading so screen readers can jump between sections. */
export function NavSection({ title, children }: { title: string; children: ReactNode }) {
  const id = `nav-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <Box component="section" aria-labelledby={id} mb="md">
      <Text id={id} component="h2" size="xs" fw={700} tt="uppercase" c="gray.7" px="sm" mb={4}>
        {title}
      </Text>
      {children}
    </Box>
  );
}
