import { startTransition, useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Center,
  Checkbox,
  Group,
  Loader,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { isStaffProfile, missingProfileFields } from '@olympe/contract';
import { useSaveProfile } from '../../api/auth';
import { showNotice } from '../../api/notify';
import { LoginRedirect } from '../../components/login-gate';
import type { Roles } from '../../session/roles';
import { useSession } from '../../session/session-context';
import {
  defaultChoiceOptions,
  genderOptions,
  gradeOptions,
  requiredFields,
  updateOf,
  valuesOf,
  type ProfileValues,
} from './profile-form';
import { SchoolPicker } from './school-picker';
import { PageHeading } from '../../components/page-heading';
// The field's module, not the folder's index: the index also brings DateTimeField, with the calendar's code.
import { DateField } from '../../components/DateFields/date-field';
import { refusalOf } from '../../api/client';
import { WhenNear } from '../../components/when-near';
import { loadOnce } from '../../lib/load-once';

// The chapter page's own panel, shared as it is (eslint sharedBetweenPages): it fetches its own data. Below the
// form, it loads and draws when the pupil scrolls near it (decision 117).
import { CenterSelection } from '../chapter/paper/paper-panel';

/** Beside a family address not confirmed yet (decision 134). */
export const PENDING_CONFIRMATION = 'En attente de confirmation : un lien a été envoyé à cette adresse.';

/** docs/product.md#spec-2 "Profile": the title's tag by role; pupils have none. */
export const STAFF_SCHOOL_HINT =
  'Vos droits de personnel scolaire portent sur cet établissement : pour en changer, demandez à un administrateur.';

/** The group names the contract's profile rules read, from the session's roles. */
function groupNamesOf(roles: Roles): string[] {
  return [...(roles.isTeacher ? ['teachers'] : []), ...(roles.isMember ? ['members'] : [])];
}

export function roleTag(roles: Roles): string | null {
  if (roles.isAdmin) return 'Administrateur';
  if (roles.isMember) return 'Correcteur';
  if (roles.isTeacher) return 'Personnel scolaire';
  return null;
}

const EMPTY = { value: '', label: '—' };

type FieldErrors = Partial<Record<keyof ProfileValues, string>>;

/**
 * The contract's profile schema, and zod with it (about 45 kB), come with the first edit of a field rather than
 * with the page (decision 121): most visits only read the profile. Asked for once, not at every keystroke.
 */
const schemaModule = loadOnce(() => import('@olympe/contract/user'));
// Its file could not come (network lost): asked again at the next edit; meanwhile the server checks alone.
const profileSchema = () => schemaModule.load().then((m) => m.profileUpdateSchema, () => null);

/** The contract's own checks, run before sending: each refusal goes next to its field, in French. */
export async function fieldErrorsOf(values: ProfileValues): Promise<FieldErrors> {
  // The school comes from the picker (a real id): the server alone checks it.
  const { institution: _school, ...fields } = updateOf(values);
  const schema = await profileSchema();
  const parsed = schema?.omit({ institution: true }).safeParse(fields);
  const errors: FieldErrors = {};
  if (parsed && !parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as keyof ProfileValues;
      errors[key] ??= issue.message;
    }
  }
  return errors;
}

/** A server refusal: the body's `fields` by field, else its message for the whole form. */
function serverErrorsOf(error: unknown): { fields: FieldErrors; message: string | null } {
  const refusal = refusalOf(error);
  if (!refusal) return { fields: {}, message: 'Le serveur ne répond pas : vos modifications ne sont pas enregistrées.' };
  return Object.keys(refusal.fields).length > 0 ? { fields: refusal.fields as FieldErrors, message: null } : { fields: {}, message: refusal.message };
}

/** docs/product.md#spec-2 "Profile": the user's fields, the school map, saved through PUT /auth/me. */
export function ProfilePage() {
  const { token, user, roles, loading, reload, chapters } = useSession();
  const [values, setValues] = useState<ProfileValues | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  // A fresh form for each user (impersonation switches user without leaving the page).
  const userId = user?._id;
  useEffect(() => {
    // A transition (decision 117): the whole form, drawn once the session is in, is rendered in slices that
    // leave the page answering, not in one long task (about a second on a slow phone).
    if (user) startTransition(() => setValues(valuesOf(user)));
    // Only when the person changes: session reloads on navigation must not wipe unsaved edits.
  }, [userId]);

  const save = useSaveProfile({
    onSuccess: async (saved) => {
      setValues(valuesOf(saved));
      setErrors({});
      setFormError(null);
      const missing = missingProfileFields(saved, groupNamesOf(roles));
      // Saved, but an incomplete profile still opens no test: say so rather than a plain green tick.
      if (missing.length === 0) showNotice('Modifications enregistrées', 'green');
      else showNotice(`Modifications enregistrées. Il manque encore : ${missing.join(', ')}.`, 'yellow');
      await reload();
    },
    onError: (error) => {
      const { fields, message } = serverErrorsOf(error);
      setErrors(fields);
      setFormError(message);
    },
  });

  if (!token) return <LoginRedirect />;
  if (loading || !user || !values) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Chargement" />
      </Center>
    );
  }
  const tag = roleTag(roles);
  const required = requiredFields(roles);
  const staff = isStaffProfile(roles, groupNamesOf(roles));
  const missing = missingProfileFields(user, groupNamesOf(roles));
  const paperChapters = chapters.filter((c) => c.offline && !c.analysis);
  const set = <K extends keyof ProfileValues>(key: K, value: ProfileValues[K]) => {
    void profileSchema();
    setValues({ ...values, [key]: value });
  };
  const text = (key: 'firstName' | 'lastName' | 'emailStudent' | 'emailParent' | 'emailOtherParent') => ({
    value: values[key],
    error: errors[key],
    onChange: (e: { currentTarget: HTMLInputElement }) => set(key, e.currentTarget.value),
  });
  // Decision 134: a family address receives nothing but its confirmation link until its owner confirms it.
  const pending = (key: 'emailStudent' | 'emailParent' | 'emailOtherParent') => {
    const saved = user[key]?.trim().toLowerCase();
    return saved && saved === values[key].trim().toLowerCase() && user.pendingEmails?.includes(saved)
      ? { description: PENDING_CONFIRMATION }
      : {};
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = await fieldErrorsOf(values);
    setErrors(found);
    setFormError(Object.keys(found).length > 0 ? 'Corrigez les champs signalés : rien n’a été enregistré.' : null);
    if (Object.keys(found).length === 0) save.mutate(updateOf(values));
  };

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
      {missing.length > 0 ? (
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
      )}
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Profil">
        <Stack>
          <TextInput
            label="E-mail principal"
            value={user.email}
            readOnly
            description="Cette adresse sert uniquement à l’envoi des e-mails de réinitialisation du mot de passe."
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Prénom" withAsterisk={required.firstName} autoComplete="given-name" {...text('firstName')} />
            <TextInput label="Nom" withAsterisk={required.lastName} autoComplete="family-name" {...text('lastName')} />
            <NativeSelect
              label="Genre"
              withAsterisk={required.gender}
              data={[EMPTY, ...genderOptions]}
              value={values.gender}
              error={errors.gender}
              onChange={(e) => set('gender', e.currentTarget.value as ProfileValues['gender'])}
            />
          </SimpleGrid>
          {/* Pupil-only fields: school staff, correctors and admins never fill them (docs/product.md#spec-2-profile). */}
          {!staff && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <DateField
              label="Date de naissance"
              withAsterisk={required.birthDate}
              value={values.birthDate}
              maxDate={new Date().toISOString().slice(0, 10)}
              // The format under the field, so that the field lines up with « Classe » beside it.
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              error={errors.birthDate}
              onChange={(v) => set('birthDate', v)}
            />
            <NativeSelect
              label="Classe"
              withAsterisk={required.grade}
              data={[EMPTY, ...gradeOptions]}
              value={values.grade}
              error={errors.grade}
              onChange={(e) => set('grade', e.currentTarget.value as ProfileValues['grade'])}
            />
            <NativeSelect
              label="Choix par défaut du centre d’examen"
              withAsterisk={required.defaultChoice}
              data={[EMPTY, ...defaultChoiceOptions]}
              value={values.defaultChoice}
              error={errors.defaultChoice}
              onChange={(e) => set('defaultChoice', e.currentTarget.value as ProfileValues['defaultChoice'])}
            />
            <TextInput label="E-mail de l’élève" type="email" autoComplete="email" {...text('emailStudent')} {...pending('emailStudent')} />
            <TextInput label="E-mail d’un parent" type="email" withAsterisk={required.emailParent} {...text('emailParent')} {...pending('emailParent')} />
            <TextInput label="E-mail de l’autre parent" type="email" {...text('emailOtherParent')} {...pending('emailOtherParent')} />
          </SimpleGrid>
          )}
          {/* Decision 143: the box governs reminders only; service mails go whatever it says. */}
          <Checkbox
            label="Recevoir les rappels par e-mail"
            description="Ouverture d’une épreuve, récapitulatifs. Les convocations, les changements de centre et les résultats sont toujours envoyés."
            checked={values.emailNotifications}
            onChange={(e) => set('emailNotifications', e.currentTarget.checked)}
          />
          {roles.isTeacher && !roles.isAdmin && values.institution ? (
            // Staff rights are scoped by the school: only an admin moves them (the server refuses it too).
            <Stack gap={2}>
              <Text fw={500} size="sm">
                Établissement
              </Text>
              <Text>{values.institution.name}</Text>
              <Text size="sm" c="dimmed">
                {STAFF_SCHOOL_HINT}
              </Text>
            </Stack>
          ) : (
            <SchoolPicker
              value={values.institution}
              required={required.institution}
              pupil={!staff}
              error={errors.institution}
              onChange={(i) => set('institution', { _id: i._id, name: i.name })}
            />
          )}
          {formError && (
            <Alert color="red" variant="light" role="alert">
              <Text size="sm" c="red.9">
                {formError}
              </Text>
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={save.isPending}>
              Enregistrer
            </Button>
          </Group>
        </Stack>
      </form>
      {/* docs/product.md#spec-2 Profile: pupils choose their centre for each open paper test, with the chapter page's own panel. */}
      {!staff && paperChapters.length > 0 && (
        <Stack component="section" aria-labelledby="profile-centres-title">
          <Title order={2} size="h3" id="profile-centres-title">
            Centres d’examen des épreuves papier
          </Title>
          {missing.length > 0 ? (
            <Text size="sm">Complétez votre profil pour choisir un centre d’examen.</Text>
          ) : (
            paperChapters.map((c) => (
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
      )}
    </Stack>
  );
}
