import { Stack, Title } from '@mantine/core';
import type { ChapterDetail } from '@olympe/contract';
import { MathText } from '../../components/MathText';

export type HeaderField = 'headerStudents' | 'headerCenters';

/** The chapter's instructions for pupils and, for a test on paper, for the exam centres: saved when the text area is left. */
export function ChapterHeaders({ chapter, onSave }: { chapter: ChapterDetail; onSave: (field: HeaderField, value: string) => void }) {
  return (
    <>
      <Stack gap={4}>
        <Title order={2} size="h4">
          Instructions pour les élèves
        </Title>
        <MathText
          label="Instructions pour les élèves"
          value={chapter.headerStudents}
          onChange={(value) => onSave('headerStudents', value)}
        />
      </Stack>
      {chapter.offline && (
        <Stack gap={4}>
          <Title order={2} size="h4">
            Instructions pour les centres d’examen
          </Title>
          <MathText
            label="Instructions pour les centres d’examen"
            value={chapter.headerCenters ?? ''}
            onChange={(value) => onSave('headerCenters', value)}
          />
        </Stack>
      )}
    </>
  );
}
