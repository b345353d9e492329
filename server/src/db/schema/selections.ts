import { sql } from 'drizzle-orm';
import { date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';
import { groups, userRef, users } from './users.js';

/** Selections: the jury's lists of who goes on (docs/product.md#selections, decisions 155–158). */

export const selections = pgTable('selections', {
  id: id(),
  title: text('title').notNull(),
  /** [{chapterId, weight}]: a pupil's score is the sum of their chapter totals times the weights. */
  chapters: jsonb('chapters').$type<Array<{ chapterId: string; weight: number }>>().notNull(),
  nextRoundTitle: text('next_round_title').notNull(),
  nextRoundDate: date('next_round_date', { mode: 'string' }),
  nextRoundPlace: text('next_round_place').notNull().default(''),
  /** The group whose members deliberate, and whether they only read the board or also decide. */
  juryGroupId: uuid('jury_group_id').references(() => groups.id, { onDelete: 'set null' }),
  juryRight: text('jury_right').notNull().default('read'),
  /** Pupils read the latest version once this instant has passed (the same rule as results, decision 69). */
  publishAt: timestamp('publish_at', { withTimezone: true }),
  /** Set when an admin lifted the anonymity of the deliberation before the first version (audited). */
  namesRevealedAt: timestamp('names_revealed_at', { withTimezone: true }),
  createdAt: createdAt(),
});

const selectionRef = () =>
  uuid('selection_id')
    .notNull()
    .references(() => selections.id, { onDelete: 'cascade' });

export const selectionCategories = pgTable(
  'selection_categories',
  {
    id: id(),
    selectionId: selectionRef(),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    genders: text('genders')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    grades: text('grades')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    birthDateMin: date('birth_date_min', { mode: 'string' }),
    birthDateMax: date('birth_date_max', { mode: 'string' }),
    cutoff: doublePrecision('cutoff'),
    atCutoff: text('at_cutoff'),
    minGirls: integer('min_girls'),
    maxPerSchool: integer('max_per_school'),
  },
  (t) => [index('selection_categories_selection_idx').on(t.selectionId, t.position)],
);

/** The jury's individual decisions: include or exclude one pupil of one category, with the reason (audited). */
export const selectionDecisions = pgTable(
  'selection_decisions',
  {
    categoryId: uuid('category_id')
      .notNull()
      .references(() => selectionCategories.id, { onDelete: 'cascade' }),
    userId: userRef(),
    decision: text('decision').notNull(),
    reason: text('reason').notNull().default(''),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.userId] })],
);

/** A frozen list: numbered per selection, with the settings it was made with (cut-offs, quotas, decisions). */
export const selectionVersions = pgTable(
  'selection_versions',
  {
    id: id(),
    selectionId: selectionRef(),
    number: integer('number').notNull(),
    reason: text('reason').notNull().default(''),
    frozenBy: uuid('frozen_by').references(() => users.id, { onDelete: 'set null' }),
    frozenAt: timestamp('frozen_at', { withTimezone: true }).notNull().defaultNow(),
    settings: jsonb('settings').notNull(),
  },
  (t) => [uniqueIndex('selection_versions_number_idx').on(t.selectionId, t.number)],
);

/** One row per participant of a version: their score, the categories they were in and those they are selected in. */
export const selectionOutcomes = pgTable(
  'selection_outcomes',
  {
    versionId: uuid('version_id')
      .notNull()
      .references(() => selectionVersions.id, { onDelete: 'cascade' }),
    userId: userRef(),
    score: doublePrecision('score').notNull(),
    categories: uuid('categories').array().notNull(),
    qualifiedIn: uuid('qualified_in').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.versionId, t.userId] }), index('selection_outcomes_user_idx').on(t.userId)],
);
