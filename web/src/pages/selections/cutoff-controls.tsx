import { useState } from 'react';
import { Alert, Button, Group, Paper, Slider, Stack, Text } from '@mantine/core';
import { formatPoints, TIE_UNRESOLVED_MESSAGE, type Board } from '@olympe/contract';
import { DecimalField } from '../../components/decimal-field';
import type { CategoryBoard, SaveState } from './use-category-board';

const SAVE_TEXT: Record<Exclude<SaveState, null>, string> = {
  saving: 'Enregistrement…',
  saved: 'Enregistré',
  failed: 'Non enregistré : réessayez.',
};

/** The slider's step: fine enough for the scores of a small total, a point beyond 100. */
const stepFor = (maxScore: number) => (maxScore <= 100 ? 0.25 : 1);

/** The live count, and whether the server has the settings shown (read aloud as it changes). */
export function LiveCount({ state, summary }: { state: SaveState; summary: string }) {
  return (
    <Group justify="space-between" wrap="wrap">
      <Text fw={700} size="lg" aria-live="polite">
        {summary}
      </Text>
      <Text size="sm" c={state === 'failed' ? 'red.9' : 'gray.8'} role="status">
        {state ? SAVE_TEXT[state] : ''}
      </Text>
    </Group>
  );
}

/** The cut-off: a slider (saved on release), a typed value (saved when the field is left), or « Les N premiers ». */
export function CutoffControls({ board, category, name }: { board: Board; category: CategoryBoard; name: string }) {
  const { settings, update, commit, top, moves } = category;
  const [topN, setTopN] = useState<number | null>(null);
  const [topError, setTopError] = useState<string | null>(null);
  const cutoff = settings.cutoff;
  return (
    <Stack gap="sm">
      <div>
        <Text size="sm" fw={500} aria-hidden="true">
          Seuil de la catégorie « {name} » (points)
        </Text>
        <Slider
          min={0}
          max={board.maxScore}
          step={stepFor(board.maxScore)}
          value={cutoff ?? 0}
          label={(v) => `${formatPoints(v)} points`}
          thumbLabel={`Seuil de la catégorie « ${name} » (points)`}
          onChange={(v) => update({ cutoff: v }, { moved: true })}
          onChangeEnd={(v) => update({ cutoff: v }, { now: true, moved: true })}
          mb="md"
        />
      </div>
      <Group align="flex-start" wrap="wrap">
        <DecimalField
          key={moves}
          label="Seuil (points)"
          description="Vide : personne n’est sélectionné."
          optional
          min={0}
          max={board.maxScore}
          maxDecimals={4}
          unit="points"
          maw={200}
          value={cutoff}
          onChange={(value, error) => {
            if (error === null) update({ cutoff: value });
          }}
          onBlur={() => commit()}
        />
        <Group align="flex-end" gap="xs">
          <DecimalField
            label="Les N premiers"
            optional
            min={1}
            maxDecimals={0}
            maw={140}
            value={topN}
            onChange={(value, error) => {
              setTopN(value);
              setTopError(error);
            }}
          />
          <Button variant="light" disabled={topN === null || topError !== null} onClick={() => topN !== null && top(topN)} mb={2}>
            Placer le seuil au {topN ?? 'N'}ᵉ
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

/** The quotas: at least so many girls, at most so many per school; saved when the field is left. */
export function QuotaControls({ category }: { category: CategoryBoard }) {
  const { settings, update, commit, live } = category;
  return (
    <Stack gap="xs">
      <Group align="flex-start" wrap="wrap">
        <DecimalField
          label="Au moins … filles"
          description="Vide : pas de quota."
          optional
          min={1}
          maxDecimals={0}
          maw={200}
          value={settings.minGirls}
          onChange={(value, error) => error === null && update({ minGirls: value })}
          onBlur={() => commit()}
        />
        <DecimalField
          label="Au plus … par établissement"
          description="Vide : pas de quota."
          optional
          min={1}
          maxDecimals={0}
          maw={220}
          value={settings.maxPerSchool}
          onChange={(value, error) => error === null && update({ maxPerSchool: value })}
          onBlur={() => commit()}
        />
      </Group>
      {live.outcome.girlsShort && (
        <Alert color="orange" title="Quota de filles non atteint">
          {live.outcome.girls} fille{live.outcome.girls > 1 ? 's' : ''} sélectionnée{live.outcome.girls > 1 ? 's' : ''} pour{' '}
          {settings.minGirls} demandée{(settings.minGirls ?? 0) > 1 ? 's' : ''} : la catégorie n’a pas assez de filles, ou le quota par
          établissement les écarte.
        </Alert>
      )}
    </Stack>
  );
}

/** The pupils exactly at the cut-off, included or excluded as one group (decision 156). */
export function TiePanel({ board, category, name, readOnly }: { board: Board; category: CategoryBoard; name: string; readOnly: boolean }) {
  const { settings, update, live } = category;
  const tied = live.outcome.atCutoff;
  if (tied.length === 0 || settings.cutoff === null) return null;
  const labels = tied.map((i) => board.names?.[i] ?? board.keys[i]!);
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Text fw={600}>
          {tied.length} élève{tied.length > 1 ? 's' : ''} exactement au seuil ({formatPoints(settings.cutoff)} points)
          {settings.atCutoff === 'include' ? ' : inclus' : settings.atCutoff === 'exclude' ? ' : exclus' : ''}
        </Text>
        <Text size="sm">{labels.slice(0, 50).join(', ') + (labels.length > 50 ? `… (${labels.length - 50} de plus)` : '')}</Text>
        {live.outcome.tieUnresolved && (
          <Alert color="orange" p="xs">
            {TIE_UNRESOLVED_MESSAGE(name)}
          </Alert>
        )}
        {!readOnly && (
          <Group>
            <Button
              variant={settings.atCutoff === 'include' ? 'filled' : 'light'}
              aria-pressed={settings.atCutoff === 'include'}
              onClick={() => update({ atCutoff: 'include' }, { now: true })}
            >
              Inclure les ex æquo
            </Button>
            <Button
              variant={settings.atCutoff === 'exclude' ? 'filled' : 'light'}
              aria-pressed={settings.atCutoff === 'exclude'}
              onClick={() => update({ atCutoff: 'exclude' }, { now: true })}
            >
              Exclure les ex æquo
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** A read-only jury reads the settings the deciding jury saved. */
export function SettingsText({ category }: { category: CategoryBoard }) {
  const { cutoff, atCutoff, minGirls, maxPerSchool } = category.settings;
  const parts = [
    cutoff === null ? 'Seuil non fixé' : `Seuil : ${formatPoints(cutoff)} points`,
    atCutoff === 'include' ? 'ex æquo inclus' : atCutoff === 'exclude' ? 'ex æquo exclus' : null,
    minGirls !== null ? `au moins ${minGirls} filles` : null,
    maxPerSchool !== null ? `au plus ${maxPerSchool} par établissement` : null,
  ];
  return <Text>{parts.filter(Boolean).join(' ; ')}.</Text>;
}
