import { PDFDocument } from '@cantoo/pdf-lib';
import jpeg from 'jpeg-js';
import { createHash, randomUUID } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import {
  accessGroups,
  answers,
  centerRegistrations,
  centers,
  chapterSessions,
  chapters,
  commentBank,
  exercises,
  familyAddresses,
  groupMembers,
  groups,
  institutions,
  statementVersions,
  regradeRequests,
  selectionCategories,
  selections,
  unlabeledAnswers,
} from '../src/db/schema.js';
import { selectionOutcomes, selectionVersions } from '../src/db/schema.js';
import { createSession } from '../src/auth/sessions.js';
import { unsubscribeUrl } from '../src/mail/unsubscribe.js';
import { boardKeys } from '../src/selections/keys.js';
import { createUser, inject, lastLinkTo, PASSWORD, PUPIL_PROFILE, tokenOf, type TestApp } from './helpers.js';

/**
 * The permission matrix (docs/product.md#design-3 "Who may call what", docs/product.md#style (§3) "the permission tests read the
 * same table"): for every API route, what each kind of caller gets. permission-matrix.test.ts walks
 * it against a seeded database and fails on any route of the app missing here; bad-input.test.ts
 * derives its sweep from the same rows.
 *
 * Adding a route = adding one `r(...)` line: the route as Fastify names it, the URL to call with
 * `{fixture}` placeholders, the seven expectations, and a body when it takes one.
 */

/** JWT_SECRET of buildTestApp: the unsubscribe links are signed with it. */
const MATRIX_SECRET = 'test-secret-test-secret-test-secret';

/** The confirmation token of the pupil's family address (decision 134); the seed stores its hash. */
const MATRIX_FAMILY_TOKEN = 'matrix-family-address-token-0123456789';

/** Who calls, in the order of the expectation columns. */
export const CALLERS = ['anonymous', 'pupil', 'otherPupil', 'teacher', 'otherTeacher', 'member', 'admin'] as const;
export type Caller = (typeof CALLERS)[number];

/** 'ok' is any 2xx; a number is that exact status. */
export type Expectation = 'ok' | number;

/**
 * What the seed creates, by placeholder name. `pupil` (complete profile, school A) owns the answers,
 * the uploaded PDF, the centre registration and the proposed school; `otherPupil` (school B, no
 * access to the timed chapter) acts on the pupil's ids; `teacher` is staff of school A,
 * `otherTeacher` of school B.
 */
export interface Fixture {
  ids: Record<string, string>;
  headers: Record<Caller, Record<string, string>>;
  userIds: Record<Exclude<Caller, 'anonymous'>, string>;
  emails: Record<Exclude<Caller, 'anonymous'>, string>;
  /** One unused set-password token per caller (POST /auth/confirm is single use). */
  confirmTokens: Record<Caller, string>;
  /** One scanned PDF per staff caller, uploaded and not filed yet (POST /answer/unlabeled is once per file). */
  scans: Record<'teacher' | 'member' | 'admin', string>;
  pdfBytes: Buffer;
  /** A small JPEG photo of a page (POST /pdfs/photos, decision 140). */
  photoBytes: Buffer;
  /** A user's current answer to an exercise (placeholder names) and the grade_timestamp a corrector sends back. */
  currentAnswerOf(user: string, exercise: string): Promise<{ id: string; gradeTimestamp: string | null }>;
}

/** A multipart/form-data body (POST /pdfs; POST /pdfs/photos sends its files as `photos`, images). */
export class Multipart {
  constructor(
    readonly fields: Record<string, string>,
    readonly file?: { name: string; bytes: Buffer; field?: string; type?: string },
  ) {}

  encode(): { payload: Buffer; contentType: string } {
    const boundary = `----olympe${Math.random().toString(16).slice(2)}`;
    const chunks: Buffer[] = [];
    for (const [name, value] of Object.entries(this.fields)) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    }
    if (this.file) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${this.file.field ?? 'file'}"; filename="${this.file.name}"\r\n` +
            `Content-Type: ${this.file.type ?? 'application/pdf'}\r\n\r\n`,
        ),
        this.file.bytes,
        Buffer.from('\r\n'),
      );
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
  }
}

/** A request of the tus protocol (resumable uploads, decision 91): its own headers and raw bytes. */
export class TusRequest {
  constructor(
    readonly headers: Record<string, string>,
    readonly bytes?: Buffer,
  ) {}
}

/** The Upload-Metadata header of a tus creation (values in base64). */
export const tusMetadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value, 'utf8').toString('base64')}`)
    .join(',');

export type BodyValue = unknown;
export type Body = BodyValue | ((f: Fixture, caller: Caller) => BodyValue | Promise<BodyValue>);

export interface MatrixRow {
  /** Method and URL pattern as Fastify registered them, e.g. 'GET /api/chapter/:id'. */
  route: string;
  method: string;
  /** URL to call; `{name}` is replaced by `fixture.ids[name]`. A function when it depends on the caller. */
  url: string | ((f: Fixture, caller: Caller) => string);
  expect: Record<Caller, Expectation>;
  body?: Body;
}

function r(route: string, url: MatrixRow['url'], expect: string, body?: Body): MatrixRow {
  const cols = expect.trim().split(/\s+/);
  if (cols.length !== CALLERS.length) throw new Error(`${route}: ${cols.length} expectations for ${CALLERS.length} callers`);
  const parsed = cols.map((c) => (c === 'ok' ? 'ok' : Number(c)));
  if (parsed.some((c) => c !== 'ok' && !Number.isInteger(c))) throw new Error(`${route}: bad expectation "${expect}"`);
  return {
    route,
    method: route.split(' ')[0],
    url,
    expect: Object.fromEntries(CALLERS.map((c, i) => [c, parsed[i]])) as Record<Caller, Expectation>,
    body,
  };
}

/** Grades the pupil's current answer to an exercise, from its current version (no conflict). */
const grade = (exercise: string) => async (f: Fixture) => {
  const current = await f.currentAnswerOf('pupil', exercise);
  return { answerId: current.id, grade: '1', grade_comment: 'Bien', hidden: false, expectedGradeTimestamp: current.gradeTimestamp };
};

// Columns:                                                                  anon pupil other teach oTeach member admin
/** Every route of the API. Rows that delete use entities nothing else uses; the admin column runs last. */
export const MATRIX: MatrixRow[] = [
  // Public
  r('GET /api/health', '/api/health', 'ok ok ok ok ok ok ok'),
  r('GET /api/config', '/api/config', 'ok ok ok ok ok ok ok'),
  r('GET /api/docs', '/api/docs', 'ok ok ok ok ok ok ok'),
  r('GET /api/metrics', '/api/metrics', '401 403 403 403 403 403 ok'),
  // Accounts
  r('POST /api/auth/register', '/api/auth/register', 'ok ok ok ok ok ok ok', (_f: Fixture, c: Caller) => ({
    email: `inscription-${c.toLowerCase()}@exemple.fr`,
  })),
  // Checked before the confirm row uses the same tokens: the check does not use them up.
  r(
    'GET /api/auth/link/:token',
    (f: Fixture, c: Caller) => `/api/auth/link/${encodeURIComponent(f.confirmTokens[c])}`,
    'ok ok ok ok ok ok ok',
  ),
  r('POST /api/auth/confirm', '/api/auth/confirm', 'ok ok ok ok ok ok ok', (f: Fixture, c: Caller) => ({
    token: f.confirmTokens[c],
    password: PASSWORD,
  })),
  r('POST /api/auth/login', '/api/auth/login', 'ok ok ok ok ok ok ok', (f: Fixture) => ({ email: f.emails.pupil, password: PASSWORD })),
  r('PUT /api/auth/me', '/api/auth/me', '401 ok ok ok ok ok ok', {}),
  // Decision 136: whoever holds a live session's refresh token gets an access token of that session (the pupil's here).
  r('POST /api/auth/refresh', '/api/auth/refresh', 'ok ok ok ok ok ok ok', { refreshToken: '{refreshToken}' }),
  // Staff import into their own school (no field), admins name one; every caller's file is its own pupil.
  r(
    'POST /api/users/import',
    '/api/users/import',
    '401 403 403 ok ok 403 ok',
    (f: Fixture, c: Caller) =>
      new Multipart(c === 'admin' ? { institution: f.ids.schoolA } : {}, {
        name: 'eleves.csv',
        bytes: Buffer.from(
          `E-mail;Prénom;Nom;Date de naissance;Classe;Genre\nimport-${c.toLowerCase()}@exemple.fr;Ada;Lovelace;10/12/2011;3e;F\n`,
        ),
      }),
  ),
  r('GET /api/user/:uid', '/api/user/{pupil}', '401 ok 403 403 403 403 ok'),
  r('PUT /api/user/:uid/extra-time', '/api/user/{victim}/extra-time', '401 403 403 403 403 403 ok', { percent: 33 }),
  r('POST /api/user/logto', '/api/user/logto', '401 403 403 403 403 403 ok', { uid: '{pupil}' }),
  r('GET /api/user/:uid/export', '/api/user/{pupil}/export', '401 403 403 403 403 403 ok'),
  r('POST /api/user/:uid/anonymise', '/api/user/{victim}/anonymise', '401 403 403 403 403 403 ok'),
  // Groups
  r('GET /api/group', '/api/group', '401 ok ok ok ok ok ok'),
  r('POST /api/group', '/api/group', '401 403 403 403 403 403 ok', { name: 'Groupe de la matrice' }),
  r('GET /api/group/:id', '/api/group/{group}', '401 403 403 403 403 403 ok'),
  r('PATCH /api/group/:id', '/api/group/{group}', '401 403 403 403 403 403 ok', { name: 'Groupe renommé' }),
  r('DELETE /api/group/:id', '/api/group/{groupToDelete}', '401 403 403 403 403 403 ok'),
  // Institutions
  r('GET /api/institution', '/api/institution', '401 ok ok ok ok ok ok'),
  r('GET /api/institution/search', '/api/institution/search?q=lyon', '401 ok ok ok ok ok ok'),
  r('GET /api/institution/in-view', '/api/institution/in-view?south=41&west=-5.5&north=51.5&east=10&zoom=5', '401 ok ok ok ok ok ok'),
  // One school: the pupil's own proposal, still pending, is theirs and the admins' only (decision 29).
  r('GET /api/institution/:id', '/api/institution/{proposed}', '401 ok 404 404 404 404 ok'),
  // The matrix app has no GEOCODER_URL: signed in, the route says the search is off (geocode.test.ts turns it on).
  r('GET /api/institution/geocode', '/api/institution/geocode?q=rue%20de%20Rivoli', '401 404 404 404 404 404 404'),
  r('POST /api/institution', '/api/institution', '401 ok ok ok ok ok ok', { name: 'Lycée proposé', latitude: 45.76, longitude: 4.83 }),
  r('PATCH /api/institution/:id', '/api/institution/{proposed}', '401 ok 403 403 403 403 ok', { address: '1 rue des Écoles' }),
  r('DELETE /api/institution/:id', '/api/institution/{institutionToDelete}', '401 403 403 403 403 403 ok'),
  // Chapters and exercises
  r('GET /api/chapter', '/api/chapter', '401 ok ok ok ok ok ok'),
  r('POST /api/chapter', '/api/chapter', '401 403 403 403 403 403 ok', { title: 'Chapitre de la matrice' }),
  r('GET /api/chapter/:id', '/api/chapter/{timed}', '401 ok 403 403 403 ok ok'),
  r('PATCH /api/chapter/:id', '/api/chapter/{timed}', '401 403 403 403 403 403 ok', { headerStudents: 'Bonne chance' }),
  r('DELETE /api/chapter/:id', '/api/chapter/{chapterToDelete}', '401 403 403 403 403 403 ok'),
  r('POST /api/chapter/:id/restore', '/api/chapter/{chapterInBin}/restore', '401 403 403 403 403 403 ok'),
  r('GET /api/bin', '/api/bin', '401 403 403 403 403 403 ok'),
  r('GET /api/chapter/:id/live', '/api/chapter/{timed}/live', '401 403 403 403 403 403 ok'),
  r('GET /api/exos/raw/:chapterId', '/api/exos/raw/{timed}', '401 403 403 403 403 403 ok'),
  r('GET /api/exos/chapter/:id', '/api/exos/chapter/{timed}', '401 ok 403 403 403 ok ok'),
  r('GET /api/exos/latex/:chapterId', '/api/exos/latex/{timed}', '401 403 403 403 403 403 ok'),
  r('GET /api/exos/:id', '/api/exos/{numeric}', '401 ok 403 403 403 ok ok'),
  r('POST /api/exos', '/api/exos', '401 403 403 403 403 403 ok', { chapter: '{timed}', title: 'Exercice ajouté' }),
  r('PATCH /api/exos/:id', '/api/exos/{numeric}', '401 403 403 403 403 403 ok', { title: 'Somme des angles' }),
  r('DELETE /api/exos/:id', '/api/exos/{exerciseToDelete}', '401 403 403 403 403 403 ok'),
  r('POST /api/exos/:id/restore', '/api/exos/{exerciseInBin}/restore', '401 403 403 403 403 403 ok'),
  // Decision 160: the comment bank, read and added to by the exercise's correctors, curated by admins.
  r('GET /api/exos/:id/comments', '/api/exos/{pdf}/comments', '401 403 403 403 403 ok ok'),
  r('POST /api/exos/:id/comments', '/api/exos/{pdf}/comments', '401 403 403 403 403 ok ok', { text: 'Justifiez chaque étape.' }),
  r('PATCH /api/exos/:id/comments/:commentId', '/api/exos/{pdf}/comments/{remarkToEdit}', '401 403 403 403 403 403 ok', { position: 0 }),
  r('DELETE /api/exos/:id/comments/:commentId', '/api/exos/{pdf}/comments/{remarkToArchive}', '401 403 403 403 403 403 ok'),
  // Decision 161: what a change of the scheme's points would do to the grades given.
  r('POST /api/exos/:id/scheme/preview', '/api/exos/{pdf}/scheme/preview', '401 403 403 403 403 403 ok', { schemeItems: [] }),
  // Regrade requests (decision 74): the pupil asks about their own answer; correctors answer one request each.
  r('POST /api/regrade', '/api/regrade', '401 ok 403 403 403 403 403', {
    answerId: '{regradableAnswer}',
    message: 'Merci de revoir ma copie.',
  }),
  r('GET /api/regrade/mine/:chapterId', '/api/regrade/mine/{published}', '401 ok ok ok ok ok ok'),
  r('GET /api/regrade', '/api/regrade?chapter={published}', '401 403 403 403 403 ok ok'),
  r(
    'POST /api/regrade/:id/accept',
    (_f: Fixture, c: Caller) => `/api/regrade/${c === 'admin' ? '{requestForAdmin}' : '{requestForMember}'}/accept`,
    '401 403 403 403 403 ok ok',
    { grade: '1', reply: 'Accepté.' },
  ),
  r(
    'POST /api/regrade/:id/decline',
    (_f: Fixture, c: Caller) => `/api/regrade/${c === 'admin' ? '{declineForAdmin}' : '{declineForMember}'}/decline`,
    '401 403 403 403 403 ok ok',
    { reply: 'Refusé.' },
  ),
  r('PUT /api/regrade/window/:chapterId', '/api/regrade/window/{published}', '401 403 403 403 403 403 ok', {
    regradeUntil: '2099-01-01T12:00:00+01:00',
  }),
  // Statistics and errata (decision 75)
  r('GET /api/stats/:chapterId', '/api/stats/{published}', '401 403 403 403 403 ok ok'),
  r('POST /api/stats/:chapterId/errata', '/api/stats/{published}/errata', '401 403 403 403 403 403 ok', {
    exerciseId: '{publishedExercise}',
    version: 0,
    answer: '2',
  }),
  // Taking a chapter
  r('GET /api/chapter/start/:id', '/api/chapter/start/{timed}', '401 ok 403 403 403 ok ok'),
  r('POST /api/chapter/start/:id', '/api/chapter/start/{timed}', '401 ok 403 403 403 ok ok'),
  r('POST /api/chapter/:id/extension', '/api/chapter/{timed}/extension', '401 403 403 403 403 403 ok', {
    user: '{pupil}',
    minutes: 5,
    reason: 'Panne de courant',
  }),
  // Their own throwaway chapters: finishing the matrix's timed chapter would end the pupil's test for the rows below.
  r('POST /api/chapter/finish/:id', '/api/chapter/finish/{finishable}', '401 ok 403 403 403 403 403'),
  r('GET /api/chapter/receipt/:id', '/api/chapter/receipt/{ended}?user={pupil}', '401 ok 403 403 403 ok ok'),
  r('POST /api/chapter/event/:chapterId', '/api/chapter/event/{timed}', '401 ok 403 403 403 ok ok', { eventType: 'blur' }),
  r('POST /api/answer', '/api/answer', '401 ok 403 403 403 ok ok', { exerciseId: '{numeric}', answer: '42' }),
  r('GET /api/answer/chapter/:id', '/api/answer/chapter/{timed}', '401 ok 403 403 403 ok ok'),
  r(
    'POST /api/pdfs',
    '/api/pdfs',
    '401 ok 403 403 403 ok ok',
    (f: Fixture) => new Multipart({ exercise: f.ids.pdf }, { name: 'copie.pdf', bytes: f.pdfBytes }),
  ),
  // Decision 140: photos of a proof, made into one PDF; the same callers as POST /pdfs.
  r(
    'POST /api/pdfs/photos',
    '/api/pdfs/photos',
    '401 ok 403 403 403 ok ok',
    (f: Fixture) => new Multipart({ exercise: f.ids.pdf }, { name: 'photo.jpg', bytes: f.photoBytes, field: 'photos', type: 'image/jpeg' }),
  ),
  r('GET /api/pdfs/:file', '/api/pdfs/{pupilFile}.pdf', '401 ok 403 ok 403 ok ok'),
  r('GET /api/pdfs/:file/link', '/api/pdfs/{pupilFile}.pdf/link', '401 ok 403 ok 403 ok ok'),
  // Resumable uploads (decision 91): a scan of the paper chapter, as POST /pdfs allows it; an upload is
  // its creator's alone (the teacher's here), anyone else's call is answered as if it did not exist.
  r(
    'POST /api/uploads',
    '/api/uploads',
    '401 403 403 ok ok ok ok',
    (f: Fixture) =>
      new TusRequest({
        'tus-resumable': '1.0.0',
        'upload-length': '1000',
        'upload-metadata': tusMetadata({ chapter: f.ids.paper, filename: 'scan.pdf' }),
      }),
  ),
  r(
    'HEAD /api/uploads/:id',
    '/api/uploads/{teacherUpload}',
    '401 404 404 ok 404 404 404',
    () => new TusRequest({ 'tus-resumable': '1.0.0' }),
  ),
  r(
    'PATCH /api/uploads/:id',
    '/api/uploads/{teacherUpload}',
    '401 404 404 ok 404 404 404',
    () =>
      new TusRequest(
        { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        Buffer.alloc(10, 37),
      ),
  ),
  r(
    'DELETE /api/uploads/:id',
    '/api/uploads/{teacherUploadToCancel}',
    '401 404 404 ok 404 404 404',
    () => new TusRequest({ 'tus-resumable': '1.0.0' }),
  ),
  // Grading
  r('GET /api/answer/table/:id', '/api/answer/table/{timed}', '401 403 403 403 403 ok ok'),
  r('GET /api/answer/select/:exerciseId', '/api/answer/select/{pdf}', '401 403 403 403 403 ok ok'),
  r('POST /api/answer/auto/:chapterId', '/api/answer/auto/{timed}', '401 403 403 403 403 403 ok'),
  r('GET /api/answer/history/:uid/:eid', '/api/answer/history/{pupil}/{numeric}', '401 ok 403 403 403 ok ok'),
  r('POST /api/answer/grade', '/api/answer/grade', '401 403 403 403 403 ok ok', grade('pdf')),
  r('POST /api/answer/grade/', '/api/answer/grade/', '401 403 403 403 403 ok ok', grade('numeric')),
  r('GET /api/answer/overview/:chapterId', '/api/answer/overview/{timed}', '401 403 403 403 403 ok ok'),
  // Decision 139: the « pages ajoutées après la note » notice, dismissed by a corrector (idempotent).
  r('DELETE /api/answer/pages-added/:answerId', '/api/answer/pages-added/{pupilNumericAnswer}', '401 403 403 403 403 ok ok'),
  // Decisions 63 and 64: arbitration list (admins), assignment of exercises to correctors (read: staff who grade; write: admins).
  r('GET /api/answer/arbitration/:chapterId', '/api/answer/arbitration/{timed}', '401 403 403 403 403 403 ok'),
  r('GET /api/chapter/:id/assignments', '/api/chapter/{timed}/assignments', '401 403 403 403 403 ok ok'),
  r('PUT /api/chapter/:id/assignments', '/api/chapter/{timed}/assignments', '401 403 403 403 403 403 ok', { assignments: [] }),
  // Paper chapters: centres and scanned copies
  r('GET /api/center/institutions/:chapterId', '/api/center/institutions/{paper}', '401 ok ok ok ok ok ok'),
  r('GET /api/center/user/:chapterId', '/api/center/user/{paper}', '401 ok ok ok ok ok ok'),
  r('PATCH /api/center/user/:chapterId', '/api/center/user/{paper}', '401 ok ok 403 403 403 ok', { institution: '{schoolA}' }),
  r('POST /api/center/refuse/:chapterId', '/api/center/refuse/{paper}', '401 403 403 ok 403 403 ok', (f: Fixture, caller: Caller) => ({
    user: f.ids[`claimant_${caller}`],
    institution: f.ids.schoolA,
  })),
  r('GET /api/center/users/:chapterId', '/api/center/users/{paper}?institution={schoolA}', '401 403 403 ok 403 403 ok'),
  r('GET /api/center/overview/:chapterId', '/api/center/overview/{paper}', '401 403 403 403 403 403 ok'),
  r('GET /api/center/:chapterId', '/api/center/{paper}?institution={schoolA}', '401 403 403 ok 403 403 ok'),
  r('PATCH /api/center/:chapterId', '/api/center/{paper}', '401 403 403 ok 403 403 ok', {
    institution: '{schoolA}',
    instructions: 'Salle 12',
  }),
  // The exam day (decision 59): a pupil gets their own convocation whatever the query (otherPupil registered
  // through PATCH /center/user above), the centre's staff all of it; the member is registered nowhere.
  r('GET /api/center/convocation/:chapterId.pdf', '/api/center/convocation/{paper}.pdf?institution={schoolA}', '401 ok ok ok 403 404 ok'),
  r(
    'GET /api/center/attendance-sheet/:chapterId.pdf',
    '/api/center/attendance-sheet/{paper}.pdf?institution={schoolA}',
    '401 403 403 ok 403 403 ok',
  ),
  r('GET /api/center/registered/:chapterId.xlsx', '/api/center/registered/{paper}.xlsx?institution={schoolA}', '401 403 403 ok 403 403 ok'),
  r('GET /api/center/overview/:chapterId/centres.xlsx', '/api/center/overview/{paper}/centres.xlsx', '401 403 403 403 403 403 ok'),
  r(
    'PUT /api/center/attendance/:chapterId',
    '/api/center/attendance/{paper}?institution={schoolA}',
    '401 403 403 ok 403 403 ok',
    (f: Fixture) => [{ user: f.userIds.pupil, present: true }],
  ),
  // One-click unsubscribe works without login (RFC 8058): the link's HMAC is the only key.
  r('GET /api/mail/unsubscribe', (f: Fixture) => unsubscribeUrl('', MATRIX_SECRET, f.userIds.otherPupil), 'ok ok ok ok ok ok ok'),
  r('POST /api/mail/unsubscribe', (f: Fixture) => unsubscribeUrl('', MATRIX_SECRET, f.userIds.otherPupil), 'ok ok ok ok ok ok ok', {}),
  // Decision 134: a family address's confirmation link works without login; its token is the only key.
  r('GET /api/mail/confirm-address', `/api/mail/confirm-address?t=${MATRIX_FAMILY_TOKEN}`, 'ok ok ok ok ok ok ok'),
  r('POST /api/mail/confirm-address', `/api/mail/confirm-address?t=${MATRIX_FAMILY_TOKEN}`, 'ok ok ok ok ok ok ok', {}),
  r('GET /api/mail/stats', '/api/mail/stats', '401 403 403 403 403 403 ok'),
  r('GET /api/answer/unlabeled/stats/:id', '/api/answer/unlabeled/stats/{paper}', '401 403 403 403 403 ok ok'),
  r('GET /api/answer/unlabeled/:chapterId', '/api/answer/unlabeled/{paper}', '401 403 403 ok ok ok ok'),
  // otherTeacher tries to file the teacher's scan: refused.
  r('POST /api/answer/unlabeled/:chapterId', '/api/answer/unlabeled/{paper}', '401 403 403 ok 403 ok ok', (f: Fixture, c: Caller) => ({
    answer: c === 'member' || c === 'admin' ? f.scans[c] : f.scans.teacher,
  })),
  r('GET /api/sheets/:chapterId.pdf', '/api/sheets/{paper}.pdf?institution={schoolA}', '401 403 403 ok 403 403 ok'),
  r('GET /api/sheets/:chapterId/blank.pdf', '/api/sheets/{paper}/blank.pdf', '401 403 403 ok ok 403 ok'),
  r('GET /api/sheets/:chapterId/link', '/api/sheets/{paper}/link?institution={schoolA}', '401 403 403 ok 403 403 ok'),
  // Sorting: the member holds a reserved copy; the admin labels another one (admins need no reservation).
  r('GET /api/answer/unlabeled/select/:chapterId', '/api/answer/unlabeled/select/{paper}', '401 403 403 403 403 ok ok'),
  r('GET /api/answer/unlabeled/pupils/:chapterId', '/api/answer/unlabeled/pupils/{paper}?q=Germain', '401 403 403 403 403 ok ok'),
  r(
    'POST /api/answer/label/:answerId',
    (_f: Fixture, c: Caller) => `/api/answer/label/${c === 'admin' ? '{copyForAdmin}' : '{copyForMember}'}`,
    '401 403 403 403 403 ok ok',
    [
      { pageNum: 1, exercises: ['{paperPdf}'], rotation: 0, user: '{pupil}' },
      { pageNum: 2, exercises: [], rotation: 90, user: null },
    ],
  ),
  r('GET /api/answer/analysis/:chapterId', '/api/answer/analysis/{timed}', '401 403 403 403 403 403 ok'),
  // Results (decisions 69–71): a published chapter the pupil took (graded); counts for the confirmation dialogs.
  r('GET /api/answer/auto/:chapterId/count', '/api/answer/auto/{timed}/count', '401 403 403 403 403 403 ok'),
  r('GET /api/results/:chapterId', '/api/results/{published}', '401 ok ok ok ok ok ok'),
  r('GET /api/results/:chapterId/preview/:userId', '/api/results/{published}/preview/{pupil}', '401 403 403 403 403 403 ok'),
  r('GET /api/results/:chapterId/publication', '/api/results/{published}/publication', '401 403 403 403 403 403 ok'),
  r('PUT /api/results/:chapterId/publication', '/api/results/{published}/publication', '401 403 403 403 403 403 ok', {
    mode: 'now',
    showRank: true,
  }),
  r('GET /api/results/:chapterId/institution', '/api/results/{published}/institution?institution={schoolA}', '401 403 403 ok 403 403 ok'),
  r(
    'GET /api/results/:chapterId/institution.xlsx',
    '/api/results/{published}/institution.xlsx?institution={schoolA}',
    '401 403 403 ok 403 403 ok',
  ),
  r('GET /api/results/:chapterId/grades.xlsx', '/api/results/{published}/grades.xlsx', '401 403 403 403 403 403 ok'),
  r('GET /api/results/:chapterId/certificate.pdf', '/api/results/{published}/certificate.pdf?user={pupil}', '401 ok 403 403 403 403 ok'),
  // Decision 162: the corrected copies returned (the published chapter returns them), and a school's ZIP of them.
  r('GET /api/results/:chapterId/copies', '/api/results/{published}/copies?user={pupil}', '401 ok 403 403 403 403 ok'),
  r(
    'GET /api/results/:chapterId/copies/:file',
    '/api/results/{published}/copies/{publishedExercise}.pdf?user={pupil}',
    '401 ok 403 403 403 403 ok',
  ),
  r('GET /api/results/:chapterId/copies.zip', '/api/results/{published}/copies.zip?institution={schoolA}', '401 403 403 ok 403 403 ok'),
  r('GET /api/results/:chapterId/certificates.zip', '/api/results/{published}/certificates.zip', '401 403 403 403 403 403 ok'),
  r('GET /api/results/impact/chapter/:id', '/api/results/impact/chapter/{published}', '401 403 403 403 403 403 ok'),
  r('GET /api/results/impact/exercise/:id', '/api/results/impact/exercise/{publishedExercise}', '401 403 403 403 403 403 ok'),
  r('GET /api/results/impact/group/:id', '/api/results/impact/group/{group}', '401 403 403 403 403 403 ok'),
  // Selections after the decision (decision 157): a pupil's own line, their letter, a school's qualified, exports.
  r('GET /api/selection/mine', '/api/selection/mine', '401 ok ok ok ok ok ok'),
  r('GET /api/selection/published', '/api/selection/published', '401 403 403 ok ok 403 ok'),
  r('GET /api/selection/:id/letter', '/api/selection/{publishedSelection}/letter?user={pupil}', '401 ok 403 403 403 403 ok'),
  r('GET /api/selection/:id/school', '/api/selection/{publishedSelection}/school?institution={schoolA}', '401 403 403 ok 403 403 ok'),
  r(
    'GET /api/selection/:id/school.xlsx',
    '/api/selection/{publishedSelection}/school.xlsx?institution={schoolA}',
    '401 403 403 ok 403 403 ok',
  ),
  r('GET /api/selection/:id/export.xlsx', '/api/selection/{publishedSelection}/export.xlsx', '401 403 403 403 403 403 ok'),
  r('GET /api/selection/:id/figures.xlsx', '/api/selection/{publishedSelection}/figures.xlsx', '401 403 403 403 403 403 ok'),
  r('PUT /api/selection/:id/publication', '/api/selection/{publishedSelection}/publication', '401 403 403 403 403 403 ok', { mode: 'now' }),
  // Selections, the jury's routes (decision 155): the `member` caller sits on the draft selection's jury, with the right to decide.
  r('GET /api/selection', '/api/selection', '401 403 403 403 403 ok ok'),
  r('POST /api/selection', '/api/selection', '401 403 403 403 403 403 ok', {
    title: 'Sélection de la matrice',
    chapters: [{ chapterId: '{published}', weight: 1 }],
    categories: [{ name: 'Tous' }],
    nextRoundTitle: 'le tour 2',
  }),
  r('GET /api/selection/:id', '/api/selection/{selection}', '401 403 403 403 403 ok ok'),
  r('PATCH /api/selection/:id', '/api/selection/{selection}', '401 403 403 403 403 403 ok', {
    title: 'Sélection (modifiée)',
    chapters: [{ chapterId: '{published}', weight: 2 }],
    categories: [{ _id: '{selectionCategory}', name: 'Tous' }],
    nextRoundTitle: 'le tour 2',
    juryGroupId: '{juryGroup}',
    juryRight: 'decide',
  }),
  r(
    'PUT /api/selection/:id/categories/:categoryId/cutoff',
    '/api/selection/{selection}/categories/{selectionCategory}/cutoff',
    '401 403 403 403 403 ok ok',
    { cutoff: 0, atCutoff: 'include', minGirls: null, maxPerSchool: null },
  ),
  r('PUT /api/selection/:id/decision', '/api/selection/{selection}/decision', '401 403 403 403 403 ok ok', {
    categoryId: '{selectionCategory}',
    key: '{selectionPupilKey}',
    decision: 'include',
    reason: 'Matrice',
  }),
  r('GET /api/selection/:id/board', '/api/selection/{selection}/board', '401 403 403 403 403 ok ok'),
  r('POST /api/selection/:id/freeze', '/api/selection/{selection}/freeze', '401 403 403 403 403 ok ok', { reason: 'Matrice' }),
  r('GET /api/selection/:id/versions/:n/changes', '/api/selection/{selection}/versions/1/changes', '401 403 403 403 403 ok ok'),
  r('POST /api/selection/:id/reveal-names', '/api/selection/{selection}/reveal-names', '401 403 403 403 403 403 ok'),
  // Last: relabelling withdraws the pupil's PDF answers the grading rows above use.
  r('POST /api/answer/relabel', '/api/answer/relabel', '401 403 403 403 403 403 ok', { answerId: '{pupilPdfAnswer}' }),
  r('POST /api/answer/relabel/', '/api/answer/relabel/', '401 403 403 403 403 403 ok', { answerId: '{pupilPaperAnswer}' }),
  // The very last: it ends each caller's session (decision 136), so no row may come after it.
  r('POST /api/auth/logout', '/api/auth/logout', '401 ok ok ok ok ok ok', {}),
];

/** Replaces `{name}` placeholders in a URL or in the string values of a body. */
export function fill<T>(value: T, f: Fixture): T {
  if (typeof value === 'string') {
    return value.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const v = f.ids[name];
      if (v === undefined) throw new Error(`unknown fixture placeholder {${name}}`);
      return v;
    }) as T;
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, f)) as T;
  if (value && typeof value === 'object' && !(value instanceof Multipart) && !(value instanceof TusRequest) && !Buffer.isBuffer(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, f)])) as T;
  }
  return value;
}

/** The URL a caller calls on a row (placeholders filled). */
export function urlFor(row: MatrixRow, f: Fixture, caller: Caller): string {
  return fill(typeof row.url === 'function' ? row.url(f, caller) : row.url, f);
}

/** The body a caller sends on a row (placeholders filled). */
export async function bodyFor(row: MatrixRow, f: Fixture, caller: Caller): Promise<BodyValue> {
  const raw = typeof row.body === 'function' ? await (row.body as (f: Fixture, c: Caller) => unknown)(f, caller) : row.body;
  return fill(raw, f);
}

/** Sends the row's request as the caller. */
export async function callRow(t: TestApp, row: MatrixRow, f: Fixture, caller: Caller) {
  const url = urlFor(row, f, caller);
  const body = await bodyFor(row, f, caller);
  const headers = { ...f.headers[caller] };
  if (body instanceof Multipart) {
    const { payload, contentType } = body.encode();
    return inject(t, { method: row.method as 'POST', url, headers: { ...headers, 'content-type': contentType }, payload });
  }
  if (body instanceof TusRequest) {
    return inject(t, {
      method: row.method as 'POST',
      url,
      headers: { ...headers, ...body.headers },
      ...(body.bytes ? { payload: body.bytes } : {}),
    });
  }
  return inject(t, {
    method: row.method as 'GET',
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
}

export const matches = (status: number, expected: Expectation) => (expected === 'ok' ? status >= 200 && status < 300 : status === expected);

/**
 * Every /api route the app serves, as 'METHOD /api/pattern' (the HEAD twins Fastify adds to GET
 * routes left out; a HEAD of its own, as tus's, is listed), read from Fastify's own route tree:
 * hidden routes (health, docs, metrics) are listed too, unlike OpenAPI.
 */
export function listAppRoutes(tree: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const start = line.search(/[^\s│├└─]/);
    if (start < 0) continue;
    const depth = Math.floor(start / 4);
    const m = /^(\S*?)(?: \(([^)]*)\))?$/.exec(line.slice(start).trim());
    if (!m) continue;
    stack.length = depth;
    stack[depth] = m[1];
    const path = stack.join('');
    if (!m[2] || !path.startsWith('/api')) continue;
    for (const method of m[2].split(',').map((s) => s.trim())) out.push(`${method} ${path}`);
  }
  return out.filter((route) => !route.startsWith('HEAD ') || !out.includes(route.replace(/^HEAD /, 'GET '))).sort();
}

/** A PDF with its own bytes (a random title): the same scan filed twice is refused (decision 58). */
async function makePdf(pages = 1): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(randomUUID());
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]);
  return Buffer.from(await doc.save());
}

async function uploadPdf(t: TestApp, headers: Record<string, string>, fields: Record<string, string>, bytes: Buffer) {
  const { payload, contentType } = new Multipart(fields, { name: 'scan.pdf', bytes }).encode();
  const res = await inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...headers, 'content-type': contentType }, payload });
  if (res.status !== 200) throw new Error(`seed upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.path as string;
}

async function expectOk(res: Promise<{ status: number; body: any }>, what: string) {
  const r = await res;
  if (r.status >= 300) throw new Error(`seed ${what} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * Seeds the database every matrix row works on: two schools (A with an open centre), a timed
 * online chapter (numeric and pdf exercises) reserved to the pupil's gender and grade, a paper
 * chapter open to all, answers, an uploaded PDF, a filed scanned copy, a group, and throwaway
 * rows for the deleting routes.
 */
export async function seedMatrix(t: TestApp): Promise<Fixture> {
  const db = t.database.db;
  const [schoolA, schoolB, institutionToDelete] = await db
    .insert(institutions)
    .values([
      { name: 'Collège Évariste Galois', address: '1 place du Lycée, Paris', latitude: 48.85, longitude: 2.35, confirmed: true },
      { name: 'Lycée Sophie Germain', address: '2 rue des Maths, Lyon', latitude: 45.75, longitude: 4.85, confirmed: true },
      { name: 'École à supprimer', confirmed: true },
    ])
    .returning();
  const staff = { firstName: 'Ada', lastName: 'Lovelace', gender: 'female' };
  const pupil = await createUser(t, 'pupil', { ...PUPIL_PROFILE, institutionId: schoolA.id, gender: 'female', grade: '3eme' });
  const otherPupil = await createUser(t, 'pupil', {
    ...PUPIL_PROFILE,
    firstName: 'Henri',
    lastName: 'Poincaré',
    gender: 'male',
    grade: '2nde',
    birthDate: '2009-05-05',
    institutionId: schoolB.id,
  });
  const teacher = await createUser(t, 'teacher', { ...staff, gender: 'male', institutionId: schoolA.id });
  const otherTeacher = await createUser(t, 'teacher', { ...staff, gender: 'male', institutionId: schoolB.id });
  const member = await createUser(t, 'member', staff);
  const admin = await createUser(t, 'admin', staff);
  const victim = await createUser(t, 'pupil', { ...PUPIL_PROFILE, institutionId: schoolA.id });

  const [proposed] = await db
    .insert(institutions)
    .values({ name: 'École proposée', latitude: 43.6, longitude: 1.44, createdBy: pupil.id })
    .returning();

  const hour = 3600_000;
  const [timed, paper, chapterToDelete] = await db
    .insert(chapters)
    .values([{ title: 'Tour 1 (chronométré)' }, { title: 'Épreuve papier', offline: true }, { title: 'Chapitre à supprimer' }])
    .returning();
  // Two more timed chapters of the pupil's alone: one to finish, one whose hour is already over (receipt).
  const [finishable, ended] = await db
    .insert(chapters)
    .values([{ title: 'Tour à terminer' }, { title: 'Tour terminé' }])
    .returning();
  for (const chapter of [finishable, ended]) {
    await db.insert(accessGroups).values({
      chapterId: chapter.id,
      position: 0,
      authorizedGenders: ['female'],
      authorizedGrades: ['3eme'],
      timeDuration: 60,
      accessStart: new Date(Date.now() - 3 * hour),
      accessEnd: new Date(Date.now() + 24 * hour),
    });
  }
  await db.insert(chapterSessions).values({
    chapterId: ended.id,
    userId: pupil.id,
    startedAt: new Date(Date.now() - 2 * hour),
    endTime: new Date(Date.now() - hour),
    accessGender: 'female',
    accessGrade: '3eme',
  });
  await db.insert(accessGroups).values([
    {
      chapterId: timed.id,
      position: 0,
      name: 'filles de 3e',
      authorizedGenders: ['female'],
      authorizedGrades: ['3eme'],
      timeDuration: 60,
      accessStart: new Date(Date.now() - hour),
      accessEnd: new Date(Date.now() + 24 * hour),
    },
    { chapterId: paper.id, position: 0, accessStart: new Date(Date.now() - hour), accessEnd: new Date(Date.now() + 24 * hour) },
  ]);
  const [numeric, pdf, exerciseToDelete, paperPdf, exerciseInBin] = await db
    .insert(exercises)
    .values([
      { chapterId: timed.id, position: 0, title: 'Somme', answerFormat: 'numeric' },
      { chapterId: timed.id, position: 1, title: 'Preuve', answerFormat: 'pdf' },
      { chapterId: timed.id, position: 2, title: 'À supprimer', answerFormat: 'numeric' },
      { chapterId: paper.id, position: 0, title: 'Problème papier', answerFormat: 'pdf' },
      { chapterId: timed.id, position: 3, title: 'Dans la corbeille', answerFormat: 'numeric', deletedAt: new Date() },
    ])
    .returning();
  // Decision 74: a published chapter open to regrade requests, the pupil's graded answers, and open requests to answer.
  const [published] = await db
    .insert(chapters)
    .values({ title: 'Tour publié', analysis: true, copiesReturned: true, regradeUntil: new Date(Date.now() + 24 * hour) })
    .returning();
  // Open to all: the pupil's results card and certificate (results routes) come from it too.
  await db.insert(accessGroups).values({ chapterId: published.id, position: 0 });
  const publishedExercises = await db
    .insert(exercises)
    .values(
      [0, 1, 2, 3, 4].map((position) => ({ chapterId: published.id, position, title: `Publié ${position}`, answerFormat: 'numeric' })),
    )
    .returning();
  await db
    .insert(statementVersions)
    .values(publishedExercises.map((e) => ({ exerciseId: e.id, position: 0, content: 'Combien ?', answer: '1' })));
  const publishedAnswers = await db
    .insert(answers)
    .values(publishedExercises.map((e) => ({ userId: pupil.id, exerciseId: e.id, answer: '1', grade: '0', gradeTimestamp: new Date() })))
    .returning();
  const [requestForMember, requestForAdmin, declineForMember, declineForAdmin] = await db
    .insert(regradeRequests)
    .values(
      publishedAnswers
        .slice(1)
        .map((a) => ({ answerId: a.id, chapterId: published.id, exerciseId: a.exerciseId, userId: pupil.id, message: 'Revoir' })),
    )
    .returning();
  const [remarkToEdit, remarkToArchive] = await db
    .insert(commentBank)
    .values([
      { exerciseId: pdf.id, position: 0, text: 'Manque une justification.' },
      { exerciseId: pdf.id, position: 1, text: 'Figure absente.' },
    ])
    .returning();
  // Decision 73: a chapter in the bin, to restore.
  const [chapterInBin] = await db.insert(chapters).values({ title: 'Chapitre dans la corbeille', deletedAt: new Date() }).returning();
  await db.insert(statementVersions).values([
    { exerciseId: numeric.id, position: 0, content: 'Combien font $6 \\times 7$ ?', answer: '42' },
    { exerciseId: pdf.id, position: 0, content: 'Démontrer.' },
    { exerciseId: exerciseToDelete.id, position: 0, content: '…', answer: '1' },
    { exerciseId: paperPdf.id, position: 0, content: 'Sur papier.' },
  ]);
  await db.insert(centers).values({ chapterId: paper.id, institutionId: schoolA.id, opened: true, nbPlaces: 5, instructions: 'Salle 3' });
  await db.insert(centerRegistrations).values({ chapterId: paper.id, userId: pupil.id, institutionId: schoolA.id });
  // One pupil per caller who claims school A and registered at its centre: POST /center/refuse turns one away.
  const claimants: Record<string, string> = {};
  for (const caller of CALLERS) {
    const claimant = await createUser(t, 'pupil', { ...PUPIL_PROFILE, institutionId: schoolA.id });
    await db.insert(centerRegistrations).values({ chapterId: paper.id, userId: claimant.id, institutionId: schoolA.id });
    claimants[`claimant_${caller}`] = claimant.id;
  }
  const [group, groupToDelete] = await db
    .insert(groups)
    .values([{ name: 'Stage d’hiver' }, { name: 'Groupe à supprimer' }])
    .returning();
  await db.insert(groupMembers).values({ groupId: group.id, userId: pupil.id });
  // A draft selection over the published chapter (the pupil took part), its jury the `member` caller, who decides.
  const [juryGroup] = await db.insert(groups).values({ name: 'Jury de la matrice' }).returning();
  await db.insert(groupMembers).values({ groupId: juryGroup.id, userId: member.id });
  const [selection] = await db
    .insert(selections)
    .values({
      title: 'Sélection brouillon',
      chapters: [{ chapterId: published.id, weight: 1 }],
      nextRoundTitle: 'le tour 2',
      juryGroupId: juryGroup.id,
      juryRight: 'decide',
    })
    .returning();
  const [selectionCategory] = await db
    .insert(selectionCategories)
    .values({ selectionId: selection.id, position: 0, name: 'Tous', cutoff: 0, atCutoff: 'include' })
    .returning();

  // The pupil takes the timed chapter through the API: start, upload a copy, answer both exercises.
  const pdfBytes = await makePdf(2);
  await expectOk(inject(t, { method: 'POST', url: `/api/chapter/start/${timed.id}`, headers: pupil.headers }), 'start');
  await expectOk(inject(t, { method: 'POST', url: `/api/chapter/start/${finishable.id}`, headers: pupil.headers }), 'start');
  const pupilPath = await uploadPdf(t, pupil.headers, { exercise: pdf.id }, pdfBytes);
  await expectOk(
    inject(t, { method: 'POST', url: '/api/answer', headers: pupil.headers, payload: { exerciseId: numeric.id, answer: '41', seq: 1 } }),
    'answer',
  );
  await expectOk(
    inject(t, { method: 'POST', url: '/api/answer', headers: pupil.headers, payload: { exerciseId: pdf.id, answer: pupilPath, seq: 1 } }),
    'answer',
  );
  const answerOf = async (exerciseId: string) =>
    (await db.select({ id: answers.id }).from(answers).where(eq(answers.exerciseId, exerciseId)))[0].id;

  // Scanned copies: one filed (the unlabelled copy), one per staff caller left to file.
  const filed = await uploadPdf(t, teacher.headers, { chapter: paper.id }, await makePdf(2));
  await expectOk(
    inject(t, { method: 'POST', url: `/api/answer/unlabeled/${paper.id}`, headers: teacher.headers, payload: { answer: filed } }),
    'file scan',
  );
  const scans = {
    teacher: await uploadPdf(t, teacher.headers, { chapter: paper.id }, await makePdf(2)),
    member: await uploadPdf(t, member.headers, { chapter: paper.id }, await makePdf(2)),
    admin: await uploadPdf(t, admin.headers, { chapter: paper.id }, await makePdf(2)),
  };
  // Two more filed copies to label: one reserved by the member (as GET .../select would), one for the admin.
  const fileCopy = async () => {
    const path = await uploadPdf(t, teacher.headers, { chapter: paper.id }, await makePdf(2));
    const res = await inject(t, {
      method: 'POST',
      url: `/api/answer/unlabeled/${paper.id}`,
      headers: teacher.headers,
      payload: { answer: path },
    });
    return (await expectOk(Promise.resolve(res), 'file copy'))._id as string;
  };
  const copyForMember = await fileCopy();
  const copyForAdmin = await fileCopy();
  await db.update(unlabeledAnswers).set({ reservedBy: member.id, reservedAt: new Date() }).where(eq(unlabeledAnswers.id, copyForMember));
  // A sorted copy of the paper chapter (what labelling creates), for the relabel route.
  const [pupilPaperAnswer] = await db
    .insert(answers)
    .values({ userId: pupil.id, exerciseId: paperPdf.id, answer: pupilPath, fileId: pupilPath.slice(5, -4), seq: 1 })
    .returning({ id: answers.id });

  // Resumable uploads of the teacher: one receives bytes, one is cancelled.
  const createUpload = async () => {
    const res = await inject(t, {
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...teacher.headers,
        'tus-resumable': '1.0.0',
        'upload-length': '1000',
        'upload-metadata': tusMetadata({ chapter: paper.id }),
      },
    });
    if (res.status !== 201) throw new Error(`seed resumable upload failed: ${res.status} ${JSON.stringify(res.body)}`);
    return String(res.headers.location).split('/').pop()!;
  };
  const teacherUpload = await createUpload();
  const teacherUploadToCancel = await createUpload();

  await db.insert(familyAddresses).values({
    userId: pupil.id,
    address: 'parent@exemple.fr',
    tokenHash: createHash('sha256').update(MATRIX_FAMILY_TOKEN).digest('hex'),
  });

  const confirmTokens = {} as Record<Caller, string>;
  for (const caller of CALLERS) {
    const email = `confirmation-${caller.toLowerCase()}@exemple.fr`;
    await expectOk(inject(t, { method: 'POST', url: '/api/auth/register', payload: { email } }), 'register');
    confirmTokens[caller] = tokenOf(await lastLinkTo(t, email));
  }

  const users = { pupil, otherPupil, teacher, otherTeacher, member, admin };
  const ids: Record<string, string> = {
    schoolA: schoolA.id,
    schoolB: schoolB.id,
    institutionToDelete: institutionToDelete.id,
    proposed: proposed.id,
    pupil: pupil.id,
    otherPupil: otherPupil.id,
    teacher: teacher.id,
    victim: victim.id,
    refreshToken: (await createSession(t.app.deps, { userId: pupil.id, tokenVersion: 0 })).refreshToken,
    timed: timed.id,
    paper: paper.id,
    chapterToDelete: chapterToDelete.id,
    chapterInBin: chapterInBin.id,
    published: published.id,
    regradableAnswer: publishedAnswers[0].id,
    publishedExercise: publishedExercises[0].id,
    requestForMember: requestForMember.id,
    requestForAdmin: requestForAdmin.id,
    declineForMember: declineForMember.id,
    declineForAdmin: declineForAdmin.id,
    exerciseInBin: exerciseInBin.id,
    remarkToEdit: remarkToEdit.id,
    remarkToArchive: remarkToArchive.id,
    finishable: finishable.id,
    ended: ended.id,
    numeric: numeric.id,
    pdf: pdf.id,
    paperPdf: paperPdf.id,
    exerciseToDelete: exerciseToDelete.id,
    group: group.id,
    groupToDelete: groupToDelete.id,
    pupilFile: pupilPath.slice('pdfs/'.length, -'.pdf'.length),
    pupilNumericAnswer: await answerOf(numeric.id),
    pupilPdfAnswer: await answerOf(pdf.id),
    pupilPaperAnswer: pupilPaperAnswer.id,
    copyForMember,
    copyForAdmin,
    teacherUpload,
    teacherUploadToCancel,
    selection: selection.id,
    selectionCategory: selectionCategory.id,
    selectionPupilKey: boardKeys(MATRIX_SECRET, selection.id, [pupil.id]).get(pupil.id)!,
    juryGroup: juryGroup.id,
    ...claimants,
  };

  // Decision 157: a published selection with one version, the pupil qualified in it, the other pupil not.
  const [publishedSelection] = await db
    .insert(selections)
    .values({
      title: 'Sélection publiée',
      chapters: [{ chapterId: published.id, weight: 1 }],
      nextRoundTitle: 'la finale',
      publishAt: new Date(Date.now() - hour),
    })
    .returning();
  const [publishedCategory] = await db
    .insert(selectionCategories)
    .values({ selectionId: publishedSelection.id, position: 0, name: 'Collège', cutoff: 0 })
    .returning();
  const [publishedVersion] = await db
    .insert(selectionVersions)
    .values({
      selectionId: publishedSelection.id,
      number: 1,
      settings: { categories: [{ _id: publishedCategory.id, name: 'Collège', cutoff: 0 }] },
    })
    .returning();
  await db.insert(selectionOutcomes).values([
    { versionId: publishedVersion.id, userId: pupil.id, score: 1, categories: [publishedCategory.id], qualifiedIn: [publishedCategory.id] },
    { versionId: publishedVersion.id, userId: otherPupil.id, score: 0, categories: [publishedCategory.id], qualifiedIn: [] },
  ]);
  ids.publishedSelection = publishedSelection.id;

  return {
    ids,
    headers: { anonymous: {}, ...Object.fromEntries(Object.entries(users).map(([k, u]) => [k, u.headers])) } as Fixture['headers'],
    userIds: Object.fromEntries(Object.entries(users).map(([k, u]) => [k, u.id])) as Fixture['userIds'],
    emails: Object.fromEntries(Object.entries(users).map(([k, u]) => [k, u.email])) as Fixture['emails'],
    confirmTokens,
    scans,
    pdfBytes,
    photoBytes: Buffer.from(jpeg.encode({ width: 40, height: 60, data: Buffer.alloc(40 * 60 * 4, 0xff) }, 80).data),
    async currentAnswerOf(user: string, exercise: string) {
      const [row] = await db
        .select({ id: answers.id, at: answers.gradeTimestamp })
        .from(answers)
        .where(and(eq(answers.userId, ids[user]), eq(answers.exerciseId, ids[exercise]), isNull(answers.withdrawnAt)))
        .orderBy(desc(answers.seq), desc(answers.createdAt))
        .limit(1);
      if (!row) throw new Error(`no current answer of ${user} to ${exercise}`);
      return { id: row.id, gradeTimestamp: row.at ? row.at.toISOString() : null };
    },
  };
}
