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

  it('creates new exercises with the docs/product.md#spec-9 defaults', () => {
    expect(planExerciseSave([saved, newExercise()], ['old'])).toEqual({
      deletes: ['old'],
      creates: [
        {
          title: 'Nouvel exercice',
          answerFormat: 'numeric',
          statementVersions: [{ content: 'Nouvelle version', answer: null }],
          maxPoints: 1,
          schemeItems: [],
        },
      ],
      updates: [],
    });
  });

  it('sends the points and the marking scheme (decision 61), refusing a scheme above the points', () => {
    const scheme = [
      { key: 's1', id: '7c1b2a3d-0000-4000-8000-000000000001', text: 'Initialisation', points: '1' },
      { key: 's2', text: ' Hérédité ', points: '1,5' },
    ];
    expect(planExerciseSave([{ ...saved, maxPoints: '2,5', scheme }], [])).toMatchObject({
      updates: [
        {
          _id: 'e1',
          changes: {
            maxPoints: 2.5,
            schemeItems: [
              { id: '7c1b2a3d-0000-4000-8000-000000000001', text: 'Initialisation', points: 1 },
              { text: 'Hérédité', points: 1.5 },
            ],
          },
        },
      ],
    });
    expect(planExerciseSave([{ ...saved, maxPoints: '2', scheme }], [])).toEqual({
      error: 'Exercice 1 : le barème totalise 2,5 points pour un exercice noté sur 2.',
    });
    expect(planExerciseSave([{ ...saved, maxPoints: '-1' }], [])).toMatchObject({ error: expect.stringContaining('positif ou nul') });
  });

  it('patches only the changed fields', () => {
    const renamed = { ...saved, title: ' Somme bis ' };
    expect(planExerciseSave([renamed], [])).toEqual({
      deletes: [],
      creates: [],
      updates: [{ _id: 'e1', changes: { title: 'Somme bis' } }],
    });
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
    expect(planExerciseSave([{ ...saved, title: ' ' }], [])).toEqual({ error: 'Exercice 1 : le titre ne peut pas être vide.' });
    expect(planExerciseSave([{ ...saved, versions: [] }], [])).toHaveProperty('error');
    expect(planExerciseSave([newExercise(), { ...saved, versions: [{ key: 'x', content: 'A', answer: 'deux' }] }], [])).toEqual({
      error: 'Exercice 2 : la réponse attendue de la version 1 n’est pas un nombre.',
    });
    // A non-numeric exercise keeps no answer, so nothing to check.
    expect(
      planExerciseSave([{ ...saved, answerFormat: 'none', versions: [{ key: 'x', content: 'A', answer: 'deux' }] }], []),
    ).not.toHaveProperty('error');
  });
});
