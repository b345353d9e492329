import type { MouseEvent } from 'react';
import { Alert, Anchor, Group, Stack } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { PDF_PATH_PATTERN } from '@olympe/contract';
import { usePdfLink } from '../../api/files';
import { PdfView } from '../../components/PdfView';
import { TestReturnBar, useTestReturnChapter } from '../../layout/test-return-bar';
import { PageHeading } from '../../components/page-heading';

export const NOT_A_PDF_TEXT = 'Ce lien ne désigne pas un fichier PDF : rien n’a été chargé.';

/**
 * docs/product.md#spec-2 "Visualisateur" (/viewer/{path}): a download link and every page of the PDF.
 * The path comes from the URL, so anyone can craft it: it is requested (with the reader's token)
 * only when it names a stored PDF ("pdfs/<uuid>.pdf", a read-only route). Any other path, such as
 * "answer/unlabeled/select/…" that reserves a copy, is refused before a single request.
 */
export function ViewerPage() {
  const requested = useParams()['*'] ?? '';
  const path = PDF_PATH_PATTERN.test(requested) ? requested : null;
  const link = usePdfLink();
  const busy = link.isPending;
  // Opened from a running timed test: the way back and the time left (a read of the session state only).
  const testChapter = useTestReturnChapter();

  // A download cannot send the bearer header: ask for a short-lived signed link at click time,
  // so the link never expires on a page left open.
  function download(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    if (busy || !path) return;
    link.mutate(path, {
      onSuccess: (url) => {
        const anchor = document.createElement('a');
        anchor.href = `${url}&download=1`;
        anchor.download = path.split('/').pop() ?? 'copie.pdf';
        document.body.appendChild(anchor);
        anchor.click();
        anchor.remove();
      },
      onError: (error) => console.error(error),
    });
  }

  if (!path) {
    return (
      <Stack>
        <PageHeading>Visualisateur</PageHeading>
        <Alert color="red" title="Lien invalide">
          {NOT_A_PDF_TEXT}
        </Alert>
      </Stack>
    );
  }

  return (
    <Stack>
      {testChapter && <TestReturnBar chapterId={testChapter} />}
      <Group justify="space-between" align="center">
        <PageHeading>Visualisateur</PageHeading>
        <Anchor href={`/api/${path}`} onClick={download} aria-busy={busy}>
          <Group gap={4} component="span">
            <IconDownload size={16} aria-hidden="true" />
            Télécharger le PDF
          </Group>
        </Anchor>
      </Group>
      <PdfView key={path} path={path} label="PDF" />
    </Stack>
  );
}
