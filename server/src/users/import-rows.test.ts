import { safeReturnPath, schoolSearchWords } from '@olympe/contract';
import { describe, expect, it } from 'vitest';
import { findColumns, headerKey, parseBirthDate, parseGender, parseGrade, parsePupilLine } from './import-rows.js';

describe('bulk import lines', () => {
  it('finds the columns by their header, in any order, accents and case ignored', () => {
    const at = findColumns(['Nom', 'PRÉNOM', 'Courriel', 'Né(e) le', 'Niveau', 'Sexe']);
    expect(at).toMatchObject({ lastName: 0, firstName: 1, email: 2, birthDate: 3, grade: 4, gender: 5, emailParent: -1 });
    expect(() => findColumns(['Nom', 'Prénom'])).toThrow(/«\sE-mail\s», «\sDate de naissance\s», «\sClasse\s», «\sGenre\s»/);
  });

  it('finds the columns as other tools write their headers: capitals, underscores, dashes, no accents (decision 142)', () => {
    expect(findColumns(['EMAIL', 'PRENOM', 'NOM', 'DATE_NAISSANCE', 'CLASSE', 'SEXE'])).toMatchObject({
      email: 0,
      firstName: 1,
      lastName: 2,
      birthDate: 3,
      grade: 4,
      gender: 5,
      emailParent: -1,
    });
    expect(findColumns(['e_mail', 'Prénom ', 'NOM DE FAMILLE', 'Date-de-naissance', 'niveau', 'Genre', 'EMAIL_PARENT'])).toMatchObject({
      email: 0,
      firstName: 1,
      lastName: 2,
      birthDate: 3,
      grade: 4,
      gender: 5,
      emailParent: 6,
    });
    expect(findColumns(['Mail', 'prenom', 'Nom', 'Né le', 'Classe', 'sexe'])).toMatchObject({ email: 0, birthDate: 3 });
    expect(findColumns(['Adresse électronique', 'Prénom', 'Nom', 'Naissance', 'Classe', 'Genre']).email).toBe(0);
    expect(['E-mail', 'e-mail', 'EMAIL', 'Email', 'E_MAIL', ' e - mail '].map(headerKey)).toEqual(Array<string>(6).fill('email'));
    for (const header of ['date de naissance', 'DATE_NAISSANCE', 'date_naissance', 'Date-Naissance', 'NAISSANCE', 'né(e) le', 'NÉ LE']) {
      expect(findColumns(['email', 'prénom', 'nom', header, 'classe', 'sexe']).birthDate, header).toBe(3);
    }
    // The parent's e-mail is never taken for the pupil's, whichever comes first.
    expect(findColumns(['EMAIL_PARENT', 'EMAIL', 'PRENOM', 'NOM', 'DATE_NAISSANCE', 'CLASSE', 'SEXE'])).toMatchObject({
      email: 1,
      emailParent: 0,
    });
    expect(() => findColumns(['EMAIL', 'PRENOM', 'NOM', 'DATE', 'CLASSE', 'SEXE'])).toThrow(/introuvable\s:\s«\sDate de naissance\s»\./);
  });

  it('reads values as people write them: F/M/Fille/Garçon, 2nde/Seconde/2de/seconde générale, dates with or without zeros', () => {
    expect(['F', 'f', 'F.', 'Fille', 'FILLE', 'Féminin', 'M', 'm', 'Garçon', 'GARCON', 'Masculin', 'H'].map(parseGender)).toEqual([
      ...Array<string>(6).fill('female'),
      ...Array<string>(6).fill('male'),
    ]);
    expect(
      ['2nde', 'Seconde', '2de', 'seconde générale', 'SECONDE GENERALE ET TECHNOLOGIQUE', '2nde4', '2NDE 4', '2GT', 'Seconde B'].map(
        parseGrade,
      ),
    ).toEqual(Array<string>(9).fill('2nde'));
    expect(['3eB', '3e2', '4ème', 'Tle1', 'TERMINALE S', '1ère G', '1reS', '5EME'].map(parseGrade)).toEqual([
      '3eme',
      '3eme',
      '4eme',
      'Tale',
      'Tale',
      '1ere',
      '1ere',
      '5eme',
    ]);
    expect(['2ndexyz', '23', 'CE2', 'seconde?'].map(parseGrade)).toEqual([null, null, null, '2nde']);
    for (const written of [
      '04/03/2009',
      '4/3/2009',
      '2009-03-04',
      '04-03-2009',
      '04.03.2009',
      '04/03/09',
      '2009-03-04 00:00:00',
      '2009-03-04T00:00:00Z',
    ]) {
      expect(parseBirthDate(written, new Date('2026-12-07')), written).toBe('2009-03-04');
    }
    expect(parseBirthDate('04/03/98', new Date('2026-12-07'))).toBe('1998-03-04');
    expect(parseBirthDate(new Date(Date.UTC(2009, 2, 4)))).toBe('2009-03-04');
    expect(parseBirthDate(39876)).toBe('2009-03-04');
    expect(['2009-03-04 midi', '4/3', '04/03/009'].map((v) => parseBirthDate(v))).toEqual([null, null, null]);
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
    if (!bad.ok)
      expect(bad.message).toBe(
        'E-mail invalide (« x ») ; prénom manquant ; date de naissance impossible (« 30/02/2011 ») ; classe inconnue (« CM2 », attendu 5e, 4e, 3e, 2nde, 1re, Terminale ou Autre) ; genre inconnu (« Z », attendu F, M ou Autre).',
      );
    const good = parsePupilLine([' Ada@Exemple.FR ', 'Ada', 'Lovelace', '10/12/2011', '3e', 'F'], at, 2);
    expect(good).toEqual({
      ok: true,
      pupil: {
        line: 2,
        email: 'ada@exemple.fr',
        firstName: 'Ada',
        lastName: 'Lovelace',
        birthDate: '2011-12-10',
        grade: '3eme',
        gender: 'female',
        emailParent: null,
      },
    });
  });
});

describe('names in an import (decision 134)', () => {
  const at = findColumns(['E-mail', 'Prénom', 'Nom', 'Date de naissance', 'Classe', 'Genre']);
  const line = (firstName: string, lastName: string) =>
    parsePupilLine(['a@exemple.fr', firstName, lastName, '10/12/2011', '3e', 'F'], at, 2);

  it('refuses control, bidirectional and zero-width characters in either name', () => {
    for (const [first, last] of [
      ['Ali\u202Ece', 'Martin'],
      ['Alice', 'Mar\u200Btin'],
      ['Al\u2066ice', 'Martin'],
      ['Alice', 'Mar\u0007tin'],
    ]) {
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
