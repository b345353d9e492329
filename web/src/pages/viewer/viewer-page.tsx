import { useState, type MouseEvent } from 'react';
import { Anchor, Group, Stack, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { fetchPdfLink } from '../../api/files';
import { PdfView } from '../../components/PdfView';

/** SPEC §2 "Visualisateur" (/viewer/{path}): a download link and every page of the PDF. */
export function ViewerPage() {
  const path = useParams()['*'] ?? '';
  const [busy, setBusy] = useState(false);

  // A download cannot send the bearer header: ask for a short-lived signed link at click time,
  // so the link never expires on a page left open.
  async function download(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const url = await fetchPdfLink(path);
      const link = document.createElement('a');
      link.href = `${url}&download=1`;
      link.download = path.split('/').pop() ?? 'copie.pdf';
      document.body.appendChild(link);
      link.click();
      link.remove();
    } catch (error) {
      console.error(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack>
      <Group justify="space-between" align="center">
        <Title order={1}>Visualisateur</Title>
        <Anchor href={`/api/${path}`} onClick={download} aria-busy={busy}>
          <Group gap={4} component="span">
            <IconDownload size={16} aria-hidden="true" />
            Télécharger le PDF
          </Group>
        </Anchor>
      </Group>
      {path ? <PdfView key={path} path={path} label="PDF" /> : null}
    </Stack>
  );
}
