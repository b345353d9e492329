import { describe, expect, it } from 'vitest';
import { isReservedGroupName, splitEmailList, updateGroupSchema } from './groups.js';

describe('splitEmailList (docs/product.md#spec-5)', () => {
  it('splits on spaces, tabs, new lines, commas and semicolons', () => {
    expect(splitEmailList('a@x.fr b@x.fr\tc@x.fr\nd@x.fr\r\ne@x.fr,f@x.fr;g@x.fr')).toEqual([
      'a@x.fr',
      'b@x.fr',
      'c@x.fr',
      'd@x.fr',
      'e@x.fr',
      'f@x.fr',
      'g@x.fr',
    ]);
  });

  it('lower-cases every address', () => {
    expect(splitEmailList('Jean.DUPONT@Exemple.FR')).toEqual(['jean.dupont@exemple.fr']);
  });

  it('drops empty pieces from repeated or trailing separators', () => {
    expect(splitEmailList(' ;, a@x.fr ;; ,\n\n b@x.fr ; ')).toEqual(['a@x.fr', 'b@x.fr']);
    expect(splitEmailList('')).toEqual([]);
    expect(splitEmailList(' \n;,')).toEqual([]);
  });

  it('keeps each address once, in first-seen order, whatever its case', () => {
    expect(splitEmailList('b@x.fr A@x.fr a@X.fr b@x.fr')).toEqual(['b@x.fr', 'a@x.fr']);
  });

  it('does not split on other characters (dots, dashes, plus signs stay in the address)', () => {
    expect(splitEmailList('jean-marie.o+cup@lycee-x.fr')).toEqual(['jean-marie.o+cup@lycee-x.fr']);
  });
});

describe('group names', () => {
  it('reserves teachers and members whatever the case', () => {
    expect(isReservedGroupName(' Teachers ')).toBe(true);
    expect(isReservedGroupName('MEMBERS')).toBe(true);
    expect(isReservedGroupName('Stage d’été')).toBe(false);
  });
});

describe('updateGroupSchema', () => {
  it('accepts a name or a member list, not both, not none', () => {
    expect(updateGroupSchema.safeParse({ name: 'A' }).success).toBe(true);
    expect(updateGroupSchema.safeParse({ members: [] }).success).toBe(true);
    expect(updateGroupSchema.safeParse({}).success).toBe(false);
    expect(updateGroupSchema.safeParse({ name: 'A', members: [] }).success).toBe(false);
  });

  it('trims and lower-cases member e-mails, refuses blank names', () => {
    expect(updateGroupSchema.parse({ members: [' A@X.fr '] }).members).toEqual(['a@x.fr']);
    const blank = updateGroupSchema.safeParse({ name: '   ' });
    expect(blank.success).toBe(false);
    expect(blank.error?.issues[0].message).toBe('Le nom du groupe ne peut pas être vide.');
  });
});
