import { describe, expect, it } from 'vitest';
import { CsvParser } from './csv-parser.js';
import { buildAddress, classifyRow, COLUMNS, indexColumns, isCollegeOrLycee } from './import.js';

const parseAll = (text: string, chunkSize = text.length) => {
  const p = new CsvParser(';');
  const out: string[][] = [];
  for (let i = 0; i < text.length; i += chunkSize) out.push(...p.push(text.slice(i, i + chunkSize)));
  out.push(...p.end());
  return out;
};

describe('CsvParser', () => {
  it('splits on semicolons and lines, LF or CRLF, and drops the BOM and blank lines', () => {
    expect(parseAll('\uFEFFa;b;c\r\n1;2;3\n\n4;;6')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
      ['4', '', '6'],
    ]);
  });

  it('reads quoted fields with separators, doubled quotes and line breaks', () => {
    expect(parseAll('"x;y";"il a dit ""oui""";"l1\nl2"\nz;"";w\n')).toEqual([
      ['x;y', 'il a dit "oui"', 'l1\nl2'],
      ['z', '', 'w'],
    ]);
  });

  it('gives the same records whatever the chunk boundaries (streaming)', () => {
    const text = 'a;"b ""q"" ;c"\r\n"d\r\ne";f\r\n';
    const whole = parseAll(text);
    for (const size of [1, 2, 3, 5, 7]) expect(parseAll(text, size)).toEqual(whole);
    expect(whole).toEqual([
      ['a', 'b "q" ;c'],
      ['d\r\ne', 'f'],
    ]);
  });
});

const header = Object.values(COLUMNS);
const columns = indexColumns(header);
const row = (over: Partial<Record<keyof typeof COLUMNS, string>>) => {
  const base: Record<keyof typeof COLUMNS, string> = {
    uai: '0750001A',
    name: 'Collège Émile Zola',
    type: 'Collège',
    street: '12 rue de la Paix',
    postalCode: '75002',
    city: 'Paris',
    email: 'CE.0750001A@ac-paris.fr',
    latitude: '48.8686',
    longitude: '2.3316',
  };
  const merged = { ...base, ...over };
  return (Object.keys(COLUMNS) as Array<keyof typeof COLUMNS>).map((k) => merged[k]);
};

describe('indexColumns', () => {
  it('finds the columns wherever they are', () => {
    const idx = indexColumns(['x', ...header.slice().reverse()]);
    expect(idx.uai).toBe(header.length);
    expect(idx.longitude).toBe(1);
  });

  it('refuses a file without the directory columns, naming them', () => {
    expect(() => indexColumns(['UAI', 'Nom'])).toThrow(/colonnes manquantes.*Identifiant_de_l_etablissement/);
  });
});

describe('classifyRow', () => {
  it('makes a confirmed-to-be school from a collège row: address, lower-cased e-mail, coordinates', () => {
    expect(classifyRow(row({}), columns, header.length)).toEqual({
      kind: 'school',
      school: {
        uai: '0750001A',
        name: 'Collège Émile Zola',
        address: '12 rue de la Paix, 75002 Paris',
        email: 'ce.0750001a@ac-paris.fr',
        latitude: 48.8686,
        longitude: 2.3316,
      },
    });
  });

  it('keeps collèges and lycées only', () => {
    expect(isCollegeOrLycee('Collège')).toBe(true);
    expect(isCollegeOrLycee('LYCEE')).toBe(true);
    expect(isCollegeOrLycee('Lycée professionnel')).toBe(true);
    expect(isCollegeOrLycee('Ecole')).toBe(false);
    expect(isCollegeOrLycee('Service Administratif')).toBe(false);
    expect(classifyRow(row({ type: 'Ecole' }), columns, header.length)).toEqual({ kind: 'ignored' });
  });

  it('reports rows without coordinates', () => {
    expect(classifyRow(row({ latitude: '' }), columns, header.length)).toEqual({
      kind: 'noCoordinates',
      uai: '0750001A',
      name: 'Collège Émile Zola',
    });
    expect(classifyRow(row({ longitude: ' ' }), columns, header.length).kind).toBe('noCoordinates');
  });

  it('accepts a decimal comma in coordinates', () => {
    const out = classifyRow(row({ latitude: '48,5', longitude: '-1,25' }), columns, header.length);
    expect(out).toMatchObject({ kind: 'school', school: { latitude: 48.5, longitude: -1.25 } });
  });

  it('marks bad rows with a reason: column count, UAI, name, coordinates', () => {
    expect(classifyRow(row({}).slice(0, 4), columns, header.length)).toEqual({ kind: 'bad', reason: '4 colonnes au lieu de 9' });
    expect(classifyRow(row({ uai: '123' }), columns, header.length)).toMatchObject({ kind: 'bad', reason: expect.stringContaining('UAI') });
    expect(classifyRow(row({ name: '  ' }), columns, header.length)).toMatchObject({
      kind: 'bad',
      reason: expect.stringContaining('sans nom'),
    });
    expect(classifyRow(row({ latitude: 'abc' }), columns, header.length)).toMatchObject({
      kind: 'bad',
      reason: expect.stringContaining('coordonnées'),
    });
    expect(classifyRow(row({ latitude: '91' }), columns, header.length).kind).toBe('bad');
    expect(classifyRow(row({ longitude: '-181' }), columns, header.length).kind).toBe('bad');
  });

  it('drops a malformed e-mail but keeps the school; upper-cases the UAI', () => {
    const out = classifyRow(row({ email: 'pas-une-adresse', uai: '0750001a' }), columns, header.length);
    expect(out).toMatchObject({ kind: 'school', school: { email: null, uai: '0750001A' } });
  });
});

describe('buildAddress', () => {
  it('joins street, postal code and town, skipping empty parts and folding spaces', () => {
    expect(buildAddress('2 allée des Tilleuls\nBât. B', '21000', 'Dijon')).toBe('2 allée des Tilleuls Bât. B, 21000 Dijon');
    expect(buildAddress('', '21000', 'Dijon')).toBe('21000 Dijon');
    expect(buildAddress('1 rue X', '', '')).toBe('1 rue X');
  });
});
