import { useEffect, useState, type FormEvent } from 'react';
import {
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
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Navigate } from 'react-router';
import { fetchMe } from '../../api/auth';
import { showNotice } from '../../api/notify';
import { paths } from '../../config/paths';
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

/** SPEC §2 "Profile": the title's tag by role; pupils have none. */
export const STAFF_SCHOOL_HINT =
  'Vos droits de personnel scolaire portent sur cet établissement : pour en changer, demandez à un administrateur.';

export function roleTag(roles: Roles): string | null {
  if (roles.isAdmin) return 'Administrateur';
  if (roles.isMember) return 'Correcteur';
  if (roles.isTeacher) return 'Personnel scolaire';
  return null;
}

const EMPTY = { value: '', label: '—' };

/** SPEC §2 "Profile": the user's fields, the school map, saved through PUT /auth/me. */
export function ProfilePage() {
  const { token, user, roles, loading, reload } = useSession();
  const [values, setValues] = useState<ProfileValues | null>(null);

  // A fresh form for each user (impersonation switches user without leaving the page).
  const userId = user?._id;
  useEffect(() => {
    if (user) setValues(valuesOf(user));
    // Only when the person changes: session reloads on navigation must not wipe unsaved edits.
  }, [userId]);

  const save = useMutation({
    mutationFn: (v: ProfileValues) => fetchMe(updateOf(v)),
    onSuccess: async (saved) => {
      setValues(valuesOf(saved));
      showNotice('Modifications enregistrées', 'green');
      await reload();
    },
  });

  if (!token) return <Navigate to={paths.login} replace />;
  if (loading || !user || !values) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Chargement" />
      </Center>
    );
  }
  const tag = roleTag(roles);
  const required = requiredFields(roles);
  const set = <K extends keyof ProfileValues>(key: K, value: ProfileValues[K]) => setValues({ ...values, [key]: value });
  const text = (key: 'firstName' | 'lastName' | 'emailStudent' | 'emailParent' | 'emailOtherParent') => ({
    value: values[key],
    onChange: (e: { currentTarget: HTMLInputElement }) => set(key, e.currentTarget.value),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(values);
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
      <form onSubmit={submit} noValidate aria-label="Profil">
        <Stack>
          <TextInput
            label="E-mail principal"
            value={user.email}
            readOnly
            description="Cette adresse sert uniquement à l'envoi des e-mails de réinitialisation du mot de passe."
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Prénom" withAsterisk={required.firstName} autoComplete="given-name" {...text('firstName')} />
            <TextInput label="Nom" withAsterisk={required.lastName} autoComplete="family-name" {...text('lastName')} />
            <NativeSelect
              label="Genre"
              withAsterisk={required.gender}
              data={[EMPTY, ...genderOptions]}
              value={values.gender}
              onChange={(e) => set('gender', e.currentTarget.value as ProfileValues['gender'])}
            />
            <TextInput
              label="Date de naissance"
              type="date"
              withAsterisk={required.birthDate}
              value={values.birthDate}
              max={new Date().toISOString().slice(0, 10)}
              onChange={(e) => set('birthDate', e.currentTarget.value)}
            />
            <NativeSelect
              label="Classe"
              withAsterisk={required.grade}
              data={[EMPTY, ...gradeOptions]}
              value={values.grade}
              onChange={(e) => set('grade', e.currentTarget.value as ProfileValues['grade'])}
            />
            <NativeSelect
              label="Choix par défaut du centre d'examen"
              withAsterisk={required.defaultChoice}
              data={[EMPTY, ...defaultChoiceOptions]}
              value={values.defaultChoice}
              onChange={(e) => set('defaultChoice', e.currentTarget.value as ProfileValues['defaultChoice'])}
            />
            <TextInput label="E-mail de l'élève" type="email" autoComplete="email" {...text('emailStudent')} />
            <TextInput label="E-mail d'un parent" type="email" withAsterisk={required.emailParent} {...text('emailParent')} />
            <TextInput label="E-mail de l'autre parent" type="email" {...text('emailOtherParent')} />
          </SimpleGrid>
          <Checkbox
            label="Recevoir les notifications par e-mail"
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
              onChange={(i) => set('institution', { _id: i._id, name: i.name })}
            />
          )}
          <Group>
            <Button type="submit" loading={save.isPending}>
              Enregistrer
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
