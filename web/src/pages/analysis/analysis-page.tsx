import { useMemo } from 'react';
import { Alert, Anchor, Badge, Center, Group, List, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { MAX_PAIRS_PER_IP, SUSPICIOUS_WINDOW_SECONDS, type ChapterAnalysis, type IpGroup } from '@olympe/contract';
import { useChapterAnalysis } from '../../api/analysis';
import { VirtualTable, type VirtualColumn } from '../../components/VirtualTable';
import { paths } from '../../config/paths';
import {
  buildIndividualRows,
  formatDuration,
  formatMinutes,
  groupNames,
  namesById,
  personName,
  scoreBreakdown,
  type IndividualRow,
} from './analysis';
import { PageHeading } from '../../components/page-heading';

const TITLE = 'Analyse de la triche';
const ROW_HEIGHT = 36;

// Stable functions: the table caches sort keys per function.
const byName = (r: IndividualRow) => r.sortName;
const byIp = (r: IndividualRow) => r.ip;
const byBlurEvents = (r: IndividualRow) => r.totalBlurEvents;
const byBlurDuration = (r: IndividualRow) => r.totalBlurDuration;
const bySuspicious = (r: IndividualRow) => r.suspiciousCorrectAnswers;
const byTime70 = (r: IndividualRow) => r.timeFor70Pct;
const byScore = (r: IndividualRow) => r.score;

const columns: VirtualColumn<IndividualRow>[] = [
  {
    key: 'name',
    header: 'Élève',
    width: '20%',
    sortValue: byName,
    cell: (r) =>
      r.historyExerciseId ? (
        <Anchor component={Link} to={paths.history(r.user._id, r.historyExerciseId)} title={`Historique des réponses de ${r.name}`}>
          {r.name}
        </Anchor>
      ) : (
        r.name
      ),
  },
  {
    key: 'ip',
    header: 'Adresse IP',
    width: '17%',
    sortValue: byIp,
    cell: (r) => <span title={r.ips.join(', ')}>{r.ips.length ? r.ips.join(', ') : '—'}</span>,
  },
  { key: 'blurs', header: 'Sorties', width: '9%', align: 'right', sortValue: byBlurEvents, cell: (r) => r.totalBlurEvents },
  {
    key: 'duration',
    header: 'Hors épreuve (min)',
    width: '12%',
    align: 'right',
    sortValue: byBlurDuration,
    cell: (r) => formatMinutes(r.totalBlurDuration),
  },
  {
    key: 'suspicious',
    header: 'Justes suspectes',
    width: '11%',
    align: 'right',
    sortValue: bySuspicious,
    cell: (r) => r.suspiciousCorrectAnswers,
  },
  {
    key: 'time70',
    header: 'Temps pour 70 %',
    width: '15%',
    align: 'right',
    sortValue: byTime70,
    cell: (r) => formatDuration(r.timeFor70Pct),
  },
  {
    key: 'score',
    header: 'Score',
    width: '16%',
    align: 'right',
    sortValue: byScore,
    cell: (r) => (
      <span title={`${r.terms.blurMinutes} min hors épreuve + ${r.terms.blurEvents} sorties + ${r.terms.suspicious} justes suspectes`}>
        <strong>{r.score}</strong>{' '}
        <Text span size="sm" c="gray.7">
          ({scoreBreakdown(r).split(' = ')[1]})
        </Text>
      </span>
    ),
  },
];

/** docs/product.md#spec-2 "Analyse de la triche" (/analysis/{id}), admins. */
export function AnalysisPage() {
  const { id = '' } = useParams();
  const query = useChapterAnalysis(id);
  if (query.isPending) {
    return (
      <Stack>
        <PageHeading>{TITLE}</PageHeading>
        <Center py="xl">
          <Loader role="status" aria-label="Chargement de l’analyse" />
        </Center>
      </Stack>
    );
  }
  if (query.isError) {
    return (
      <Stack>
        <PageHeading>{TITLE}</PageHeading>
        <Alert color="red">Impossible de charger l’analyse de ce chapitre.</Alert>
      </Stack>
    );
  }
  return <AnalysisView data={query.data} />;
}

function AnalysisView({ data }: { data: ChapterAnalysis }) {
  const rows = useMemo(() => buildIndividualRows(data), [data]);
  const names = useMemo(() => namesById(data), [data]);
  const titles = useMemo(() => new Map(data.exercises.map((e) => [e._id, e.title])), [data]);
  // Short lists take their own height (the header may wrap to three lines); long ones scroll
  // inside the window, docs/product.md#spec-9 style.
  const height = `min(${ROW_HEIGHT * Math.max(rows.length, 1) + 110}px, max(320px, calc(100vh - 200px)))`;

  return (
    <Stack gap="md">
      <PageHeading>
        {TITLE} : {data.chapter.title}
      </PageHeading>
      {/* Blue: orange.9 on orange.0 is below AA contrast (axe). */}
      <Alert role="note" color="blue" variant="light" icon={<IconAlertTriangle aria-hidden="true" />} title="Un indice, jamais un verdict">
        Un score élevé signale un comportement à regarder de plus près, pas une triche prouvée : un onglet ouvert par erreur, une coupure
        réseau ou un ordinateur partagé produisent les mêmes traces. Consultez l’historique des réponses et parlez-en avec l’élève avant
        toute décision.
      </Alert>

      <Explanations />

      <Title order={2}>Élèves ({rows.length})</Title>
      <VirtualTable
        rows={rows}
        columns={columns}
        rowKey={(r) => r.user._id}
        height={height}
        rowHeight={ROW_HEIGHT}
        label="Analyse individuelle"
        initialSort={{ key: 'score', direction: 'desc' }}
        emptyText="Aucun élève n’a encore commencé ce chapitre."
      />

      <Title order={2}>Groupes par adresse IP</Title>
      {data.pairAnalysis.length === 0 ? (
        <Text>Aucune adresse IP n’est partagée par plusieurs élèves.</Text>
      ) : (
        data.pairAnalysis.map((group) => <IpGroupCard key={group.ip} group={group} names={names} titles={titles} />)
      )}
    </Stack>
  );
}

function Explanations() {
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="xs">
        Comment lire ces chiffres
      </Title>
      <List spacing={4} size="sm">
        <List.Item>
          <strong>Sorties</strong> : nombre de fois où l’élève a quitté la fenêtre de l’épreuve (autre onglet, autre application) ;
          plusieurs sorties sans retour entre elles comptent pour une.
        </List.Item>
        <List.Item>
          <strong>Hors épreuve (min)</strong> : temps passé hors de la fenêtre, de chaque sortie au retour suivant, ou jusqu’à la fin de son
          temps (fin de l’épreuve, ou dernière activité si le temps est illimité).
        </List.Item>
        <List.Item>
          <strong>Justes suspectes</strong> : exercices numériques dont la réponse est devenue juste (pour la version de l’énoncé de
          l’élève) au plus {SUSPICIOUS_WINDOW_SECONDS} secondes après un retour dans la fenêtre.
        </List.Item>
        <List.Item>
          <strong>Temps pour 70 %</strong> : temps entre le début de l’épreuve et le moment où 70 % des exercices auxquels l’élève a
          finalement répondu avaient reçu leur première réponse ; un temps très court peut signaler des réponses connues d’avance.
        </List.Item>
        <List.Item>
          <strong>Adresse IP</strong> : adresses d’où viennent les événements et les réponses de l’élève, la plus utilisée en premier ; tout
          un établissement partage souvent la même.
        </List.Item>
        <List.Item>
          <strong>Score</strong> : minutes hors épreuve (arrondies) + sorties + justes suspectes, les trois termes étant rappelés entre
          parenthèses.
        </List.Item>
        <List.Item>
          <strong>Paires suspectes</strong> : pour chaque adresse IP partagée, au plus {MAX_PAIRS_PER_IP} paires d’élèves classées par
          nombre de mauvaises réponses identiques ; une erreur classique peut être commune sans copie.
        </List.Item>
      </List>
    </Paper>
  );
}

function IpGroupCard({ group, names, titles }: { group: IpGroup; names: Map<string, string>; titles: Map<string, string> }) {
  const { shown, more } = groupNames(group.userIds, names);
  return (
    <Paper withBorder p="md" component="section" aria-label={`Adresse ${group.ip}`}>
      <Group gap="sm" mb="xs">
        <Title order={3} size="h4">
          Adresse {group.ip}
        </Title>
        <Badge variant="light" color="gray" c="gray.9" tt="none">
          {group.userIds.length} élèves
        </Badge>
      </Group>
      <Text size="sm" mb="sm">
        {shown.join(', ')}
        {more > 0 && ` et ${more} autres`}
      </Text>
      {group.pairs.length === 0 ? (
        <Text size="sm">Aucune paire n’a de mauvaise réponse en commun.</Text>
      ) : (
        <Table striped withTableBorder aria-label={`Paires suspectes, adresse ${group.ip}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Élève 1</Table.Th>
              <Table.Th>Élève 2</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>Mauvaises réponses communes</Table.Th>
              <Table.Th>Réponses identiques</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {group.pairs.map((pair) => (
              <Table.Tr key={`${pair.user1._id}-${pair.user2._id}`}>
                <Table.Td>{personName(pair.user1)}</Table.Td>
                <Table.Td>{personName(pair.user2)}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{pair.commonWrong}</Table.Td>
                <Table.Td>
                  {pair.commonAnswers.map((a, i) => (
                    <span key={a.exerciseId}>
                      {i > 0 && ' ; '}
                      {titles.get(a.exerciseId) ?? 'Exercice'} : {a.answer}
                      {a.wrong ? ' (fausse)' : ''}
                    </span>
                  ))}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
