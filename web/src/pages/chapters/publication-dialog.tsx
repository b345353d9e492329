import { useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { schemaResolver, useForm, type UseFormReturnType } from '@mantine/form';
import { Alert, Button, Checkbox, Group, Loader, Modal, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  DEFAULT_QUALIFICATION_TEXT,
  formatParisDateTime,
  isoToParisWallClock,
  isWallClock,
  parisWallClockToIso,
  publicationUpdateSchema,
  type Publication,
  type PublicationUpdateInput,
} from '@olympe/contract';
import { DecimalField } from '../../components/decimal-field';
import { DownloadButton } from '../../components/download-button';
import { DateTimeField } from '../../components/DateFields';
import { downloadCertificatesZip, stillAnsweringOf, usePreview, usePublication, useUpdatePublication } from '../../api/results';
import { ConfirmDialog, countOf } from '../../components/confirm-dialog';
import { ResultsCardView } from '../chapter/results-card';

type Mode = PublicationUpdateInput['mode'];

const checkPublication = schemaResolver(publicationUpdateSchema, { sync: true });

/** What the confirmation says before a publication change (decision 69), with its counts. */
export function publicationMessage(p: Pick<Publication, 'counts' | 'published'>, mode: Mode, publishAt: string | null): string {
  const pupils = countOf(p.counts.pupils, 'élève');
  const graded = `${countOf(p.counts.graded, 'copie notée', 'copies notées')} sur ${countOf(p.counts.answers, 'copie')}`;
  if (mode === 'now') return `${pupils} verront leurs notes, leurs commentaires et leur total dès maintenant (${graded}).`;
  if (mode === 'scheduled' && publishAt)
    return `${pupils} verront leurs résultats le ${formatParisDateTime(publishAt!)} (heure de Paris), sans autre action (${graded} à ce jour).`;
  return p.published
    ? `${pupils} ne verront plus leurs résultats ; les réponses restent verrouillées jusqu’à une nouvelle publication.`
    : 'Les résultats restent non publiés.';
}

/** Decision 139: « 2 élèves peuvent encore répondre », and what publishing does to them. */
export function stillAnsweringMessage(n: number, mode: Mode): string {
  const who = `${countOf(n, 'élève')} ${n > 1 ? 'peuvent' : 'peut'} encore répondre`;
  const when = mode === 'scheduled' ? 'à l’instant choisi' : 'maintenant';
  return `${who} à ce chapitre (fenêtre, tiers-temps ou prolongation) : publier ${when} leur montre les résultats et arrête leur épreuve.`;
}

/** Decision 69: publish now or at a time (Paris), the options pupils' cards follow, and a preview for one pupil. */
export function PublicationDialog({
  chapterId,
  name,
  initialMode,
  onClose,
}: {
  chapterId: string;
  name: string;
  initialMode?: Mode;
  onClose: () => void;
}) {
  const query = usePublication(chapterId);
  return (
    <Modal opened onClose={onClose} title={`Publication des résultats : ${name}`} size="lg" closeButtonProps={{ 'aria-label': 'Fermer' }}>
      {query.isPending ? (
        <Loader role="status" aria-label="Chargement de la publication" />
      ) : query.isError ? (
        <Alert color="red">Impossible de charger la publication de ce chapitre.</Alert>
      ) : (
        <PublicationForm chapterId={chapterId} publication={query.data} initialMode={initialMode} onClose={onClose} />
      )}
    </Modal>
  );
}

function stateText(p: Publication): string {
  if (p.analysis) return 'Résultats publiés.';
  if (p.publishAt)
    return p.published
      ? `Résultats publiés le ${formatParisDateTime(p.publishAt)}.`
      : `Publication programmée le ${formatParisDateTime(p.publishAt)} (heure de Paris).`;
  return 'Résultats non publiés.';
}

/** The dialog's values: the mode, the Paris wall clock of a scheduled publication, and the options pupils' cards follow. */
interface PublicationValues {
  mode: Mode;
  wall: string;
  showRank: boolean;
  threshold: number | null;
  text: string;
  /** Decision 162: the corrected copies go back to the pupils; the returned copy names its corrector. */
  copiesReturned: boolean;
  correctorNamed: boolean;
}

function PublicationForm({
  chapterId,
  publication,
  initialMode,
  onClose,
}: {
  chapterId: string;
  publication: Publication;
  initialMode?: Mode;
  onClose: () => void;
}) {
  const current: Mode = publication.analysis ? 'now' : publication.publishAt ? 'scheduled' : 'unpublished';
  const form = useForm<PublicationValues>({
    initialValues: {
      mode: initialMode ?? current,
      wall: publication.publishAt ? isoToParisWallClock(publication.publishAt) : '',
      showRank: publication.showRank,
      threshold: publication.qualificationThreshold,
      text: publication.qualificationText,
      copiesReturned: publication.copiesReturned,
      correctorNamed: publication.correctorNamed,
    },
  });
  const [thresholdError, setThresholdError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const { mode, wall, showRank, threshold, text, copiesReturned, correctorNamed } = form.values;
  const publishAt = mode === 'scheduled' && isWallClock(wall) ? parisWallClockToIso(wall) : null;
  const body: PublicationUpdateInput = {
    mode,
    publishAt,
    showRank,
    qualificationThreshold: threshold,
    qualificationText: text,
    copiesReturned,
    correctorNamed,
  };
  // The contract's own rule, with its words: a scheduled publication needs its date and time.
  const wallError = (checkPublication(body).publishAt as string | undefined) ?? null;
  return (
    <Stack>
      <Text fw={600}>{stateText(publication)}</Text>
      <PublicationFields form={form} publication={publication} wallError={wallError} onThresholdError={setThresholdError} />
      <PupilPreview chapterId={chapterId} publication={publication} values={form.values} />
      <Group justify="space-between">
        <DownloadButton
          variant="subtle"
          label="Télécharger toutes les attestations (ZIP)"
          run={() => downloadCertificatesZip(chapterId, publication.title)}
        />
        <Group>
          <Button variant="default" onClick={onClose}>
            Annuler
          </Button>
          <Button onClick={() => setConfirming(true)} disabled={!!wallError || !!thresholdError}>
            Enregistrer
          </Button>
        </Group>
      </Group>
      <PublicationConfirmations
        publication={publication}
        chapterId={chapterId}
        body={body}
        confirming={confirming}
        onConfirming={setConfirming}
        onClose={onClose}
      />
    </Stack>
  );
}

/** How and when to publish, and the options pupils' cards follow. */
function PublicationFields(props: {
  form: UseFormReturnType<PublicationValues>;
  publication: Publication;
  wallError: string | null;
  onThresholdError: (error: string | null) => void;
}) {
  const { form, publication, wallError, onThresholdError } = props;
  const { mode, wall, threshold } = form.values;
  return (
    <>
      <Radio.Group label="Publication" value={mode} onChange={(v) => form.setFieldValue('mode', v as Mode)}>
        <Stack gap={6} mt={4}>
          <Radio value="now" label="Publier maintenant" />
          <Radio value="scheduled" label="Programmer la publication" />
          <Radio value="unpublished" label="Ne pas publier" />
        </Stack>
      </Radio.Group>
      {mode === 'scheduled' && (
        <DateTimeField
          label="Date et heure de publication (heure de Paris)"
          value={wall}
          onChange={(value) => form.setFieldValue('wall', value)}
          error={wall && wallError}
        />
      )}
      <Checkbox label="Montrer aux élèves leur rang et leur centile" {...form.getInputProps('showRank', { type: 'checkbox' })} />
      <DecimalField
        label="Seuil de qualification (points)"
        description={`Vide : pas de qualification. Total maximal : ${String(publication.maxTotal).replace('.', ',')}.`}
        optional
        min={0}
        max={publication.maxTotal}
        maxDecimals={2}
        unit="points"
        value={threshold}
        onChange={(value, error) => {
          form.setFieldValue('threshold', value);
          onThresholdError(error);
        }}
      />
      <TextInput label="Mention des élèves qualifiés" placeholder={DEFAULT_QUALIFICATION_TEXT} {...form.getInputProps('text')} />
      <Checkbox label="Rendre les copies corrigées aux élèves" {...form.getInputProps('copiesReturned', { type: 'checkbox' })} />
      <Checkbox
        label="Nommer le correcteur sur la copie rendue"
        disabled={!form.values.copiesReturned}
        {...form.getInputProps('correctorNamed', { type: 'checkbox' })}
      />
    </>
  );
}

/** A preview for one pupil: it follows the options as they are typed (debounced), before they are saved. */
function PupilPreview({ chapterId, publication, values }: { chapterId: string; publication: Publication; values: PublicationValues }) {
  const [previewOf, setPreviewOf] = useState<string | null>(null);
  const [previewOptions] = useDebouncedValue(
    {
      showRank: String(values.showRank) as 'true' | 'false',
      qualificationThreshold: values.threshold ?? '',
      qualificationText: values.text,
    },
    300,
  );
  const preview = usePreview(chapterId, previewOf, previewOptions);
  return (
    <>
      <Select
        label="Aperçu pour un élève"
        placeholder={publication.pupils.length === 0 ? 'Aucun participant' : 'Choisir un élève'}
        searchable
        limit={50}
        nothingFoundMessage="Aucun élève"
        data={publication.pupils.map((p) => ({ value: p._id, label: `${p.lastName ?? ''} ${p.firstName ?? ''}`.trim() || 'Sans nom' }))}
        value={previewOf}
        onChange={setPreviewOf}
      />
      {previewOf && preview.data && <ResultsCardView card={preview.data} heading="Aperçu de la carte de résultats" />}
      {previewOf && (
        <Text size="sm" c="gray.8">
          L’aperçu suit les options ci-dessus, même avant leur enregistrement.
        </Text>
      )}
    </>
  );
}

/**
 * The confirmation with its counts and, decision 139, the second one when the server refused (409
 * still_answering): how many pupils may still answer, to confirm.
 */
function PublicationConfirmations(props: {
  publication: Publication;
  chapterId: string;
  body: PublicationUpdateInput;
  confirming: boolean;
  onConfirming: (confirming: boolean) => void;
  onClose: () => void;
}) {
  const { publication, chapterId, body, confirming, onConfirming, onClose } = props;
  const { mode, publishAt } = body;
  const save = useUpdatePublication(chapterId);
  const [stillAnswering, setStillAnswering] = useState<number | null>(null);
  return (
    <>
      <ConfirmDialog
        opened={confirming}
        title={
          mode === 'now' ? 'Publier les résultats ?' : mode === 'scheduled' ? 'Programmer la publication ?' : 'Retirer la publication ?'
        }
        message={confirming ? publicationMessage(publication, mode, publishAt ?? null) : null}
        confirmLabel={mode === 'now' ? 'Publier' : mode === 'scheduled' ? 'Programmer' : 'Retirer la publication'}
        danger={mode === 'unpublished'}
        loading={save.isPending}
        onCancel={() => onConfirming(false)}
        onConfirm={() =>
          save.mutate(body, {
            onSuccess: () => {
              onConfirming(false);
              onClose();
            },
            onError: (error) => {
              onConfirming(false);
              setStillAnswering(stillAnsweringOf(error));
            },
          })
        }
      />
      <ConfirmDialog
        opened={stillAnswering !== null}
        title="Des élèves peuvent encore répondre"
        message={stillAnswering === null ? null : stillAnsweringMessage(stillAnswering, mode)}
        confirmLabel={mode === 'scheduled' ? 'Programmer quand même' : 'Publier quand même'}
        danger
        loading={save.isPending}
        onCancel={() => setStillAnswering(null)}
        onConfirm={() =>
          save.mutate(
            { ...body, confirm: stillAnswering ?? 0 },
            {
              onSuccess: () => {
                setStillAnswering(null);
                onClose();
              },
              // Another refusal carries the new number (a pupil joined meanwhile); any other error closes the question.
              onError: (error) => setStillAnswering(stillAnsweringOf(error)),
            },
          )
        }
      />
    </>
  );
}
