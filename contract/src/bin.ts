import { z } from 'zod';

/** Decision 73: how long a deleted chapter or exercise stays in the bin before the purge command empties it. */
export const BIN_DAYS = 30;

/** One entry of « Corbeille » (GET /bin): a deleted chapter or exercise, restorable until `purgeAfter`. */
export const binEntrySchema = z.object({
  kind: z.enum(['chapter', 'exercise']),
  _id: z.uuid(),
  title: z.string(),
  /** The chapter of an exercise (its title); a chapter's own title for a chapter. */
  chapterTitle: z.string(),
  /** An exercise whose chapter is in the bin too comes back with its chapter. */
  chapterDeleted: z.boolean(),
  deletedAt: z.iso.datetime({ offset: true }),
  purgeAfter: z.iso.datetime({ offset: true }),
  answers: z.number().int(),
});
export type BinEntry = z.infer<typeof binEntrySchema>;
