import { Checkbox, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { User } from '@olympe/contract';
// The field's module, not the folder's index: the index also brings DateTimeField, with the calendar's code.
import { DateField } from '../../components/DateFields/date-field';
import type { Roles } from '../../session/roles';
import { defaultChoiceOptions, genderOptions, gradeOptions, requiredFields, type ProfileValues } from './profile-form';
import { SchoolPicker } from './school-picker';
import type { ProfileForm } from './use-profile-form';

/** Beside a family address not confirmed yet (decision 134). */
export const PENDING_CONFIRMATION = 'En attente de confirmation : un lien a été envoyé à cette adresse.';

/** docs/product.md#spec-2 "Profile": the title's tag by role; pupils have none. */
export const STAFF_SCHOOL_HINT =
  'Vos droits de personnel scolaire portent sur cet établissement : pour en changer, demandez à un administrateur.';

const EMPTY = { value: '', label: '—' };

type Pending = (key: 'emailStudent' | 'emailParent' | 'emailOtherParent') => { description?: string };

/** The pupil's own fields: birth date, class, default centre, the family's addresses. */
function PupilFields({ form, required, pending }: { form: ProfileForm; required: ReturnType<typeof requiredFields>; pending: Pending }) {
  const errorOf = (key: keyof ProfileValues) => form.errors[key] as string | undefined;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <DateField
        label="Date de naissance"
        withAsterisk={required.birthDate}
        value={form.values.birthDate}
        maxDate={new Date().toISOString().slice(0, 10)}
        // The format under the field, so that the field lines up with « Classe » beside it.
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        error={errorOf('birthDate')}
        onChange={(v) => form.setFieldValue('birthDate', v)}
      />
      <NativeSelect label="Classe" withAsterisk={required.grade} data={[EMPTY, ...gradeOptions]} {...form.getInputProps('grade')} />
      <NativeSelect
        label="Choix par défaut du centre d’examen"
        withAsterisk={required.defaultChoice}
        data={[EMPTY, ...defaultChoiceOptions]}
        {...form.getInputProps('defaultChoice')}
      />
      <TextInput
        label="E-mail de l’élève"
        type="email"
        autoComplete="email"
        {...form.getInputProps('emailStudent')}
        {...pending('emailStudent')}
      />
      <TextInput
        label="E-mail d’un parent"
        type="email"
        withAsterisk={required.emailParent}
        {...form.getInputProps('emailParent')}
        {...pending('emailParent')}
      />
      <TextInput
        label="E-mail de l’autre parent"
        type="email"
        {...form.getInputProps('emailOtherParent')}
        {...pending('emailOtherParent')}
      />
    </SimpleGrid>
  );
}

/** The profile's fields: names and gender for everyone, the pupil's own fields, reminders, the school. */
export function ProfileFields({ form, user, roles, staff }: { form: ProfileForm; user: User; roles: Roles; staff: boolean }) {
  const required = requiredFields(roles);
  const errorOf = (key: keyof ProfileValues) => form.errors[key] as string | undefined;
  // Decision 134: a family address receives nothing but its confirmation link until its owner confirms it.
  const pending = (key: 'emailStudent' | 'emailParent' | 'emailOtherParent') => {
    const saved = user[key]?.trim().toLowerCase();
    return saved && saved === form.values[key].trim().toLowerCase() && user.pendingEmails?.includes(saved)
      ? { description: PENDING_CONFIRMATION }
      : {};
  };
  return (
    <>
      <TextInput
        label="E-mail principal"
        value={user.email}
        readOnly
        description="Cette adresse sert uniquement à l’envoi des e-mails de réinitialisation du mot de passe."
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Prénom" withAsterisk={required.firstName} autoComplete="given-name" {...form.getInputProps('firstName')} />
        <TextInput label="Nom" withAsterisk={required.lastName} autoComplete="family-name" {...form.getInputProps('lastName')} />
        <NativeSelect label="Genre" withAsterisk={required.gender} data={[EMPTY, ...genderOptions]} {...form.getInputProps('gender')} />
      </SimpleGrid>
      {/* Pupil-only fields: school staff, correctors and admins never fill them (docs/product.md#spec-2-profile). */}
      {!staff && <PupilFields form={form} required={required} pending={pending} />}
      {/* Decision 143: the box governs reminders only; service mails go whatever it says. */}
      <Checkbox
        label="Recevoir les rappels par e-mail"
        description="Ouverture d’une épreuve, récapitulatifs. Les convocations, les changements de centre et les résultats sont toujours envoyés."
        {...form.getInputProps('emailNotifications', { type: 'checkbox' })}
      />
      {roles.isTeacher && !roles.isAdmin && form.values.institution ? (
        // Staff rights are scoped by the school: only an admin moves them (the server refuses it too).
        <Stack gap={2}>
          <Text fw={500} size="sm">
            Établissement
          </Text>
          <Text>{form.values.institution.name}</Text>
          <Text size="sm" c="dimmed">
            {STAFF_SCHOOL_HINT}
          </Text>
        </Stack>
      ) : (
        <SchoolPicker
          value={form.values.institution}
          required={required.institution}
          pupil={!staff}
          error={errorOf('institution')}
          onChange={(i) => form.setFieldValue('institution', { _id: i._id, name: i.name })}
        />
      )}
    </>
  );
}
