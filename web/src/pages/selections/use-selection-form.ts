import { useState } from 'react';
import { schemaResolver, useForm } from '@mantine/form';
import { selectionInputSchema, type Selection, type SelectionInput } from '@olympe/contract';
import { useNavigate } from 'react-router';
import { refusalOf } from '../../api/client';
import { useCreateSelection, useUpdateSelection } from '../../api/selections';
import { paths } from '../../config/paths';

export type SelectionValues = SelectionInput;
type Category = SelectionValues['categories'][number];

export const newCategory = (): Category => ({ name: '', genders: [], grades: [], birthDateMin: null, birthDateMax: null });

export const EMPTY_SELECTION: SelectionValues = {
  title: '',
  chapters: [{ chapterId: '', weight: 1 }],
  categories: [newCategory()],
  nextRoundTitle: '',
  nextRoundDate: null,
  nextRoundPlace: '',
  juryGroupId: null,
  juryRight: 'read',
};

/** The form's values of a saved selection (its categories keep their ids: their cut-offs and decisions stay). */
export function valuesOf(s: Selection): SelectionValues {
  return {
    title: s.title,
    chapters: s.chapters.map((c) => ({ chapterId: c.chapterId, weight: c.weight })),
    categories: s.categories.map((c) => ({
      _id: c._id,
      name: c.name,
      genders: c.genders as Category['genders'],
      grades: c.grades as Category['grades'],
      birthDateMin: c.birthDateMin,
      birthDateMax: c.birthDateMax,
    })),
    nextRoundTitle: s.nextRoundTitle,
    nextRoundDate: s.nextRoundDate,
    nextRoundPlace: s.nextRoundPlace,
    juryGroupId: s.juryGroupId,
    juryRight: s.juryRight,
  };
}

const FIX_FIELDS_MESSAGE = 'Corrigez les champs signalés : rien n’a été enregistré.';

/**
 * A selection's settings (admins, decision 149): checked by the contract's schema before they are sent, the
 * server's refusals put back beside their fields (`categories.0.name`…), or above the button.
 */
export function useSelectionForm(selection: Selection | null) {
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<SelectionValues>({
    initialValues: selection ? valuesOf(selection) : EMPTY_SELECTION,
    validate: schemaResolver(selectionInputSchema, { sync: true }),
    clearInputErrorOnChange: true,
  });
  const create = useCreateSelection();
  const update = useUpdateSelection(selection?._id ?? '');
  const onError = (error: unknown) => {
    const refusal = refusalOf(error);
    if (!refusal) return setFormError('Le serveur ne répond pas : la sélection n’est pas enregistrée.');
    form.setErrors(refusal.fields);
    setFormError(Object.keys(refusal.fields).length > 0 ? FIX_FIELDS_MESSAGE : refusal.message);
  };
  const submit = form.onSubmit(
    (values) => {
      setFormError(null);
      const done = (saved: Selection) => void navigate(paths.selection(saved._id));
      if (selection) update.mutate(values, { onSuccess: done, onError });
      else create.mutate(values, { onSuccess: done, onError });
    },
    () => setFormError(FIX_FIELDS_MESSAGE),
  );
  return { form, submit, formError, saving: create.isPending || update.isPending };
}

export type SelectionForm = ReturnType<typeof useSelectionForm>['form'];
