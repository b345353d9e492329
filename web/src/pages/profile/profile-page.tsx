import { Alert, Badge, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { isStaffProfile, missingProfileFields } from '@olympe/contract';
import { LoginRedirect } from '../../components/login-gate';
import type { Roles } from '../../session/roles';
import { useSession } from '../../session/session-context';
import { PageHeading } from '../../components/page-heading';
import { WhenNear } from '../../components/when-near';
import { ProfileFields } from './profile-fields';
import { groupNamesOf, useProfileForm } from './use-profile-form';

// The chapter page's own panel, shared as it is (eslint sharedBetweenPages): it fetches its own data. Below the
// form, it loads and draws when the pupil scrolls near it (decision 117).
import { CenterSelection } from '../chapter/paper/paper-panel';

export function roleTag(roles: Roles): string | null {
  if (roles.isAdmin) return 'Administrateur';
  if (roles.isMember) return 'Correcteur';
  if (roles.isTeacher) return 'Personnel scolaire';
  return null;
}

/** docs/product.md#spec-2 "Profile": the user's fields, the school map, saved through PUT /auth/me. */
export function ProfilePage() {
  const { token, user, roles, loading, reload, chapters } = useSession();
  const { form, ready, formError, submit, saving } = useProfileForm(user, roles, reload);

  if (!token) return <LoginRedirect />;
  if (loading || !user || !ready) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Chargement" />
      </Center>
    );
  }
  const tag = roleTag(roles);
  const staff = isStaffProfile(roles, groupNamesOf(roles));
  const missing = missingProfileFields(user, groupNamesOf(roles));
  const paperChapters = chapters.filter((c) => c.offline && !c.analysis);

  return (
    <Stack maw={760}>
      <Group gap="sm" align="center">
        <PageHeading>Mon profil</PageHeading>
        {tag && (
          <Badge size="lg" variant="filled">
            {tag}
          </Badge>
        )}
      </Group>
      <ProfileStatus missing={missing} />
      <form onSubmit={submit} noValidate aria-label="Profil">
        <Stack>
          <ProfileFields form={form} user={user} roles={roles} staff={staff} />
          {formError && (
            <Alert color="red" variant="light" role="alert">
              <Text size="sm" c="red.9">
                {formError}
              </Text>
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={saving}>
              Enregistrer
            </Button>
          </Group>
        </Stack>
      </form>
      {!staff && paperChapters.length > 0 && <PaperCentres chapters={paperChapters} complete={missing.length === 0} />}
    </Stack>
  );
}

/** Whether the profile opens the tests, and what it still lacks. */
function ProfileStatus({ missing }: { missing: string[] }) {
  return missing.length > 0 ? (
    <Alert
      color="yellow"
      variant="light"
      aria-label="Profil incomplet"
      title={
        // Mantine's yellow title is below AA contrast: the words stay dark (decision 53).
        <Text fw={700} size="sm" c="dark.9">
          Profil incomplet
        </Text>
      }
    >
      <Text size="sm" c="dark.9">
        Pour accéder aux épreuves, complétez : {missing.join(', ')}.
      </Text>
    </Alert>
  ) : (
    <Text size="sm">Votre profil est complet.</Text>
  );
}

/** docs/product.md#spec-2 Profile: pupils choose their centre for each open paper test, with the chapter page's own panel. */
function PaperCentres({ chapters, complete }: { chapters: { _id: string; title: string }[]; complete: boolean }) {
  return (
    <Stack component="section" aria-labelledby="profile-centres-title">
      <Title order={2} size="h3" id="profile-centres-title">
        Centres d’examen des épreuves papier
      </Title>
      {!complete ? (
        <Text size="sm">Complétez votre profil pour choisir un centre d’examen.</Text>
      ) : (
        chapters.map((c) => (
          <Stack key={c._id} gap="xs">
            <Title order={3} size="h4">
              {c.title}
            </Title>
            <WhenNear minHeight={120}>
              <CenterSelection chapterId={c._id} />
            </WhenNear>
          </Stack>
        ))
      )}
    </Stack>
  );
}
