import { describe, expect, it } from 'vitest';
import { frenchNumber, frenchText, frenchTime, NBSP, NNBSP } from './typography.js';

describe('frenchText', () => {
  it('curls the apostrophe between letters, not the quotes around a word', () => {
    expect(frenchText("L'épreuve n'est pas encore disponible.")).toBe('L’épreuve n’est pas encore disponible.');
    expect(frenchText("aujourd'hui")).toBe('aujourd’hui');
    expect(frenchText("le mot 'code' reste")).toBe("le mot 'code' reste");
  });

  it('puts a no-break space before : and a narrow one before ; ? !', () => {
    expect(frenchText('Correction : Tour 1')).toBe(`Correction${NBSP}: Tour 1`);
    expect(frenchText('Pourquoi ? Parce que ; enfin !')).toBe(`Pourquoi${NNBSP}? Parce que${NNBSP}; enfin${NNBSP}!`);
    expect(frenchText('Attention! Note: voir')).toBe(`Attention${NNBSP}! Note${NBSP}: voir`);
  });

  it('spaces the inside of guillemets', () => {
    expect(frenchText('« Visualiser »')).toBe(`«${NNBSP}Visualiser${NNBSP}»`);
    expect(frenchText('«Visualiser»')).toBe(`«${NNBSP}Visualiser${NNBSP}»`);
  });

  it('is idempotent', () => {
    for (const s of ["L'épreuve : « fin » ? Oui !", 'Temps restant : 05:01', 'a ; b', "S'inscrire"]) {
      expect(frenchText(frenchText(s))).toBe(frenchText(s));
    }
  });

  it('leaves URLs, e-mail addresses, times, code and maths alone', () => {
    expect(frenchText('Voir https://olympe.fr/a?b=1:2 ou contact@olympe.fr')).toBe('Voir https://olympe.fr/a?b=1:2 ou contact@olympe.fr');
    expect(frenchText('Temps restant : 20:35')).toBe(`Temps restant${NBSP}: 20:35`);
    expect(frenchText('écrivez `a:b` ou $f : x$')).toBe('écrivez `a:b` ou $f : x$');
    expect(frenchText('?token=abc')).toBe('?token=abc');
  });
});

describe('frenchTime', () => {
  it('writes « 20 h 35 » with no-break spaces and no leading zero', () => {
    expect(frenchTime('20:35')).toBe(`20${NBSP}h${NBSP}35`);
    expect(frenchTime('09:05')).toBe(`9${NBSP}h${NBSP}05`);
    expect(frenchTime(new Date(2026, 4, 14, 8, 0))).toBe(`8${NBSP}h${NBSP}00`);
  });
});

describe('frenchNumber', () => {
  it('writes a decimal comma and groups thousands by a narrow no-break space', () => {
    expect(frenchNumber(0.5)).toBe('0,5');
    expect(frenchNumber(1000)).toBe(`1${NNBSP}000`);
    expect(frenchNumber(1234.5, 2)).toBe(`1${NNBSP}234,50`);
    expect(frenchNumber(-2.25, 1)).toBe('-2,3');
    expect(frenchNumber(1 / 3)).toBe('0,33');
  });
});
