import { useEffect, useState } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';

/** `photos` with the page at `index` moved by `by` places (−1 before, +1 after); unchanged at either end. */
export function movePhoto(photos: File[], index: number, by: -1 | 1): File[] {
  const target = index + by;
  if (target < 0 || target >= photos.length) return photos;
  const moved = [...photos];
  [moved[index], moved[target]] = [moved[target], moved[index]];
  return moved;
}

/** A picture the browser can show, for as long as the page shows it (none where the browser has no object URLs). */
function usePreviewUrl(file: File): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (typeof URL.createObjectURL !== 'function') return;
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url;
}

function Thumbnail({ file, page }: { file: File; page: number }) {
  const url = usePreviewUrl(file);
  const [failed, setFailed] = useState(false);
  // Most browsers but Safari cannot show a HEIC: its name stands in; the server reads it all the same.
  if (!url || failed) {
    return (
      <Text
        size="xs"
        c="dimmed"
        ta="center"
        style={{ height: 120, display: 'flex', alignItems: 'center', justifyContent: 'center', wordBreak: 'break-all' }}
      >
        {file.name}
      </Text>
    );
  }
  return (
    <img
      src={url}
      alt={`Page ${page}\u00a0: ${file.name}`}
      onError={() => setFailed(true)}
      style={{ height: 120, width: '100%', objectFit: 'contain' }}
    />
  );
}

/**
 * The photos of a copy before they are sent (decision 140): a thumbnail a page in the order they will be in the
 * PDF; the pupil moves a page before or after another, removes one, then sends them all.
 */
export function PhotoPages({
  photos,
  onChange,
  onSend,
  sending,
}: {
  photos: File[];
  onChange: (photos: File[]) => void;
  onSend: () => void;
  sending: boolean;
}) {
  if (photos.length === 0) return null;
  const count = photos.length === 1 ? '1 page' : `${photos.length} pages`;
  return (
    <Stack gap="xs" aria-label="Photos de la copie" role="group">
      <Text size="sm">
        Votre copie en photos ({count}), dans l’ordre où elles seront envoyées{'\u00a0'}:
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
        {photos.map((photo, index) => {
          const page = index + 1;
          return (
            <Paper
              key={`${photo.name}-${photo.size}-${photo.lastModified}-${index}`}
              withBorder
              p={4}
              role="figure"
              aria-label={`Page ${page}`}
            >
              <Stack gap={4}>
                <Thumbnail file={photo} page={page} />
                <Text size="xs" ta="center">
                  Page {page}
                </Text>
                <Group gap={4} justify="center" wrap="nowrap">
                  <Button
                    size="compact-xs"
                    variant="default"
                    disabled={index === 0}
                    aria-label={`Mettre la page ${page} avant`}
                    onClick={() => onChange(movePhoto(photos, index, -1))}
                  >
                    ←
                  </Button>
                  <Button
                    size="compact-xs"
                    variant="default"
                    disabled={index === photos.length - 1}
                    aria-label={`Mettre la page ${page} après`}
                    onClick={() => onChange(movePhoto(photos, index, 1))}
                  >
                    →
                  </Button>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="red"
                    aria-label={`Retirer la page ${page}`}
                    onClick={() => onChange(photos.filter((_, i) => i !== index))}
                  >
                    Retirer
                  </Button>
                </Group>
              </Stack>
            </Paper>
          );
        })}
      </SimpleGrid>
      <Group>
        <Button loading={sending} onClick={onSend}>
          Envoyer les photos
        </Button>
      </Group>
    </Stack>
  );
}
