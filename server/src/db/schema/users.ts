import { boolean, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { nameSortKey } from '../name-key.js';
import { createdAt, id } from './columns.js';
import { institutions } from './institutions.js';

/** Users, their groups (the roles) and their family addresses. */

/** The user a row belongs to: it goes with them. */
export const userRef = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/** Fixed ids of rows created by migrations (docs/product.md#design-3 Roles; decision 9 home schooling). */
export const TEACHERS_GROUP_ID = '00000000-0000-4000-8000-000000000001';
export const MEMBERS_GROUP_ID = '00000000-0000-4000-8000-000000000002';

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
