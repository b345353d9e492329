import {
  sumPoints,
  type AnnotationLayer,
  type AnswerHistory,
  type BankComment,
  type ArbitrationRow,
  type Assignments,
  type Desk,
  type DoubleStatus,
  type GradeState,
  type GradingTable,
  type GradingView,
  type OverviewRow,
  type Person,
} from '@olympe/contract';
import { isChapterPublished } from '../chapters/publication.js';
import { cellsToData } from './table-cells.js';
import type {
  AnonymousCopy,
  AnswerableExercise,
  ChapterOptionsRow,
  CorrectorProgressRow,
  GradeStateRow,
  GradingRow,
  MarksRow,
  TableRow,
} from './queries.js';

/** Every response of the grading room, shaped from its rows (docs/architecture.md « Where things go »). */

/** A pupil as a grading response names them: names, or only the pseudonym. */
export function presentStudent(id: string, first: string | null, last: string | null, pseudonym: string | undefined): Person {
  return pseudonym === undefined ? { _id: id, firstName: first, lastName: last } : { _id: id, firstName: null, lastName: null, pseudonym };
}

export const presentGrading = (g: GradingRow): GradingView => ({
  grader: g.grader_id ? { _id: g.grader_id, firstName: g.first_name, lastName: g.last_name } : null,
  grade: g.grade,
  grade_comment: g.grade_comment,
  items: g.items ?? [],
  timestamp: g.timestamp,
  arbitration: g.arbitration,
});

// ---------------------------------------------------------------------------------------------
// The grading table

/** The per-corrector lines of the table, those the caller may read (canSeeCorrectorLine). */
export const presentCorrectors = (progressRows: readonly CorrectorProgressRow[]): NonNullable<GradingTable['correctors']> =>
  progressRows.map((c) => ({
    corrector: { _id: c.grader_id, firstName: c.first_name, lastName: c.last_name },
    copies: c.copies,
    meanGrade: c.mean === null ? null : Math.round(c.mean * 100) / 100,
  }));

export function presentTableHead(
  chapter: ChapterOptionsRow,
  exercises: readonly AnswerableExercise[],
): Pick<GradingTable, 'chapter' | 'exercises' | 'maxTotal'> {
  return {
    chapter: {
      _id: chapter.id,
      title: chapter.title,
      offline: chapter.offline,
      analysis: isChapterPublished({ analysis: chapter.analysis, publishAt: chapter.publish_ms }),
      anonymousGrading: chapter.anonymous_grading,
      doubleGrading: chapter.double_grading,
      gradingTolerance: chapter.grading_tolerance,
    },
    exercises: exercises.map((e) => ({ _id: e.id, title: e.title, answerFormat: e.answer_format, maxPoints: e.max_points })),
    maxTotal: sumPoints(exercises.map((e) => e.max_points)),
  };
}

/**
 * docs/product.md#spec-3 Grading table: keyed by user id (in the query's order, by last name), one value per
 * answerable exercise in exercise order, following the cell rule of `cellValue`.
 */
export function buildTableUsers(rows: readonly TableRow[], exerciseCount: number): GradingTable['users'] {
  const users: GradingTable['users'] = {};
  for (const row of rows) users[row.id] = presentTableUser(row, cellsToData(row.cells, exerciseCount));
  return users;
}

/** One pupil of the table: the row's identity fields and their cells in exercise order. */
export function presentTableUser(row: Omit<TableRow, 'cells'>, data: string[]): GradingTable['users'][string] {
  return {
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    grade: row.grade,
    gender: row.gender,
    birthDate: row.birth_date,
    data,
  };
}

/**
 * Anonymous correction: each pupil becomes their pseudonym, with no name, e-mail, gender, class or
 * birth date, and the pupils are listed in pseudonym order (last-name order would hint at names).
 */
export function anonymiseTableUsers(users: GradingTable['users'], copies: ReadonlyMap<string, AnonymousCopy>): GradingTable['users'] {
  // Numeric order (« Copie 9999 » before « Copie 10000 »), the order of a paged table (decision 83).
  const name = (id: string) => copies.get(id)?.pseudonym ?? '';
  const ids = Object.keys(users).sort((a, b) => name(a).localeCompare(name(b), 'fr', { numeric: true }) || a.localeCompare(b));
  const out: GradingTable['users'] = {};
  // Keyed by the copy's opaque id, never the pupil's (decision 128); a pupil without a copy id is left out.
  for (const id of ids) {
    const copy = copies.get(id);
    if (copy) out[copy.copyId] = anonymiseTableUser(users[id], copy.pseudonym);
  }
  return out;
}

/** One pupil of the table as a corrector of an anonymous chapter sees them. */
export function anonymiseTableUser(user: GradingTable['users'][string], pseudonym: string): GradingTable['users'][string] {
  const flags = user.pagesAdded ? { pagesAdded: user.pagesAdded } : {};
  return { firstName: null, lastName: null, email: '', grade: null, gender: null, birthDate: null, pseudonym, data: user.data, ...flags };
}

// ---------------------------------------------------------------------------------------------
// A copy and its grade block

export function presentGradeState(a: GradeStateRow): GradeState & { answerId: string } {
  return {
    answerId: a.id,
    grade: a.grade,
    grade_comment: a.grade_comment ?? '',
    hidden: a.hidden,
    grade_timestamp: a.grade_timestamp,
    grader: a.grader_id ? { _id: a.grader_id, firstName: a.grader_first, lastName: a.grader_last } : null,
  };
}

/** A remark of the comment bank (decision 160). */
export const presentBankComment = (r: { id: string; text: string; position: number; uses: number }): BankComment => ({
  _id: r.id,
  text: r.text,
  position: r.position,
  uses: r.uses,
});

/** A corrector's layer of marks as the arbiter (or, once settled, a corrector) reads it: no name under anonymous correction (decision 159). */
export const presentLayer = (m: MarksRow, label: string, anonymous: boolean): AnnotationLayer => ({
  label,
  grader: anonymous || !m.grader_id ? null : { _id: m.grader_id, firstName: m.first_name, lastName: m.last_name },
  arbitration: m.arbitration,
  annotations: m.annotations,
});

/**
 * Double correction: the grade block is what this caller's save edits — their own grading (empty
 * while they have none), the arbitration for an admin once both are in, or the settled grade, read only.
 */
export function presentDoubleState(
  current: GradeStateRow,
  gradings: readonly GradingRow[],
  role: Desk['role'],
  callerId: string,
): GradeState & { answerId: string } {
  const target =
    role === 'arbiter'
      ? gradings.find((g) => g.arbitration)
      : role === 'done'
        ? undefined
        : gradings.find((g) => !g.arbitration && g.grader_id === callerId);
  if (role === 'done') return { ...presentGradeState(current), items: [] };
  return {
    answerId: current.id,
    grade: target?.grade ?? null,
    grade_comment: target?.grade_comment ?? '',
    hidden: current.hidden,
    grade_timestamp: target?.timestamp ?? null,
    grader: target?.grader_id ? { _id: target.grader_id, firstName: target.first_name, lastName: target.last_name } : null,
    items: target?.items ?? [],
  };
}

/** What the grading context of a copy is built from (staff only): the chapter, the exercise and the pupil's version. */
export interface GradingContextInput {
  chapter: ChapterOptionsRow;
  exercise: { answer_format: string; max_points: number; scheme_items: Desk['schemeItems'] };
  version: { index: number; content: string | null; answer: string | null };
  /** Double correction: where the copy stands, the gradings this caller may see and what their save is. */
  double?: { status: DoubleStatus; gradings: readonly GradingRow[]; role: Desk['role'] };
}

/** The grading context beside one copy (`desk`): the version this pupil received and how the copy is graded. */
export function presentGradingContext({ chapter, exercise, version, double }: GradingContextInput): Desk {
  const context: Desk = {
    chapter: {
      _id: chapter.id,
      title: chapter.title,
      anonymousGrading: chapter.anonymous_grading,
      doubleGrading: chapter.double_grading,
      gradingTolerance: chapter.grading_tolerance,
    },
    statement: version.content ?? '',
    version: version.index + 1,
    expectedAnswer: exercise.answer_format === 'numeric' ? version.answer : null,
    maxPoints: exercise.max_points,
    schemeItems: exercise.scheme_items ?? [],
    role: 'single',
    items: [],
  };
  if (double) {
    context.status = double.status;
    context.gradings = double.gradings.map(presentGrading);
    context.role = double.role;
  }
  return context;
}

/** GET /answer/history/{uid}/{eid}: the copy's answers (newest first), its grade block and, for staff, its grading context. */
export function presentGradingCopy(
  head: ChapterOptionsRow & { exercise_id: string; exercise_title: string; answer_format: string },
  user: Person,
  answers: ReadonlyArray<{ id: string; answer: string; timestamp: string }>,
  result: GradeState | null,
  staff: { desk: Desk } | null,
): AnswerHistory {
  return {
    user,
    exercise: {
      _id: head.exercise_id,
      title: head.exercise_title,
      answerFormat: head.answer_format,
      chapter: head.id,
      chapterTitle: head.title,
    },
    answers: answers.map((a) => ({ _id: a.id, answer: a.answer, timestamp: a.timestamp })),
    result,
    canGrade: staff !== null,
    ...(staff ? { desk: staff.desk } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The overview and the arbitration list

/** One copy of the overview as its queries return it (`number` and `copy_id` under anonymous correction). */
export interface OverviewLine {
  id: string;
  user_id: string;
  s_first: string | null;
  s_last: string | null;
  grader_id: string | null;
  g_first: string | null;
  g_last: string | null;
  exercise_id: string;
  title: string;
  max_points: number;
  grade: string | null;
  grade_comment: string | null;
  grade_timestamp: string | null;
}

/** One overview row; `double`: its status and the gradings the caller may see (double correction). */
export function presentOverviewRow(
  r: OverviewLine,
  student: Person,
  double: { status: DoubleStatus; gradings: readonly GradingRow[] } | null,
): OverviewRow {
  const row: OverviewRow = {
    _id: r.id,
    student,
    grader: r.grader_id ? { _id: r.grader_id, firstName: r.g_first, lastName: r.g_last } : null,
    exercise: { _id: r.exercise_id, title: r.title, maxPoints: r.max_points },
    grade: r.grade,
    grade_comment: r.grade_comment,
    grade_timestamp: r.grade_timestamp,
  };
  if (double) {
    row.status = double.status;
    row.gradings = double.gradings.map(presentGrading);
  }
  return row;
}

export function presentArbitrationRow(
  w: { answer_id: string; user_id: string; exercise_id: string },
  student: { first_name: string | null; last_name: string | null } | undefined,
  exercise: AnswerableExercise,
  gradings: readonly GradingRow[],
): ArbitrationRow {
  return {
    answerId: w.answer_id,
    url: `${w.user_id}/${w.exercise_id}`,
    student: presentStudent(w.user_id, student?.first_name ?? null, student?.last_name ?? null, undefined),
    exercise: { _id: exercise.id, title: exercise.title, maxPoints: exercise.max_points },
    gradings: gradings.map(presentGrading),
  };
}

// ---------------------------------------------------------------------------------------------
// Assignments

export function presentAssignments(
  exercises: ReadonlyArray<{ id: string; title: string }>,
  assigned: ReadonlyMap<string, string[]>,
  correctors: ReadonlyArray<{ id: string; first_name: string | null; last_name: string | null }>,
): Assignments {
  return {
    exercises: exercises.map((e) => ({ _id: e.id, title: e.title, correctors: assigned.get(e.id) ?? [] })),
    correctors: correctors.map((c) => ({ _id: c.id, firstName: c.first_name, lastName: c.last_name })),
  };
}
