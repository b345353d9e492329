import { sql } from 'drizzle-orm';
import { nameSortKey } from './name-key.js';
import {
  bigint,
  customType,
  bigserial,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
/** The chapter or the user a row belongs to: it goes with them. */
const chapterRef = () =>
  uuid('chapter_id')
    .notNull()
    .references(() => chapters.id, { onDelete: 'cascade' });
const userRef = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/** Fixed ids of rows created by migrations (docs/product.md#design-3 Roles; decision 9 home schooling). */
export const TEACHERS_GROUP_ID = '00000000-0000-4000-8000-000000000001';
export const MEMBERS_GROUP_ID = '00000000-0000-4000-8000-000000000002';
/** Also the contract's HOME_SCHOOLING_INSTITUTION_ID, which the web app offers by id. */
export const HOME_SCHOOLING_ID = '00000000-0000-4000-8000-000000000010';

export const institutions = pgTable(
  'institutions',
  {
    id: id(),
    name: text('name').notNull(),
    address: text('address').notNull().default(''),
    email: text('email'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    confirmed: boolean('confirmed').notNull().default(false),
    /** National school identifier (UAI) for rows imported from the directory. */
    uai: text('uai'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('institutions_uai_idx').on(t.uai),
    index('institutions_confirmed_idx').on(t.confirmed),
    // The maps' view (GET /institution/in-view, decision 89): a latitude range, the longitude checked in the index.
    index('institutions_position_idx').on(t.latitude, t.longitude),
  ],
);

/**
 * The words of each school's name, address (street, postcode, town) and UAI, accents and case folded:
 * the server-side school search (decision N, « School search on the server ») finds each query word as
 * the prefix of one of these through a btree, instead of scanning 70,000 schools. Kept up to date by the
 * trigger `institution_words_sync` of migration 0012_first_hour, whatever writes the school; derived,
 * so not in backups (ops/backup.ts): restoring the schools rebuilds it.
 */
export const institutionWords = pgTable(
  'institution_words',
  {
    word: text('word').notNull(),
    /** No foreign key: the trigger also deletes a school's words, and a backup restore truncates institutions alone. */
    institutionId: uuid('institution_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.word, t.institutionId] }),
    index('institution_words_prefix_idx').on(t.word.op('text_pattern_ops')),
    index('institution_words_institution_idx').on(t.institutionId),
  ],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    /** Bumped on password change: tokens carrying an older version are refused. */
    tokenVersion: integer('token_version').notNull().default(0),
    emailStudent: text('email_student'),
    emailParent: text('email_parent'),
    emailOtherParent: text('email_other_parent'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    birthDate: date('birth_date', { mode: 'string' }),
    gender: text('gender'),
    grade: text('grade'),
    defaultChoice: text('default_choice'),
    emailNotifications: boolean('email_notifications').notNull().default(false),
    institutionId: uuid('institution_id').references(() => institutions.id),
    isAdmin: boolean('is_admin').notNull().default(false),
    /**
     * When the pupil last moved from one school to another, and from which: a centre's staff see who
     * claimed their school late (a pupil of their own school always fits, so a claim passes a full centre).
     */
    institutionChangedAt: timestamp('institution_changed_at', { withTimezone: true }),
    previousInstitutionId: uuid('previous_institution_id').references(() => institutions.id, { onDelete: 'set null' }),
    /** Extra time (tiers-temps) set by an admin, in percent of each timed chapter's duration (0–200). */
    extraTimePercent: integer('extra_time_percent').notNull().default(0),
    createdAt: createdAt(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_email_idx').on(t.email),
    index('users_institution_idx').on(t.institutionId),
    index('users_last_name_idx').on(t.lastName),
    // The grading table's pages walk pupils in French name order (decision 83).
    index('users_name_key_idx').on(nameSortKey(t.lastName), nameSortKey(t.firstName), t.id),
  ],
);

export const groups = pgTable('groups', {
  id: id(),
  name: text('name').notNull(),
  /** 'teachers' or 'members' for the two groups that define roles; they cannot be deleted. */
  systemKey: text('system_key').unique(),
  createdAt: createdAt(),
});

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: userRef(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_members_user_idx').on(t.userId)],
);

export const chapters = pgTable('chapters', {
  id: id(),
  title: text('title').notNull(),
  headerStudents: text('header_students').notNull().default(''),
  headerCenters: text('header_centers').notNull().default(''),
  offline: boolean('offline').notNull().default(false),
  analysis: boolean('analysis').notNull().default(false),
  /** Correctors who are not admins see pseudonyms instead of pupils' names (decision 62). */
  anonymousGrading: boolean('anonymous_grading').notNull().default(false),
  /** Decision 63: each copy graded by two correctors; further apart than the tolerance (points) → arbitration. */
  doubleGrading: boolean('double_grading').notNull().default(false),
  gradingTolerance: doublePrecision('grading_tolerance').notNull().default(0),
  /** Results published by the server itself once this instant has passed (decision 69). */
  publishAt: timestamp('publish_at', { withTimezone: true }),
  /** Decision 70: pupils see their rank, the number of participants and their percentile. */
  showRank: boolean('show_rank').notNull().default(false),
  /** Decision 70: points from which a pupil is qualified (null: no qualification), and the words they read. */
  qualificationThreshold: doublePrecision('qualification_threshold'),
  qualificationText: text('qualification_text').notNull().default('Qualifié(e) pour le tour suivant'),
  /** Decision 74: pupils may ask for a regrade after publication until then (Paris time entered); null: not open. */
  regradeUntil: timestamp('regrade_until', { withTimezone: true }),
  /** Decision 73: in the bin since then (hidden everywhere, restorable for 30 days, then purged); null: live. */
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const accessGroups = pgTable(
  'access_groups',
  {
    id: id(),
    chapterId: chapterRef(),
    /** Table order: the first matching group decides the window (docs/product.md#design-3). */
    position: integer('position').notNull(),
    name: text('name').notNull().default('all'),
    authorizedGenders: text('authorized_genders').array().notNull().default(sql`'{}'::text[]`),
    authorizedGrades: text('authorized_grades').array().notNull().default(sql`'{}'::text[]`),
    birthDateMin: date('birth_date_min', { mode: 'string' }),
    birthDateMax: date('birth_date_max', { mode: 'string' }),
    timeDuration: integer('time_duration'),
    accessStart: timestamp('access_start', { withTimezone: true }),
    accessEnd: timestamp('access_end', { withTimezone: true }),
  },
  (t) => [index('access_groups_chapter_idx').on(t.chapterId, t.position)],
);

export const exercises = pgTable(
  'exercises',
  {
    id: id(),
    chapterId: chapterRef(),
    position: integer('position').notNull().default(0),
    title: text('title').notNull(),
    answerFormat: text('answer_format').notNull().default('numeric'),
    /** Decision 61: what the exercise is worth; a grade above it is refused; automatic correction gives it. */
    maxPoints: doublePrecision('max_points').notNull().default(1),
    /** Decision 61: marking-scheme items [{id, text, points}]; a grade keeps the ids of the items ticked. */
    schemeItems: jsonb('scheme_items').$type<Array<{ id: string; text: string; points: number }>>().notNull().default(sql`'[]'::jsonb`),
    /** Decision 73: in the bin since then, like a chapter; an exercise of a binned chapter is hidden with it. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('exercises_chapter_idx').on(t.chapterId, t.position)],
);

export const statementVersions = pgTable(
  'statement_versions',
  {
    id: id(),
    exerciseId: uuid('exercise_id')
      .notNull()
      .references(() => exercises.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    content: text('content').notNull().default(''),
    /** Expected answer of a numeric exercise: never sent to pupils. */
    answer: text('answer'),
  },
  (t) => [index('statement_versions_exercise_idx').on(t.exerciseId, t.position)],
);

export const chapterSessions = pgTable(
  'chapter_sessions',
  {
    chapterId: chapterRef(),
    userId: userRef(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    /** The deadline fixed at start (start + duration, capped by the window end); null = unlimited. */
    endTime: timestamp('end_time', { withTimezone: true }),
    /**
     * When the pupil chose « Terminer l'épreuve »: the session's end from then on (sessions/state.ts),
     * unless an incident extension added later cancels it (decision 43).
     */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /**
     * The profile fields that chose the access group, as they were at start: a running or ended
     * session keeps its group whatever the pupil later writes in their profile.
     */
    accessGender: text('access_gender'),
    accessGrade: text('access_grade'),
    accessBirthDate: date('access_birth_date', { mode: 'string' }),
  },
  (t) => [primaryKey({ columns: [t.chapterId, t.userId] })],
);

export const files = pgTable(
  'files',
  {
    /** Stored as pdfs/<id>.pdf: never a user-given name. */
    id: id(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    institutionId: uuid('institution_id').references(() => institutions.id),
    originalName: text('original_name').notNull().default(''),
    size: integer('size').notNull(),
    pages: integer('pages'),
    /** SHA-256 of the bytes (hex): the same scan filed twice is caught (decision 58); null before it was kept. */
    sha256: text('sha256'),
    createdAt: createdAt(),
  },
  (t) => [
    index('files_owner_idx').on(t.ownerId),
    index('files_sha256_idx').on(t.sha256),
    // The reaper of unreferenced files walks the files older than a day (decision 133).
    index('files_created_at_idx').on(t.createdAt),
  ],
);

export const answers = pgTable(
  'answers',
  {
    id: id(),
    userId: userRef(),
    exerciseId: uuid('exercise_id')
      .notNull()
      .references(() => exercises.id, { onDelete: 'cascade' }),
    /** Numeric text, or a PDF path for pdf exercises. */
    answer: text('answer').notNull(),
    fileId: uuid('file_id').references(() => files.id),
    /** Client sequence: an older save never replaces a newer one (docs/product.md#design-3 Answers). */
    seq: bigint('seq', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    ip: text('ip'),
    grade: text('grade'),
    gradeComment: text('grade_comment'),
    hidden: boolean('hidden').notNull().default(false),
    graderId: uuid('grader_id').references(() => users.id, { onDelete: 'set null' }),
    gradeTimestamp: timestamp('grade_timestamp', { withTimezone: true }),
    /** Set when a PDF answer is sent back to sorting: it leaves the grading table. */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    /**
     * Sorting added pages to this copy after it was graded, or took them away (decision 139): the grade stays and
     * the copy is flagged « pages ajoutées après la note » until a corrector saves a grade again or dismisses it.
     */
    pagesAddedAt: timestamp('pages_added_at', { withTimezone: true }),
  },
  (t) => [
    index('answers_user_exercise_idx').on(t.userId, t.exerciseId, t.seq, t.createdAt),
    index('answers_exercise_idx').on(t.exerciseId),
    // Whether any answer row points at a file (the reaper, decision 133); numeric answers are not in it.
    index('answers_file_idx').on(t.fileId).where(sql`file_id IS NOT NULL`),
    // Two identical saves arriving together leave one row (client seq > 0; server-made rows use 0).
    uniqueIndex('answers_user_exercise_seq_uq').on(t.userId, t.exerciseId, t.seq).where(sql`seq > 0`),
    // The review page's first screen, latest grades first (decision 94): a page walks this index and stops.
    index('answers_graded_at_idx')
      .on(t.gradeTimestamp.desc().nullsLast(), t.id)
      .where(sql`grade_timestamp IS NOT NULL AND withdrawn_at IS NULL`),
    // The few copies flagged by sorting (decision 139), found per exercise for the grading table.
    index('answers_pages_added_idx').on(t.exerciseId, t.userId).where(sql`pages_added_at IS NOT NULL`),
    // answers_current_idx (exercise_id, user_id, seq DESC, created_at DESC) INCLUDE (answer, grade)
    // WHERE withdrawn_at IS NULL is created in raw SQL by migration 0006: drizzle cannot express
    // INCLUDE. The grading table reads the current answers from it alone once vacuumed (bench/grading).
  ],
);

/**
 * Written by triggers on `answers` alone (migration 0021, decision 116), never by the service: one row per
 * (exercise, pupil) that has a current answer (highest seq, then latest, not withdrawn), with whether that
 * answer is answered and graded. The grading table's header counts from the two tables below instead of
 * reading every answer of the chapter.
 */
export const currentAnswers = pgTable(
  'current_answers',
  {
    exerciseId: uuid('exercise_id').notNull(),
    userId: uuid('user_id').notNull(),
    /** The exercise's chapter, kept so a pair removed with its exercise still finds its chapter_pupils row. */
    chapterId: uuid('chapter_id').notNull(),
    answered: boolean('answered').notNull(),
    graded: boolean('graded').notNull(),
  },
  (t) => [primaryKey({ columns: [t.exerciseId, t.userId] })],
);

/**
 * Per exercise, the current answers counted (pairs, answered, graded), kept by the same triggers. Each
 * database connection adds its changes to its own slot (its backend pid modulo 64), so two connections
 * saving first answers at once do not wait on one row; a count is the sum of an exercise's slots.
 */
export const answerCounts = pgTable(
  'answer_counts',
  {
    exerciseId: uuid('exercise_id').notNull(),
    slot: smallint('slot').notNull(),
    pairs: integer('pairs').notNull().default(0),
    answered: integer('answered').notNull().default(0),
    graded: integer('graded').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.exerciseId, t.slot] })],
);

/** The pupils with a current answer to an exercise of the chapter (any exercise, binned ones too), kept by the same triggers. */
export const chapterPupils = pgTable(
  'chapter_pupils',
  {
    chapterId: uuid('chapter_id').notNull(),
    userId: uuid('user_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.chapterId, t.userId] })],
);

export const gradeAudit = pgTable(
  'grade_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    answerId: uuid('answer_id')
      .notNull()
      .references(() => answers.id, { onDelete: 'cascade' }),
    graderId: uuid('grader_id').references(() => users.id, { onDelete: 'set null' }),
    oldGrade: text('old_grade'),
    newGrade: text('new_grade'),
    oldComment: text('old_comment'),
    newComment: text('new_comment'),
    hidden: boolean('hidden').notNull().default(false),
    /** Decision 63: 'grade' (the copy's grade), 'grading' (one of two in double correction) or 'arbitration'. */
    kind: text('kind').notNull().default('grade'),
    items: text('items').array(),
    at: createdAt(),
  },
  (t) => [index('grade_audit_answer_idx').on(t.answerId)],
);

export const unlabeledAnswers = pgTable(
  'unlabeled_answers',
  {
    id: id(),
    chapterId: chapterRef(),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id),
    institutionId: uuid('institution_id').references(() => institutions.id),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /** A sorter holds a copy for 10 minutes (docs/product.md#design-3 Sorting). */
    reservedBy: uuid('reserved_by').references(() => users.id, { onDelete: 'set null' }),
    reservedAt: timestamp('reserved_at', { withTimezone: true }),
    labeledAt: timestamp('labeled_at', { withTimezone: true }),
    labeledBy: uuid('labeled_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * Per-page labels read from the answer sheets' QR codes, offered to the sorter to confirm:
     * [{pageNum, user, exercises, rotation, sheetPage?}] — null until the file was decoded. `sheetPage`,
     * the page number printed in an answer page's code, orders each pupil's pages (decision 108).
     */
    suggestions: jsonb('suggestions').$type<Array<{ pageNum: number; user: string | null; exercises: string[]; rotation: number; sheetPage?: number }>>(),
    /** What the reader found on each page, in order: 'read' | 'unread' | 'blank'; null until read. */
    pageReadings: jsonb('page_readings').$type<Array<'read' | 'unread' | 'blank'>>(),
    /** Why the reader could not read the file (French), shown on the sorting page; null otherwise. */
    readError: text('read_error'),
    /** Blank pages (a duplex scan's backs) the labelling left out of every copy (decision 109); null before it. */
    droppedBlanks: integer('dropped_blanks'),
  },
  (t) => [
    index('unlabeled_chapter_idx').on(t.chapterId, t.labeledAt, t.createdAt),
    // A scanned file is filed once, even when two uploads of it race.
    uniqueIndex('unlabeled_file_uq').on(t.fileId),
  ],
);

export const centers = pgTable(
  'centers',
  {
    id: id(),
    chapterId: chapterRef(),
    institutionId: uuid('institution_id')
      .notNull()
      .references(() => institutions.id),
    opened: boolean('opened'),
    instructions: text('instructions').notNull().default(''),
    nbPlaces: integer('nb_places').notNull().default(0),
    /** A pole centre (status 'center') is open to all pupils. */
    isPole: boolean('is_pole').notNull().default(false),
    /** The sitting (Paris time shown); null: the chapter's earliest access start (decision 59). */
    sittingAt: timestamp('sitting_at', { withTimezone: true }),
    /** Where to come; null: the institution's postal address. */
    address: text('address'),
    room: text('room').notNull().default(''),
    /** What to bring; empty: the default list. */
    bring: text('bring').notNull().default(''),
    /** Last change of the details pupils were told about (date, address, room, bring, opened). */
    detailsChangedAt: timestamp('details_changed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('centers_chapter_institution_idx').on(t.chapterId, t.institutionId)],
);

export const centerRegistrations = pgTable(
  'center_registrations',
  {
    chapterId: chapterRef(),
    userId: userRef(),
    institutionId: uuid('institution_id')
      .notNull()
      .references(() => institutions.id),
    createdAt: createdAt(),
    /** Attendance recorded by the centre's staff after the sitting; null: not recorded yet. */
    present: boolean('present'),
    attendanceAt: timestamp('attendance_at', { withTimezone: true }),
    attendanceBy: uuid('attendance_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.chapterId, t.userId] }),
    index('center_registrations_center_idx').on(t.chapterId, t.institutionId),
  ],
);

/**
 * Minutes an admin added to one pupil's end in one chapter after an incident (a power cut, a crashed
 * computer), with who and why; the pupil's end is pushed back by their sum, even after it passed.
 */
export const sessionExtensions = pgTable(
  'session_extensions',
  {
    id: id(),
    chapterId: chapterRef(),
    userId: userRef(),
    minutes: integer('minutes').notNull(),
    reason: text('reason').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('session_extensions_chapter_user_idx').on(t.chapterId, t.userId)],
);

/** A centre's staff turned a pupil away (a pupil who is not theirs): that pupil cannot register there again. */
export const centerRefusals = pgTable(
  'center_refusals',
  {
    chapterId: chapterRef(),
    institutionId: uuid('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    userId: userRef(),
    refusedBy: uuid('refused_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.chapterId, t.institutionId, t.userId] }), index('center_refusals_user_idx').on(t.userId, t.chapterId)],
);

/**
 * A family address of a pupil's profile (student, parent, other parent) and its double opt-in
 * (decision 134): nothing but the confirmation mail goes to it before `confirmedAt`. Only a hash of
 * the link's token is kept; changing the address deletes the row, so the new one starts unconfirmed.
 */
export const familyAddresses = pgTable(
  'family_addresses',
  {
    userId: userRef(),
    /** Lower-cased and trimmed, as the profile stores it. */
    address: text('address').notNull(),
    /** sha256 of the confirmation link’s token; null until the mail leaves. */
    tokenHash: text('token_hash'),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.address] }), uniqueIndex('family_addresses_token_hash_idx').on(t.tokenHash)],
);

/** One registration written or moved by a pupil (decision 134): the daily limits count these rows. */
export const centerMoves = pgTable(
  'center_moves',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: userRef(),
    chapterId: chapterRef(),
    createdAt: createdAt(),
  },
  (t) => [index('center_moves_user_idx').on(t.userId, t.createdAt)],
);

export const focusEvents = pgTable(
  'focus_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chapterId: chapterRef(),
    userId: userRef(),
    eventType: text('event_type').notNull(),
    at: createdAt(),
    ip: text('ip'),
  },
  (t) => [index('focus_events_chapter_user_idx').on(t.chapterId, t.userId, t.at)],
);

export const emailTokens = pgTable(
  'email_tokens',
  {
    id: id(),
    userId: userRef(),
    /** sha256 of the 32 random bytes sent by mail; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    purpose: text('purpose').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('email_tokens_hash_idx').on(t.tokenHash), index('email_tokens_user_idx').on(t.userId)],
);

/**
 * Decision 136: one row per login (or impersonation). The 15-minute access tokens name it (`sid`) and die
 * with it; its refresh token, of which only the sha256 is kept, gets new access tokens while the row is not
 * revoked, not expired, and the user's (and the impersonating admin's) token version is the one it was opened with.
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: id(),
    userId: userRef(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'cascade' }),
    tokenVersion: integer('token_version').notNull(),
    actorTokenVersion: integer('actor_token_version'),
    refreshHash: text('refresh_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('auth_sessions_refresh_hash_idx').on(t.refreshHash),
    index('auth_sessions_user_idx').on(t.userId),
    index('auth_sessions_actor_idx').on(t.actorId),
    index('auth_sessions_expires_idx').on(t.expiresAt),
  ],
);

export const sentMails = pgTable('sent_mails', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  createdAt: createdAt(),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetId: uuid('target_id'),
    details: jsonb('details'),
    at: createdAt(),
  },
  (t) => [index('audit_log_at_idx').on(t.at)],
);

/** Fixed-window counters shared by every instance (docs/product.md#design-4: no state in process memory). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
});

/** A corrector holds an answer they opened for 10 minutes, so "next copy" hands others a different one. */
export const gradingClaims = pgTable(
  'grading_claims',
  {
    answerId: uuid('answer_id')
      .primaryKey()
      .references(() => answers.id, { onDelete: 'cascade' }),
    userId: userRef(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('grading_claims_user_idx').on(t.userId)],
);

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/** PDF bytes when FILE_STORE=postgres (no shared disk needed). No foreign key: bytes come before the files row. */
export const fileBlobs = pgTable('file_blobs', {
  id: uuid('id').primaryKey(),
  bytes: bytea('bytes').notNull(),
  createdAt: createdAt(),
});

/**
 * What each user has reserved of the upload limits (decision 133): a resumable upload from its creation until it
 * is finished, cancelled or expired (24 hours), a POST /pdfs while its bytes are checked (1 hour at most). Inserted
 * under a per-user advisory lock after counting what the user holds, so two creations at once cannot both pass the
 * caps. The id is the file's id once it is recorded (a row whose file exists counts as the file).
 */
export const uploadSlots = pgTable(
  'upload_slots',
  {
    id: uuid('id').primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** A tus upload (decision 111's caps on unfinished uploads); false: a POST /pdfs being checked. */
    resumable: boolean('resumable').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('upload_slots_owner_idx').on(t.ownerId)],
);

/**
 * Background work that must survive a restart (QR decoding of uploaded scans): a worker claims the
 * oldest pending job with FOR UPDATE SKIP LOCKED, so several instances share the queue.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    kind: text('kind').notNull(),
    /** What the job works on, e.g. {unlabeledId}. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    error: text('error'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** A retried job waits until then (back-off); null: at once. */
    notBefore: timestamp('not_before', { withTimezone: true }),
  },
  (t) => [
    index('jobs_pending_idx').on(t.kind, t.status, t.createdAt),
    // The claim walks this in order and stops at the first free row: with 10,000 queued mails, sorting
    // them all on every claim made sending O(n²) (bench/mail).
    index('jobs_queue_order_idx').on(t.createdAt, t.id).where(sql`status IN ('pending', 'running')`),
  ],
);

/**
 * One notification mail to one address (decision 60). `key` makes enqueuing idempotent (the same
 * event never queues a second mail) and the sending job checks `status` before sending, so a
 * restarted queue never sends a mail twice nor skips one (decision 60).
 */
export const mailDeliveries = pgTable(
  'mail_deliveries',
  {
    id: id(),
    key: text('key').notNull(),
    kind: text('kind').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    to: text('to').notNull(),
    /** What the mail is about, e.g. {chapterId, institutionId}. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** pending, sent, failed, skipped (the pupil turned notifications off meanwhile). */
    status: text('status').notNull().default('pending'),
    error: text('error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('mail_deliveries_key_idx').on(t.key), index('mail_deliveries_status_idx').on(t.kind, t.status)],
);

/**
 * One corrector's grading of one answer (decision 63). Single correction: the row of whoever holds the
 * grade (its ticked items). Double correction: two independent rows, plus an admin's arbitration row;
 * the settled grade is written on the answer row (decision 63).
 */
export const gradings = pgTable(
  'gradings',
  {
    id: id(),
    answerId: uuid('answer_id')
      .notNull()
      .references(() => answers.id, { onDelete: 'cascade' }),
    exerciseId: uuid('exercise_id')
      .notNull()
      .references(() => exercises.id, { onDelete: 'cascade' }),
    graderId: uuid('grader_id').references(() => users.id, { onDelete: 'set null' }),
    grade: text('grade'),
    gradeComment: text('grade_comment').notNull().default(''),
    items: text('items').array().notNull().default(sql`'{}'::text[]`),
    arbitration: boolean('arbitration').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('gradings_answer_grader_uq').on(t.answerId, t.graderId, t.arbitration),
    index('gradings_exercise_idx').on(t.exerciseId, t.graderId),
  ],
);

/** « Copie 0042 »: a pupil's number in one chapter under anonymous correction, given once, in a random order. */
export const gradingPseudonyms = pgTable(
  'grading_pseudonyms',
  {
    chapterId: chapterRef(),
    userId: userRef(),
    number: integer('number').notNull(),
    /** The copy's opaque id (decision 128): what a corrector of an anonymous chapter is given in place of the pupil's id. */
    copyId: uuid('copy_id').notNull().defaultRandom(),
  },
  (t) => [
    primaryKey({ columns: [t.chapterId, t.userId] }),
    uniqueIndex('grading_pseudonyms_number_uq').on(t.chapterId, t.number),
    uniqueIndex('grading_pseudonyms_copy_id_uq').on(t.copyId),
  ],
);

/** Which correctors grade which exercise (decision 64); an exercise without rows is open to every corrector. */
export const gradingAssignments = pgTable(
  'grading_assignments',
  {
    exerciseId: uuid('exercise_id')
      .notNull()
      .references(() => exercises.id, { onDelete: 'cascade' }),
    userId: userRef(),
  },
  (t) => [primaryKey({ columns: [t.exerciseId, t.userId] }), index('grading_assignments_user_idx').on(t.userId)],
);

/**
 * A pupil's request for a second look at one of their graded answers (decision 74), after publication and
 * until the chapter's `regradeUntil`; one open request per pupil and exercise. A corrector accepts it
 * with a new grade (recorded as a grading) or declines it, with a reply the pupil reads.
 */
export const regradeRequests = pgTable(
  'regrade_requests',
  {
    id: id(),
    answerId: uuid('answer_id')
      .notNull()
      .references(() => answers.id, { onDelete: 'cascade' }),
    chapterId: chapterRef(),
    exerciseId: uuid('exercise_id')
      .notNull()
      .references(() => exercises.id, { onDelete: 'cascade' }),
    userId: userRef(),
    message: text('message').notNull(),
    /** open, accepted, declined. */
    status: text('status').notNull().default('open'),
    reply: text('reply'),
    oldGrade: text('old_grade'),
    newGrade: text('new_grade'),
    handledBy: uuid('handled_by').references(() => users.id, { onDelete: 'set null' }),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('regrade_requests_open_uq').on(t.userId, t.exerciseId).where(sql`status = 'open'`),
    index('regrade_requests_chapter_idx').on(t.chapterId, t.status, t.createdAt),
    index('regrade_requests_user_idx').on(t.userId, t.chapterId),
  ],
);
