import { startTransition, useEffect, useRef, useState } from 'react';
import { schemaResolver, useForm } from '@mantine/form';
import { missingProfileFields, type User } from '@olympe/contract';
import { useSaveProfile } from '../../api/auth';
import { refusalOf } from '../../api/client';
import { showNotice } from '../../api/notify';
import { loadOnce } from '../../lib/load-once';
import type { Roles } from '../../session/roles';
import { updateOf, valuesOf, type ProfileValues } from './profile-form';

type FieldErrors = Partial<Record<keyof ProfileValues, string>>;

const EMPTY_VALUES: ProfileValues = {
  firstName: '',
  lastName: '',
  emailStudent: '',
  emailParent: '',
  emailOtherParent: '',
  birthDate: '',
  gender: '',
  grade: '',
  defaultChoice: '',
  emailNotifications: false,
  institution: null,
};

/** Said above the button when the contract's checks refuse a field. */
const FIX_FIELDS_MESSAGE = 'Corrigez les champs signalés : rien n’a été enregistré.';

/** The group names the contract's profile rules read, from the session's roles. */
export function groupNamesOf(roles: Roles): string[] {
  return [...(roles.isTeacher ? ['teachers'] : []), ...(roles.isMember ? ['members'] : [])];
}

/**
 * The contract's profile schema, and zod with it (about 45 kB), come with the first edit of a field rather than
 * with the page (decision 121): most visits only read the profile. Asked for once, not at every keystroke.
 */
const schemaModule = loadOnce(() => import('@olympe/contract/user'));
// Its file could not come (network lost): asked again at the next edit; meanwhile the server checks alone.
const profileSchema = () =>
  schemaModule.load().then(
    (m) => m.profileUpdateSchema,
    () => null,
  );

/** The contract's own checks, run before sending: each refusal goes next to its field, in French. */
async function contractErrorsOf(values: ProfileValues) {
  // The school comes from the picker (a real id): the server alone checks it.
  const { institution: _school, ...fields } = updateOf(values);
  const schema = await profileSchema();
  return schema ? schemaResolver(schema.omit({ institution: true }))(fields) : {};
}

/** A server refusal: the body's `fields` by field, else its message for the whole form. */
function serverErrorsOf(error: unknown): { fields: FieldErrors; message: string | null } {
  const refusal = refusalOf(error);
  if (!refusal) return { fields: {}, message: 'Le serveur ne répond pas : vos modifications ne sont pas enregistrées.' };
  return Object.keys(refusal.fields).length > 0
    ? { fields: refusal.fields as FieldErrors, message: null }
    : { fields: {}, message: refusal.message };
}

/**
 * docs/product.md#spec-2 "Profile": the form of the signed-in user, checked by the contract's schema before
 * it is sent through PUT /auth/me; the server's refusals go beside their fields, or above the button.
 */
export function useProfileForm(user: User | null, roles: Roles, reload: () => Promise<void>) {
  const [ready, setReady] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  // True while the form is filled from the server: only the user's own edits ask for the schema.
  const filling = useRef(false);
  const form = useForm<ProfileValues>({
    initialValues: EMPTY_VALUES,
    validate: contractErrorsOf,
    // A refusal stays beside its field until the next save says otherwise.
    clearInputErrorOnChange: false,
    // The schema's file is asked for with the first edit.
    onValuesChange: () => {
      if (!filling.current) void profileSchema();
    },
  });
  const fill = (values: ProfileValues) => {
    filling.current = true;
    form.setValues(values);
    filling.current = false;
  };

  // A fresh form for each user (impersonation switches user without leaving the page).
  const userId = user?._id;
  useEffect(() => {
    // A transition (decision 117): the whole form, drawn once the session is in, is rendered in slices that
    // leave the page answering, not in one long task (about a second on a slow phone).
    if (user) {
      startTransition(() => {
        fill(valuesOf(user));
        setReady(true);
      });
    }
    // Only when the person changes: session reloads on navigation must not wipe unsaved edits.
  }, [userId]);

  const save = useSaveProfile({
    onSuccess: async (saved) => {
      fill(valuesOf(saved));
      form.clearErrors();
      setFormError(null);
      const missing = missingProfileFields(saved, groupNamesOf(roles));
      // Saved, but an incomplete profile still opens no test: say so rather than a plain green tick.
      if (missing.length === 0) showNotice('Modifications enregistrées', 'green');
      else showNotice(`Modifications enregistrées. Il manque encore : ${missing.join(', ')}.`, 'yellow');
      await reload();
    },
    onError: (error) => {
      const { fields, message } = serverErrorsOf(error);
      form.setErrors(fields);
      setFormError(message);
    },
  });

  const submit = form.onSubmit(
    (values) => {
      setFormError(null);
      save.mutate(updateOf(values));
    },
    () => setFormError(FIX_FIELDS_MESSAGE),
  );

  return { form, ready, formError, submit, saving: save.isPending };
}

export type ProfileForm = ReturnType<typeof useProfileForm>['form'];
