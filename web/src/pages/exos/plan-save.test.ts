import { describe, expect, it } from 'vitest';
import { draftOf, newExercise, planExerciseSave } from './plan-save';

const saved = draftOf({
  _id: 'e1',
  title: 'Somme',
  answerFormat: 'numeric',
  chapter: 'c',
  statementVersions: [
    { content: 'A', answer: '2' },
    { content: 'B', answer: '4' },
  ],
});

describe('planExerciseSave', () => {
  it('sends nothing for an untouched table', () => {
    expect(planExerciseSave([saved], [])).toEqual({ deletes: [], creates: [], updates: [] });
  });

  it('creates new exercises with the SPEC §9 defaults', () => {
    expect(planExerciseSave([saved, newExercise()], ['old'])).toEqual({
      deletes: ['old'],
      creates: [{ title: 'Nouvel exercice', answerFormat: 'numeric', statementVersions: [{ content: 'Nouvelle version', answer: null }] }],
      updates: [],
    });
  });

  it('patches only the changed fields', () => {
    const renamed = { ...saved, title: ' Somme bis ' };
    expect(planExerciseSave([renamed], [])).toEqual({ deletes: [], creates: [], updates: [{ _id: 'e1', changes: { title: 'Somme bis' } }] });
    const moreVersions = { ...saved, versions: [...saved.versions, { key: 'n', content: 'C', answer: '6,5' }] };
    const plan = planExerciseSave([moreVersions], []);
    expect(plan).toEqual({
      deletes: [],
      creates: [],
      updates: [
        {
          _id: 'e1',
          changes: {
            statementVersions: [
              { content: 'A', answer: '2' },
              { content: 'B', answer: '4' },
              { content: 'C', answer: '6,5' },
            ],
          },
        },
      ],
    });
  });

  it('drops expected answers when the format is no longer numeric', () => {
    const pdf = { ...saved, answerFormat: 'pdf' as const };
    expect(planExerciseSave([pdf], [])).toEqual({
      deletes: [],
      creates: [],
      updates: [
        {
          _id: 'e1',
          changes: {
            answerFormat: 'pdf',
            statementVersions: [
              { content: 'A', answer: null },
              { content: 'B', answer: null },
            ],
          },
        },
      ],
    });
  });

  it('refuses bad exercises in French before any call', () => {
    expect(planExerciseSave([{ ...saved, title: ' ' }], [])).toEqual({ error: 'Exercice 1 : le titre ne peut pas être vide.' });
    expect(planExerciseSave([{ ...saved, versions: [] }], [])).toHaveProperty('error');
    expect(planExerciseSave([newExercise(), { ...saved, versions: [{ key: 'x', content: 'A', answer: 'deux' }] }], [])).toEqual({
      error: 'Exercice 2 : la réponse attendue de la version 1 n’est pas un nombre.',
    });
    // A non-numeric exercise keeps no answer, so nothing to check.
    expect(planExerciseSave([{ ...saved, answerFormat: 'none', versions: [{ key: 'x', content: 'A', answer: 'deux' }] }], [])).not.toHaveProperty('error');
  });
});
