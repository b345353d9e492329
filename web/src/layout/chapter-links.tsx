import { ActionIcon, Group, NavLink, Text } from '@mantine/core';
import { IconSchool } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ChapterSummary } from '@olympe/contract';
import { paths } from '../config/paths';

interface ChapterLinksProps {
  chapters: readonly ChapterSummary[];
  /** docs/product.md#spec-2: members get a "Corriger" shortcut to the grading table of each chapter. */
  showGrader: boolean;
  pathname: string;
}

export function ChapterLinks({ chapters, showGrader, pathname }: ChapterLinksProps) {
  if (chapters.length === 0) {
    return (
      <Text size="sm" c="gray.7" px="sm">
        Aucun test pour le moment.
      </Text>
    );
  }
  return (
    <>
      {chapters.map((chapter) => (
        // The grader icon is a sibling of the chapter link: links must not be nested.
        <Group key={chapter._id} gap={0} wrap="nowrap">
          <NavLink
            component={Link}
            to={paths.chapter(chapter._id)}
            label={chapter.title}
            active={pathname === paths.chapter(chapter._id)}
            style={{ flex: 1 }}
          />
          {showGrader && (
            <ActionIcon
              component={Link}
              to={paths.grader(chapter._id)}
              variant="subtle"
              color="gray.8"
              // Titled « Corriger » (docs/product.md#spec-2); named after its chapter for a screen reader, as the menu's own
              // « Corriger » opens the « À corriger » list (decision 141).
              title="Corriger"
              aria-label={`Corriger « ${chapter.title} »`}
            >
              <IconSchool size={18} aria-hidden />
            </ActionIcon>
          )}
        </Group>
      ))}
    </>
  );
}
