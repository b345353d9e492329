import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { rows } from '../db/query.js';
import { files, unlabeledAnswers } from '../db/schema.js';
import type { FileStore } from '../files/store.js';
import { makeSampleScan, type SamplePage } from './sample-scan.js';

export interface SortingDemoInput {
  /** A paper chapter whose centres already have registrations (seedCentersDemo). */
  chapterId: string;
  /** Who filed the scans: a member or an admin (they may file for any school). */
  uploadedBy: string;
}

/**
 * Two scanned copies waiting for sorting on the demo paper chapter, for the two centres with the
 * most registered pupils: each pupil's pages (one per PDF exercise, the second one scanned upside
 * down) and a blank page at the end, so "Triage" shows rotation and blank pages. PDFs made with
 * pdf-lib and stored through the file store. Returns the unlabelled copies' ids.
 */
export async function seedSortingDemo(db: Db, store: FileStore, input: SortingDemoInput): Promise<string[]> {
  const registrations = await rows(
    db,
    z.object({ institution_id: z.string(), first_name: z.string().nullable(), last_name: z.string().nullable() }),
    sql`
    SELECT r.institution_id, u.first_name, u.last_name
    FROM center_registrations r JOIN users u ON u.id = r.user_id
    WHERE r.chapter_id = ${input.chapterId}::uuid
    ORDER BY r.institution_id, u.last_name, u.first_name`,
  );
  const exercises = await rows(
    db,
    z.object({ title: z.string() }),
    sql`
    SELECT title FROM exercises WHERE chapter_id = ${input.chapterId}::uuid AND answer_format = 'pdf' ORDER BY position, created_at`,
  );
  const titles = exercises.map((r) => r.title);
  if (titles.length === 0) throw new Error('seedSortingDemo needs a chapter with PDF exercises');

  const byCentre = new Map<string, string[]>();
  for (const r of registrations) {
    const names = byCentre.get(r.institution_id) ?? [];
    names.push(`${r.first_name ?? ''} ${r.last_name ?? ''}`.trim());
    byCentre.set(r.institution_id, names);
  }
  const ids: string[] = [];
  // The two centres with the most registered pupils.
  const busiest = [...byCentre].sort((a, b) => b[1].length - a[1].length).slice(0, 2);
  for (const [index, [institutionId, names]] of busiest.entries()) {
    const pages: SamplePage[] = names.flatMap((name) =>
      titles.map((title, i) => ({ text: `${name} — ${title}`, rotate: i === 1 ? 180 : 0 })),
    );
    pages.push({ text: '' });
    const bytes = await makeSampleScan(pages);
    const fileId = randomUUID();
    await store.put(fileId, bytes);
    await db.insert(files).values({
      id: fileId,
      ownerId: input.uploadedBy,
      institutionId,
      originalName: `scan-salle-${index + 1}.pdf`,
      size: bytes.length,
      pages: pages.length,
    });
    const [row] = await db
      .insert(unlabeledAnswers)
      .values({
        chapterId: input.chapterId,
        fileId,
        institutionId,
        uploadedBy: input.uploadedBy,
        // What the scan reader (decision 57) finds on these sheets without codes: every page to
        // sort by hand, the empty last one suggested blank (shown on the sorting page).
        pageReadings: pages.map((p) => (p.text ? 'unread' : 'blank')),
        suggestions: [{ pageNum: pages.length, user: null, exercises: [], rotation: 0 }],
      })
      .returning({ id: unlabeledAnswers.id });
    ids.push(row.id);
  }
  return ids;
}
