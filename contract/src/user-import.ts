import { z } from 'zod';

/** POST /users/import: what happens (or, for a preview, would happen) to one line of the file. */
export const importLineSchema = z.object({
  /** The line in the file, the header being line 1 (as a spreadsheet numbers it). */
  line: z.number().int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  outcome: z.enum(['created', 'existing', 'rejected']),
  /** Why a line is refused, or what an existing account keeps. */
  message: z.string().optional(),
});
export type ImportLine = z.infer<typeof importLineSchema>;

export const importReportSchema = z.object({
  created: z.number().int(),
  existing: z.number().int(),
  rejected: z.array(z.object({ line: z.number().int(), message: z.string() })),
  /** True for a preview: nothing was written, no mail sent. */
  preview: z.boolean(),
  /** The school the accounts belong to. */
  institution: z.object({ _id: z.string(), name: z.string() }),
  /** Every line with its outcome, in file order. */
  lines: z.array(importLineSchema),
});
export type ImportReport = z.infer<typeof importReportSchema>;

/** The most lines one file may hold: a whole school's pupils. */
export const IMPORT_MAX_LINES = 10_000;
/** The largest file accepted, in bytes. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
