import { afterEach, describe, expect, it, vi } from 'vitest';
import { CSV_BOM, csvCell, downloadCsv, safeFileName, toCsv } from './csv';

describe('csvCell', () => {
  it('quotes every field and doubles inner quotes', () => {
    expect(csvCell('Dupont')).toBe('"Dupont"');
    expect(csvCell('Le "grand" lycée')).toBe('"Le ""grand"" lycée"');
    expect(csvCell('""')).toBe('""""""');
  });

  it('keeps semicolons and new lines inside the quotes', () => {
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('ligne 1\nligne 2\r\nligne 3')).toBe('"ligne 1\nligne 2\r\nligne 3"');
  });

  it('neutralises cells that a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+33 6 12')).toBe(`"'+33 6 12"`);
    expect(csvCell('-2+3')).toBe(`"'-2+3"`);
    expect(csvCell('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvCell('\t=1')).toBe(`"'\t=1"`);
    // Only the first character counts.
    expect(csvCell('a=b')).toBe('"a=b"');
    expect(csvCell('jean@exemple.fr')).toBe('"jean@exemple.fr"');
  });

  it('writes null and undefined as empty fields, numbers and booleans as text', () => {
    expect(csvCell(null)).toBe('""');
    expect(csvCell(undefined)).toBe('""');
    expect(csvCell(12.5)).toBe('"12.5"');
    expect(csvCell(false)).toBe('"false"');
  });

  it('neutralises negative numbers too (a cell is text once written)', () => {
    expect(csvCell(-3)).toBe(`"'-3"`);
  });
});

describe('toCsv', () => {
  it('starts with a UTF-8 BOM, separates with semicolons and ends lines with CRLF', () => {
    const csv = toCsv([
      ['Prénom', 'Nom'],
      ['Zoé', 'Lefèvre; "Zozo"'],
    ]);
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(csv).toBe(`${CSV_BOM}"Prénom";"Nom"\r\n"Zoé";"Lefèvre; ""Zozo"""\r\n`);
    // The BOM encodes as EF BB BF.
    expect([...new TextEncoder().encode(csv).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('gives just the BOM and a line end for no rows', () => {
    expect(toCsv([])).toBe(`${CSV_BOM}\r\n`);
  });
});

describe('downloadCsv', () => {
  afterEach(() => vi.restoreAllMocks());

  it('downloads a blob under a safe file name', async () => {
    let blob: Blob | undefined;
    const create = vi.fn((b: Blob) => {
      blob = b;
      return 'blob:x';
    });
    Object.assign(URL, { createObjectURL: create, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('Stage d’été 2026_members.csv');
      expect(this.href).toBe('blob:x');
    });
    downloadCsv('Stage d’été 2026_members.csv', [['a']]);
    expect(click).toHaveBeenCalledOnce();
    expect(blob?.type).toBe('text/csv;charset=utf-8');
    // Read the bytes: Blob.text() would strip the BOM while decoding.
    const bytes = new Uint8Array(await blob!.arrayBuffer());
    expect([...bytes]).toEqual([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('"a"\r\n')]);
  });

  it('replaces characters that file systems refuse', () => {
    expect(safeFileName('3e/4e: "A"?_members.csv')).toBe('3e_4e_ _A__members.csv');
  });
});
