import { CELL_NONE, CELL_UNGRADED, cellValue } from '@olympe/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, chapters, exercises } from '../src/db/schema.js';
import { CELL_SEPARATOR, cellsToData } from '../src/grading/table-cells.js';
import { buildTestApp, createUser, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

/**
 * The cell rule of the table query (grading/service.ts) is written for speed: constants for '?' and
 * ' ', btrim only when the answer starts with a space. These cases pin it to `cellValue` with
 * "answered" meaning "something left after trimming spaces", as the query had it before.
 */
describe('GET /answer/table/{id}: the cell rule', () => {
  const cases: Array<{ answer: string; grade: string | null }> = [
    { answer: '', grade: null },
    { answer: ' ', grade: null },
    { answer: '   ', grade: null },
    { answer: ' 5', grade: null },
    { answer: '5 ', grade: null },
    { answer: '\t', grade: null },
    { answer: 'é', grade: null },
    { answer: '  é  ', grade: null },
    { answer: '7', grade: '' },
    { answer: '', grade: '' },
    { answer: '   ', grade: '' },
    { answer: '', grade: '3' },
    { answer: '  ', grade: 'X' },
    { answer: '7', grade: '1:2' },
    { answer: '7', grade: 'a "quoted" \\ grade' },
    { answer: 'pdfs/00000000-0000-4000-8000-000000000001.pdf', grade: '12.25' },
  ];

  it('gives the value of cellValue for blank, spaced, accented and graded answers, on both databases', async () => {
    const db = t.database.db;
    const [chapter] = await db.insert(chapters).values({ title: 'Règle des cellules' }).returning();
    const [e0, e1] = await db
      .insert(exercises)
      .values([
        { chapterId: chapter.id, position: 0, title: 'Un', answerFormat: 'numeric' },
        { chapterId: chapter.id, position: 1, title: 'Deux', answerFormat: 'pdf' },
      ])
      .returning();
    const member = await createUser(t, 'member');
    const pupils = [];
    for (const [k, c] of cases.entries()) {
      const p = await createUser(t, 'pupil', { firstName: null, lastName: `Cas ${String(k).padStart(2, '0')}` });
      await db.insert(answers).values({ userId: p.id, exerciseId: e1.id, answer: c.answer, grade: c.grade, seq: 1 });
      pupils.push(p);
    }
    const res = await t.app.inject({ method: 'GET', url: `/api/answer/table/${chapter.id}`, headers: member.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(res.body);
    expect(body.exercises.map((e: { _id: string }) => e._id)).toEqual([e0.id, e1.id]);
    expect(Object.keys(body.users)).toEqual(pupils.map((p) => p.id));
    for (const [k, c] of cases.entries()) {
      const expected = cellValue({ answered: c.answer.replace(/^ +| +$/g, '') !== '', grade: c.grade });
      expect({ k, data: body.users[pupils[k].id].data }).toEqual({ k, data: [CELL_NONE, expected] });
      expect(body.users[pupils[k].id].firstName).toBeNull();
    }
  });
});

describe('cellsToData', () => {
  const pack = (...cells: string[]) => cells.join(CELL_SEPARATOR);

  it('blanks every exercise without cells', () => {
    expect(cellsToData(null, 3)).toEqual([' ', ' ', ' ']);
    expect(cellsToData('', 2)).toEqual([' ', ' ']);
  });

  it('places each value at its index, whatever the order, and keeps colons in values', () => {
    expect(cellsToData(pack('2:X', '0:?', '1: '), 4)).toEqual(['?', ' ', 'X', ' ']);
    expect(cellsToData(pack('11:1:2', '10:3,5', '3:'), 12)).toEqual([' ', ' ', ' ', '', ' ', ' ', ' ', ' ', ' ', ' ', '3,5', '1:2']);
    expect(cellsToData(pack(`0:${CELL_UNGRADED}`), 1)).toEqual([CELL_UNGRADED]);
  });

  it('ignores out-of-range and malformed entries', () => {
    expect(cellsToData(pack('7:4', '1:2'), 2)).toEqual([' ', '2']);
    expect(cellsToData(pack('x:4', ':5', '1', '12345678901234567890:1', '0:ok'), 2)).toEqual(['ok', ' ']);
    expect(cellsToData(pack('', '1:b', ''), 2)).toEqual([' ', 'b']);
  });
});
