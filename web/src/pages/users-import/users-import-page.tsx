import { useState, type FormEvent } from 'react';
import { Alert, Button, Center, FileInput, Group, List, Loader, Stack, Table, Text } from '@mantine/core';
import type { ImportLine, ImportReport, SchoolSearchResult } from '@olympe/contract';
import { useSchoolSearch } from '../../api/institutions';
import { useImportPupils } from '../../api/users';
import { LoginRedirect } from '../../components/login-gate';
import { PageHeading } from '../../components/page-heading';
import { refusalOf } from '../../api/client';
import { SchoolSearch } from '../../components/school-search';
import { downloadCsv } from '../../lib/csv';
import { useSession } from '../../session/session-context';
import { frenchNumber } from '@olympe/contract/typography';

const TEMPLATE: string[][] = [
  ['E-mail', 'Prénom', 'Nom', 'Date de naissance', 'Classe', 'Genre', 'E-mail parent'],
  ['ada.lovelace@exemple.fr', 'Ada', 'Lovelace', '10/12/2011', '3e', 'F', 'parent.lovelace@exemple.fr'],
];

const OUTCOME: Record<ImportLine['outcome'], { preview: string; done: string; color: string }> = {
  created: { preview: 'Sera créé', done: 'Créé', color: 'dark.9' },
  existing: { preview: 'Existe déjà', done: 'Existait déjà', color: 'blue.9' },
  rejected: { preview: 'Refusé', done: 'Refusé', color: 'red.9' },
};

const plural = (n: number, one: string, many: string) => `${frenchNumber(n)} ${n > 1 ? many : one}`;

function reasonOf(error: unknown): string {
  return refusalOf(error)?.message ?? 'Le serveur ne répond pas : réessayez dans un instant.';
}

/**
 * Bulk accounts (decision 68): school staff (their own school) and admins (any school) send a CSV or
 * XLSX of pupils, see what will happen to each line, then create the accounts; each new pupil gets
 * an e-mail with a link to choose a password. Sending the same file again creates nothing.
 */
export function UsersImportPage() {
  const { token, user, roles, loading } = useSession();
  const [file, setFile] = useState<File | null>(null);
  const [school, setSchool] = useState<SchoolSearchResult | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const run = useImportPupils();
  const schoolSearch = useSchoolSearch();

  if (!token) return <LoginRedirect />;
  if (loading || !user) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Chargement" />
      </Center>
    );
  }
  if (!roles.isAdmin && !roles.isTeacher) {
    return (
      <Stack>
        <PageHeading>Inscrire des élèves</PageHeading>
        <Alert color="red">Seuls le personnel scolaire et les administrateurs peuvent inscrire des élèves.</Alert>
      </Stack>
    );
  }
  const institution = roles.isAdmin ? (school?._id ?? null) : null;
  const schoolName = roles.isAdmin ? (school?.name ?? null) : (user.institution?.name ?? null);
  const ready = file !== null && schoolName !== null;

  const send = (preview: boolean) => {
    if (!file) return;
    run.mutate({ file, institution, preview }, { onSuccess: setReport });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send(true);
  };

  return (
    <Stack maw={900}>
      <PageHeading>Inscrire des élèves</PageHeading>
      <Text>
        Envoyez la liste de vos élèves (fichier CSV ou Excel .xlsx, une ligne par élève, la première ligne nommant les
        colonnes) : chaque élève reçoit un courriel pour choisir son mot de passe, puis complète son profil. Un élève qui a
        déjà un compte (même adresse e-mail) n’est ni dupliqué ni modifié : envoyer deux fois le même fichier ne crée rien
        de plus.
      </Text>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Colonnes attendues
        </Text>
        <List size="sm">
          <List.Item>E-mail, Prénom, Nom ;</List.Item>
          <List.Item>Date de naissance (JJ/MM/AAAA) ;</List.Item>
          <List.Item>Classe (5e, 4e, 3e, 2nde, 1re, Terminale ou Autre) ;</List.Item>
          <List.Item>Genre (F, M ou Autre) ;</List.Item>
          <List.Item>E-mail parent (facultatif).</List.Item>
        </List>
        <Group>
          <Button variant="light" size="xs" onClick={() => downloadCsv('modele-eleves.csv', TEMPLATE)}>
            Télécharger un modèle (CSV)
          </Button>
        </Group>
      </Stack>
      <form onSubmit={submit} aria-label="Fichier des élèves">
        <Stack>
          {roles.isAdmin ? (
            <Stack gap={4}>
              <SchoolSearch search={schoolSearch} onChoose={(s) => { setSchool(s); setReport(null); }} selectedId={school?._id ?? null} />
              <Text size="sm">
                Établissement : <strong>{school ? school.name : 'aucun choisi (cherchez-le ci-dessus)'}</strong>
              </Text>
            </Stack>
          ) : schoolName ? (
            <Text size="sm">
              Les comptes seront rattachés à votre établissement : <strong>{schoolName}</strong>.
            </Text>
          ) : (
            <Alert color="yellow">Votre compte n’est rattaché à aucun établissement : demandez à un administrateur.</Alert>
          )}
          <FileInput
            label="Fichier des élèves"
            description="Un fichier CSV ou XLSX."
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            value={file}
            onChange={(f) => {
              setFile(f);
              setReport(null);
            }}
          />
          <Group>
            <Button type="submit" disabled={!ready} loading={run.isPending && run.variables?.preview === true}>
              Prévisualiser
            </Button>
          </Group>
        </Stack>
      </form>
      {run.isError && (
        <Alert color="red" variant="light" role="alert">
          <Text size="sm" c="red.9">
            {reasonOf(run.error)}
          </Text>
        </Alert>
      )}
      {report && <ImportResult report={report} pending={run.isPending} onConfirm={() => send(false)} />}
    </Stack>
  );
}

function ImportResult({ report, pending, onConfirm }: { report: ImportReport; pending: boolean; onConfirm: () => void }) {
  const rejected = report.rejected.length;
  const summary = report.preview
    ? `Aperçu pour ${report.institution.name} : ${plural(report.created, 'compte sera créé', 'comptes seront créés')}, ${plural(report.existing, 'existe déjà', 'existent déjà')}, ${plural(rejected, 'ligne refusée', 'lignes refusées')}. Rien n’est encore enregistré.`
    : `Import terminé pour ${report.institution.name} : ${plural(report.created, 'compte créé', 'comptes créés')}, ${plural(report.existing, 'déjà présent', 'déjà présents')}, ${plural(rejected, 'ligne refusée', 'lignes refusées')}.${report.created > 0 ? ' Les courriels d’invitation partent dans les minutes qui viennent.' : ''}`;
  return (
    <Stack component="section" aria-label={report.preview ? 'Aperçu de l’import' : 'Rapport de l’import'}>
      <Alert color={report.preview ? 'blue' : 'green'} variant="light" role="status">
        <Text size="sm" c="dark.9">
          {summary}
        </Text>
      </Alert>
      {report.preview && report.created > 0 && (
        <Group>
          <Button onClick={onConfirm} loading={pending}>
            {`Créer ${plural(report.created, 'compte', 'comptes')}`}
          </Button>
        </Group>
      )}
      <Table striped withTableBorder>
        <Table.Caption>Chaque ligne du fichier et ce qu’elle devient</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Ligne</Table.Th>
            <Table.Th scope="col">Élève</Table.Th>
            <Table.Th scope="col">E-mail</Table.Th>
            <Table.Th scope="col">Résultat</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.lines.map((l) => (
            <Table.Tr key={l.line}>
              <Table.Td>{l.line}</Table.Td>
              <Table.Td>{`${l.firstName} ${l.lastName}`.trim() || '—'}</Table.Td>
              <Table.Td>{l.email || '—'}</Table.Td>
              <Table.Td>
                <Text size="sm" fw={700} c={OUTCOME[l.outcome].color}>
                  {report.preview ? OUTCOME[l.outcome].preview : OUTCOME[l.outcome].done}
                </Text>
                {l.message && (
                  <Text size="xs" c="dark.7">
                    {l.message}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
