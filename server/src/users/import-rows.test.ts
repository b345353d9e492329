import { safeReturnPath, schoolSearchWords } from '@olympe/contract';
import { describe, expect, it } from 'vitest';
import { findColumns, parseBirthDate, parseGender, parseGrade, parsePupilLine } from './import-rows.js';

describe('bulk import lines', () => {
  it('finds the columns by their header, in any order, accents and case ignored', () => {
    const at = findColumns(['Nom', 'PRÉNOM', 'Courriel', 'Né(e) le', 'Niveau', 'Sexe']);
    expect(at).toMatchObject({ lastName: 0, firstName: 1, email: 2, birthDate: 3, grade: 4, gender: 5, emailParent: -1 });
    expect(() => findColumns(['Nom', 'Prénom'])).toThrow(/«\sE-mail\s», «\sDate de naissance\s», «\sClasse\s», «\sGenre\s»/);
  });

  it('reads dates, classes and genders as people type them', () => {
    expect(parseBirthDate('4/3/2011')).toBe('2011-03-04');
    expect(parseBirthDate('2011-03-04')).toBe('2011-03-04');
    expect(parseBirthDate(40606)).toBe('2011-03-04');
    expect(parseBirthDate(new Date(Date.UTC(2011, 2, 4)))).toBe('2011-03-04');
    expect(parseBirthDate('mars 2011')).toBeNull();
    expect(['3e B', 'Seconde 4', '1re', 'Terminale', 'CM2'].map(parseGrade)).toEqual(['3eme', '2nde', '1ere', 'Tale', null]);
    expect(['F', 'garçon', 'Autre', '?'].map(parseGender)).toEqual(['female', 'male', 'other', null]);
  });

  it('gives every reason a line is refused, in French', () => {
    const at = findColumns(['E-mail', 'Prénom', 'Nom', 'Date de naissance', 'Classe', 'Genre']);
    const bad = parsePupilLine(['x', '', 'Borel', '30/02/2011', 'CM2', 'Z'], at, 7);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toBe('E-mail invalide (« x ») ; prénom manquant ; date de naissance impossible (« 30/02/2011 ») ; classe inconnue (« CM2 », attendu 5e, 4e, 3e, 2nde, 1re, Terminale ou Autre) ; genre inconnu (« Z », attendu F, M ou Autre).');
    const good = parsePupilLine([' Ada@Exemple.FR ', 'Ada', 'Lovelace', '10/12/2011', '3e', 'F'], at, 2);
    expect(good).toEqual({ ok: true, pupil: { line: 2, email: 'ada@exemple.fr', firstName: 'Ada', lastName: 'Lovelace', birthDate: '2011-12-10', grade: '3eme', gender: 'female', emailParent: null } });
  });
});

describe('names in an import (decision 134)', () => {
  const at = findColumns(['E-mail', 'Prénom', 'Nom', 'Date de naissance', 'Classe', 'Genre']);
  const line = (firstName: string, lastName: string) => parsePupilLine(['a@exemple.fr', firstName, lastName, '10/12/2011', '3e', 'F'], at, 2);

  it('refuses control, bidirectional and zero-width characters in either name', () => {
    for (const [first, last] of [['Ali\u202Ece', 'Martin'], ['Alice', 'Mar\u200Btin'], ['Al\u2066ice', 'Martin'], ['Alice', 'Mar\u0007tin']]) {
      const parsed = line(first, last);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(/^(Prénom|Nom) avec un caractère invisible ou de contrôle\.$/);
    }
  });

  it('keeps the letters of every script', () => {
    expect(line('Łukasz Øyvind', 'Nguyễn-Ștefan D’Arc').ok).toBe(true);
  });
});

describe('the first hour’s shared rules', () => {
  it('keeps only a path of this site as the way back', () => {
    expect(safeReturnPath('/chapter/12?x=1')).toBe('/chapter/12?x=1');
    for (const bad of ['//evil.example', 'https://evil.example', '/\\evil', 'chapter', '', null]) expect(safeReturnPath(bad)).toBeNull();
  });

  it('folds a school search as the database folds the schools', () => {
    expect(schoolSearchWords('Saint-Étienne  42000 lycée d’Alembert')).toEqual(['saint', 'etienne', '42000', 'lycee', 'd', 'alembert']);
  });
});
