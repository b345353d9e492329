import { boolean, doublePrecision, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';

/** Schools and the words of the school search. */

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
    /** 'public' or 'private' (the directory's « secteur »), for the jury's figures (decision 158); null unknown. */
    sector: text('sector'),
    /** The académie's name; null: derived from the UAI's department (contract academyOfUai). */
    academy: text('academy'),
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
