import { useState } from 'react';
import { Alert, Button, Center, FileInput, Group, Loader, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ImportReport, SchoolSearchResult } from '@olympe/contract';
import { useSchoolSearch } from '../../api/institutions';
import { useImportPupils } from '../../api/users';
import { LoginRedirect } from '../../components/login-gate';
import { PageHeading } from '../../components/page-heading';
import { refusalOf } from '../../api/client';
import { SchoolSearch } from '../../components/school-search';
import { useSession } from '../../session/session-context';
import { ImportHelp } from './import-help';
import { ImportResult } from './import-result';

interface ImportValues {
  file: File | null;
  school: SchoolSearchResult | null;
}

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
  const [report, setReport] = useState<ImportReport | null>(null);
  // The file and, for an admin, the school it is for: a new choice drops the report of the previous one.
  const form = useForm<ImportValues>({ initialValues: { file: null, school: null }, onValuesChange: () => setReport(null) });
  const { file, school } = form.values;
  const run = useImportPupils();

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

  return (
    <Stack maw={900}>
      <PageHeading>Inscrire des élèves</PageHeading>
      <ImportHelp />
      <form onSubmit={form.onSubmit(() => send(true))} aria-label="Fichier des élèves">
        <Stack>
          <ImportSchool isAdmin={roles.isAdmin} school={school} schoolName={schoolName} onChoose={(s) => form.setFieldValue('school', s)} />
          <FileInput
            label="Fichier des élèves"
            description="Un fichier CSV ou XLSX."
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            value={file}
            onChange={(f) => form.setFieldValue('file', f)}
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

/** The school the accounts go to: chosen by an admin, the staff member's own otherwise. */
function ImportSchool({
  isAdmin,
  school,
  schoolName,
  onChoose,
}: {
  isAdmin: boolean;
  school: SchoolSearchResult | null;
  schoolName: string | null;
  onChoose: (school: SchoolSearchResult) => void;
}) {
  const schoolSearch = useSchoolSearch();
  return isAdmin ? (
    <Stack gap={4}>
      <SchoolSearch search={schoolSearch} onChoose={onChoose} selectedId={school?._id ?? null} />
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
  );
}
