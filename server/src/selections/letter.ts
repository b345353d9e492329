import { formatFrenchDate, formatLongFrenchDate, parisDateOf, qualifiedText } from '@olympe/contract';
import { PDFDocument, rgb, type PDFFont } from '@cantoo/pdf-lib';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { one } from '../db/query.js';
import { embedFonts } from '../pdf/fonts.js';
import { assertMayGetLetter, assertMaySeeList, letterRefusal } from './policies.js';
import { categoryOf, loadSelectionVersion, outcomesOf, versionOf } from './qualification.js';

/** What a qualification letter says (decision 157). */
interface LetterData {
  name: string;
  school: string | null;
  selection: string;
  category: string;
  score: string;
  qualified: string;
  date: string | null;
  place: string;
  issuedOn: string;
}

const A4: [number, number] = [595.28, 841.89];

/** The letter, A4 portrait, drawn as the certificates are (results/certificate.ts: same library, same fonts). */
async function renderLetter(data: LetterData): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const { regular, bold, drawable } = await embedFonts(doc);
  const page = doc.addPage(A4);
  const [width, height] = A4;
  const line = (text: string, y: number, size: number, font: PDFFont, centred = false) => {
    const safe = drawable(text.replace(/[\t\r\n]+/g, ' '));
    const measured = Math.max(1, font.widthOfTextAtSize(safe, size));
    const fitted = Math.min(size, (size * (width - 120)) / measured);
    const x = centred ? (width - (measured * fitted) / size) / 2 : 60;
    page.drawText(safe, { x, y, size: fitted, font, color: rgb(0.1, 0.1, 0.2) });
  };
  page.drawRectangle({ x: 30, y: 30, width: width - 60, height: height - 60, borderColor: rgb(0.2, 0.3, 0.6), borderWidth: 2 });
  line('Lettre de qualification', height - 120, 26, bold, true);
  line(`Sélection « ${data.selection} »`, height - 160, 14, regular, true);
  line(data.name, height - 240, 22, bold, true);
  if (data.school) line(data.school, height - 270, 13, regular, true);
  line(data.qualified, height - 340, 18, bold, true);
  line(`Catégorie : ${data.category}`, height - 400, 13, regular);
  line(`Score : ${data.score}`, height - 425, 13, regular);
  if (data.date) line(`Date : ${data.date}`, height - 465, 13, regular);
  if (data.place) line(`Lieu : ${data.place}`, height - 490, 13, regular);
  line(`Fait le ${data.issuedOn}`, 80, 11, regular);
  doc.setTitle(`Lettre de qualification – ${data.selection}`);
  doc.setCreator('Olympe');
  doc.setProducer('Olympe');
  return doc.save({ useObjectStreams: false });
}

/**
 * GET /selection/{id}/letter?user= (decision 157): the caller's own letter once the selection is published and they
 * are qualified in it; an admin names any pupil as soon as a version is frozen. Refusals in French (403 / 404 / 409).
 */
export async function qualificationLetter(db: Db, auth: AuthContext, selectionId: string, user?: string, now = new Date()) {
  const target = user ?? auth.userId;
  assertMayGetLetter(auth, target);
  const selection = await loadSelectionVersion(db, selectionId, now);
  assertMaySeeList(auth, selection.published);
  const version = versionOf(selection);
  const [outcome] = await outcomesOf(db, version.id, [target]);
  if (!outcome) throw letterRefusal(auth, target, 'absent');
  if (outcome.qualifiedIn.length === 0) throw letterRefusal(auth, target, 'not-qualified');
  const holder = await one(
    db,
    z.object({ first_name: z.string().nullable(), last_name: z.string().nullable(), school: z.string().nullable() }),
    sql`SELECT u.first_name, u.last_name, i.name AS school FROM users u LEFT JOIN institutions i ON i.id = u.institution_id
        WHERE u.id = ${target}::uuid`,
  );
  const bytes = await renderLetter({
    name: `${holder?.first_name ?? ''} ${holder?.last_name ?? ''}`.trim(),
    school: holder?.school ?? null,
    selection: selection.title,
    category: categoryOf(version.categories, outcome)?.name ?? '',
    score: String(outcome.score).replace('.', ','),
    qualified: qualifiedText({ qualified: true, nextRoundTitle: selection.nextRoundTitle }),
    date: selection.nextRoundDate ? formatLongFrenchDate(selection.nextRoundDate) : null,
    place: selection.nextRoundPlace,
    issuedOn: formatFrenchDate(parisDateOf(now)),
  });
  return { bytes, title: selection.title };
}
