import { sql } from 'drizzle-orm';
import { PDFDocument } from '@cantoo/pdf-lib';
import type { Db } from '../src/db/client.js';
import { accessGroups, chapters, exercises } from '../src/db/schema.js';

/**
 * Until the lead's migration adds `file_blobs` (docs/decisions/operations.md gives the drizzle
 * definition), tests of the PostgreSQL store create the same table themselves.
 */
export async function ensureFileBlobs(db: Db) {
  await db.execute(sql`
    CREATE TABLE IF NOT EXISTS file_blobs (
      id uuid PRIMARY KEY,
      bytes bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
}

/** A PDF with nothing for the upload check to remove (no information dictionary: decision 131), stored as it is sent. */
export async function makePdf(pages = 1, label = ''): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]).drawText(`${label} ${i + 1}`, { x: 20, y: 100, size: 12 });
  return Buffer.from(await doc.save());
}

/** A chapter open to everyone with one numeric and one PDF exercise. */
export async function makeChapter(db: Db, title = 'Tour 1') {
  const [c] = await db.insert(chapters).values({ title }).returning();
  await db.insert(accessGroups).values({ chapterId: c.id, position: 0 });
  const [numeric, pdf] = await db
    .insert(exercises)
    .values([
      { chapterId: c.id, title: 'Nombre', answerFormat: 'numeric', position: 0 },
      { chapterId: c.id, title: 'Preuve', answerFormat: 'pdf', position: 1 },
    ])
    .returning();
  return { chapterId: c.id, numericId: numeric.id, pdfId: pdf.id };
}

/** A multipart body by hand, as a browser's FormData sends it. */
export function multipart(fields: Record<string, string>, file: { name: string; bytes: Uint8Array }) {
  const boundary = `----olympe${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    Buffer.from(file.bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
