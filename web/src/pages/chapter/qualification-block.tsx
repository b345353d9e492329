import { Alert, Card, Paper, Stack, Text, Title } from '@mantine/core';
import { formatFrenchDate, formatPoints, qualifiedText, type OwnQualification } from '@olympe/contract';
import { isApiError } from '../../api/client';
import { downloadQualificationLetter, useMyQualifications } from '../../api/qualifications';
import { DownloadButton } from '../../components/download-button';

/** « 42 points », « 1,5 point »: French points, singular below two, a no-break space before the unit. */
export function pointsText(n: number): string {
  return `${formatPoints(n)}\u00a0${Math.abs(n) < 2 ? 'point' : 'points'}`;
}

/** One published selection as the pupil reads it (docs/product.md#selections, decision 157). */
export function QualificationCard({ qualification: q }: { qualification: OwnQualification }) {
  return (
    <Card withBorder padding="md" radius="md" component="section" aria-label={q.title}>
      <Stack gap="xs">
        <Title order={3} size="h4">
          {q.title}
        </Title>
        {q.qualified ? (
          <Paper withBorder p="xs" radius="sm" style={{ borderColor: 'var(--mantine-color-green-7)', borderWidth: 2 }}>
            {/* Default text colour on white, as the results card's qualification: the green border carries the news. */}
            <Text fw={700}>{qualifiedText(q)}</Text>
          </Paper>
        ) : (
          <Text fw={700}>{qualifiedText(q)}</Text>
        )}
        <Text>Catégorie : {q.category}</Text>
        <Text>Votre score : {pointsText(q.score)}</Text>
        {q.cutoff !== null && <Text>Seuil : {pointsText(q.cutoff)}</Text>}
        {q.qualified && q.nextRoundDate && <Text>Date du tour suivant : {formatFrenchDate(q.nextRoundDate)}</Text>}
        {q.qualified && q.nextRoundPlace && <Text>Lieu : {q.nextRoundPlace}</Text>}
        {q.qualified && (
          <DownloadButton label="Télécharger la lettre de qualification" run={() => downloadQualificationLetter(q.selectionId, q.title)} />
        )}
      </Stack>
    </Card>
  );
}

/** The pupil's qualifications, beside their certificate: nothing while none is published. */
export function PupilQualifications() {
  const query = useMyQualifications();
  if (query.isPending) return null;
  if (query.isError) {
    return isApiError(query.error) && query.error.code === 'forbidden' ? null : (
      <Alert color="red">Impossible de charger vos qualifications.</Alert>
    );
  }
  if (query.data.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="pupil-qualifications">
      <Title order={2} size="h3" id="pupil-qualifications">
        Sélections
      </Title>
      {query.data.map((q) => (
        <QualificationCard key={q.selectionId} qualification={q} />
      ))}
    </Stack>
  );
}
