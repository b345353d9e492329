import { lazy, Suspense, useMemo, useState } from 'react';
import { Alert, Button, Center, Group, Loader, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { CENTER_STATUS_LABELS, NO_INSTRUCTIONS_TEXT, type CenterOption, type UserCenter } from '@olympe/contract';
import { useCenterOptions, useChooseCenter, useUserCenter } from '../../../api/centers';
import { usePublicConfig } from '../../../api/institutions';
import { useSession } from '../../../session/session-context';
import { CenterLegend } from './center-legend';
import { extraAtOnce, isSelectable, selectCenterMarkers, visibleOptions } from './center-options';
import { CenterDetailsList } from './center-details';
import { centerFileUrl, downloadCenterFile } from '../../../api/exam-day';
import type { CenterMapProps } from './center-map';

const CenterMap = lazy(() => import('./center-map'));
const CENTER_MAP_HEIGHT = 420;

export const OWN_SCHOOL_REFUSES = 'Votre établissement n’organise pas cette épreuve : choisissez un autre centre.';
export const REFUSED_TEXT =
  'Ce centre a indiqué que vous n’êtes pas élève de son établissement : choisissez un autre centre d’examen ci-dessous.';
export const SHOW_EXTRA_LABEL = 'Afficher d’autres possibilités';
export const HIDE_EXTRA_LABEL = 'Masquer les autres possibilités';

/**
 * docs/product.md#spec-2 "Centre selection panel": the map of centres with its legend, the selected centre (a
 * field that also works with the keyboard), its instructions, the local/global rule (extra
 * possibilities behind a button; admins see everything) and the own-school warning.
 */
export function CenterSelectionPanel({ chapterId }: { chapterId: string }) {
  const { roles } = useSession();
  const [showExtra, setShowExtra] = useState(roles.isAdmin);
  const options = useCenterOptions(chapterId);
  // docs/product.md#spec-8: a failure is logged (USER_CENTER_ERROR_LOG) and no instructions are shown.
  const mine = useUserCenter(chapterId);
  const config = usePublicConfig();
  const choose = useChooseCenter(chapterId);

  const all = options.data ?? [];
  const shown = useMemo(() => visibleOptions(all, showExtra || roles.isAdmin), [all, showExtra, roles.isAdmin]);
  const registration = mine.data?.registration ?? null;
  const selectedId = registration?.institution._id ?? null;
  const { markers, tooMany } = useMemo(() => selectCenterMarkers(shown, selectedId), [shown, selectedId]);
  const extraCount = all.filter((o) => o.extra).length;
  const own = all.find((o) => o.own);

  const { asked, pick, confirm, cancel } = useAskedCenter(choose, selectedId);
  if (options.isPending) return <Loader aria-label="Chargement des centres" />;
  if (options.isError) return <Alert color="red">Impossible de charger les centres d’examen.</Alert>;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="center-selection-title">
      <Stack>
        <Title order={2} size="h3" id="center-selection-title">
          Centre d’examen
        </Title>
        <CenterWarnings refusals={mine.data?.refusals ?? []} ownRefuses={own?.status === 'no'} />
        <CenterLegend />
        <LazyCenterMap tileUrl={config.data?.tileUrl ?? ''} markers={markers} selectedId={selectedId} onSelect={pick} />
        {tooMany && <Text size="sm">Seuls 500 centres sont dessinés sur la carte ; tous restent disponibles dans la liste.</Text>}
        {!roles.isAdmin && extraCount > 0 && !extraAtOnce(all) && (
          <Button variant="light" w="fit-content" onClick={() => setShowExtra((v) => !v)} aria-expanded={showExtra}>
            {showExtra ? HIDE_EXTRA_LABEL : `${SHOW_EXTRA_LABEL} (${extraCount})`}
          </Button>
        )}
        <CenterSelect
          shown={shown}
          all={all}
          selectedId={selectedId}
          registered={mine.data?.center ?? null}
          pending={choose.isPending}
          onPick={pick}
        />
        {registration && !mine.isError && (
          <CenterInstructions chapterId={chapterId} name={registration.institution.name} center={mine.data?.center ?? null} />
        )}
        <ConfirmCenterDialog asked={asked} moving={!!selectedId} loading={choose.isPending} onCancel={cancel} onConfirm={confirm} />
      </Stack>
    </Paper>
  );
}

/** Decision 59: a click on a marker or in the list asks first; only « Confirmer l’inscription » registers. */
function useAskedCenter(choose: ReturnType<typeof useChooseCenter>, selectedId: string | null) {
  const [asked, setAsked] = useState<CenterOption | null>(null);
  const pick = (option: CenterOption) => {
    if (!isSelectable(option) || option._id === selectedId || choose.isPending) return;
    setAsked(option);
  };
  const confirm = () => {
    if (!asked) return;
    choose.mutate(asked._id, {
      // docs/product.md#spec-8: a failed centre save is only logged (the client already showed the server's message).
      onError: (error) => console.error(error),
      onSettled: () => setAsked(null),
    });
  };
  return { asked, pick, confirm, cancel: () => setAsked(null) };
}

/** The map of centres, loaded when first shown. */
function LazyCenterMap(props: Omit<CenterMapProps, 'height'>) {
  // The fallback keeps the map's height: the field below must not move while a pupil is using it.
  return (
    <Suspense
      fallback={
        <Center h={CENTER_MAP_HEIGHT}>
          <Loader role="status" aria-label="Chargement de la carte" />
        </Center>
      }
    >
      <CenterMap height={CENTER_MAP_HEIGHT} {...props} />
    </Suspense>
  );
}

/** The selected centre's details, instructions and the pupil's convocation. */
function CenterInstructions({ chapterId, name, center }: { chapterId: string; name: string; center: CenterOption | null }) {
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const downloadConvocation = async () => {
    setDownloadError(null);
    try {
      await downloadCenterFile(centerFileUrl.convocation(chapterId), 'convocation.pdf');
    } catch (error) {
      setDownloadError((error as Error).message);
    }
  };

  return (
    <Stack gap={4} component="section" aria-labelledby="center-instructions-title">
      <Title order={3} size="h4" id="center-instructions-title">
        Instructions du centre {name}
      </Title>
      {center?.details && <CenterDetailsList details={center.details} />}
      {center?.instructions.trim() ? (
        <Text style={{ whiteSpace: 'pre-wrap' }}>{center.instructions}</Text>
      ) : (
        <Text>{NO_INSTRUCTIONS_TEXT}</Text>
      )}
      {center?.details && (
        <Group>
          <Button variant="light" w="fit-content" onClick={downloadConvocation}>
            Télécharger ma convocation
          </Button>
        </Group>
      )}
      {downloadError && (
        <Alert color="red" role="alert">
          {downloadError}
        </Alert>
      )}
    </Stack>
  );
}

/** Asked before a registration: the centre, what the move costs, its details; only « Confirmer l’inscription » registers. */
function ConfirmCenterDialog(props: {
  asked: CenterOption | null;
  moving: boolean;
  loading: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { asked, moving, loading, onCancel, onConfirm } = props;
  const message = asked && (
    <Stack>
      <Text>
        Vous allez vous inscrire au centre <strong>{asked.name}</strong>
        {moving ? ' ; votre inscription actuelle sera annulée et sa place libérée.' : '.'}
      </Text>
      {asked.details ? (
        <CenterDetailsList details={asked.details} compact />
      ) : (
        <Text size="sm">{asked.address || 'Adresse non renseignée'} — la date sera précisée par le centre.</Text>
      )}
    </Stack>
  );
  return (
    <ConfirmDialog
      opened={asked !== null}
      title="Confirmer votre centre d’examen"
      message={message || ''}
      confirmLabel="Confirmer l’inscription"
      loading={loading}
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}

/** The selected centre as a field that also works with the keyboard; the registered centre stays listed even when hidden. */
function CenterSelect(props: {
  shown: CenterOption[];
  all: CenterOption[];
  selectedId: string | null;
  registered: CenterOption | null;
  pending: boolean;
  onPick: (option: CenterOption) => void;
}) {
  const { shown, all, selectedId, registered, pending, onPick } = props;
  const selectData = useMemo(() => {
    const list = shown.some((o) => o._id === selectedId) || !registered ? shown : [registered, ...shown];
    return list.map((o) => ({
      value: o._id,
      label: `${o.name} (${CENTER_STATUS_LABELS[o.status]})`,
      disabled: !isSelectable(o),
    }));
  }, [shown, selectedId, registered]);
  return (
    <Group align="end" wrap="nowrap" maw="100%">
      <Select
        label="Centre sélectionné"
        placeholder="Aucun centre choisi"
        data={selectData}
        value={selectedId}
        searchable
        nothingFoundMessage="Aucun centre"
        allowDeselect={false}
        disabled={pending}
        onChange={(value) => {
          const option = all.find((o) => o._id === value) ?? (registered?._id === value ? registered : undefined);
          if (option) onPick(option);
        }}
        w={420}
        maw="100%"
      />
      {pending && <Loader size="sm" aria-label="Enregistrement" />}
    </Group>
  );
}

/** The centres that turned the pupil away, and the own school that does not organise the test. */
function CenterWarnings({ refusals, ownRefuses }: { refusals: NonNullable<UserCenter['refusals']>; ownRefuses: boolean }) {
  return (
    <>
      {refusals.map((r) => (
        <Alert key={r.institution._id} color="red" title={`Inscription refusée par le centre ${r.institution.name}`}>
          {REFUSED_TEXT}
        </Alert>
      ))}
      {ownRefuses && (
        <Alert color="yellow" title="Votre établissement n’organise pas l’épreuve">
          {OWN_SCHOOL_REFUSES}
        </Alert>
      )}
    </>
  );
}
