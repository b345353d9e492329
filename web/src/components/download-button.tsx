import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';

/** A download button that says the server's refusal under it (it is not a notification: the pupil may miss one). */
export function DownloadButton({
  label,
  run,
  variant = 'light',
}: {
  label: string;
  run: () => Promise<void>;
  variant?: 'light' | 'subtle';
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Stack gap={4}>
      <Button
        variant={variant}
        w="fit-content"
        leftSection={<IconDownload size={16} aria-hidden="true" />}
        loading={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            await run();
          } catch (e) {
            setError(e instanceof Error ? e.message : 'Le fichier n’a pas pu être téléchargé.');
          } finally {
            setBusy(false);
          }
        }}
      >
        {label}
      </Button>
      {error && (
        <Text c="red.9" size="sm" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
