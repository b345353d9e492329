import { convocationQrText, DEFAULT_BRING_TEXT, formatSitting, GRADE_LABELS, roomText, type CenterDetails } from '@olympe/contract';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from '@cantoo/pdf-lib';
import { embedFonts } from '../pdf/fonts.js';
import { registerQrImage } from '../sheets/qr-image.js';

const W = 595.28;
const H = 841.89;
const M = 50;
const GREY = rgb(0.35, 0.35, 0.35);

export interface ExamPupil {
  id: string;
  firstName: string | null;
  lastName: string | null;
  grade: string | null;
  school: string | null;
  /** Attendance recorded (exports); null until recorded. */
  present?: boolean | null;
}

export interface ExamCentre {
  chapterId: string;
  chapterTitle: string;
  centreName: string;
  details: CenterDetails;
  instructions: string;
}

const gradeLabel = (g: string) => (GRADE_LABELS as Record<string, string>)[g] ?? g;

export const pupilName = (p: Pick<ExamPupil, 'firstName' | 'lastName'>) =>
  [p.lastName?.toUpperCase(), p.firstName].filter(Boolean).join(' ') || 'Élève';

interface Pen {
  font: PDFFont;
  bold: PDFFont;
  /** Text the embedded font can draw, tabs as spaces (decision 143): names keep their letters. */
  clean: (s: string) => string;
  /** Lines of at most `width` points at `size`, measured with the font they are drawn in. */
  wrap: (s: string, size: number, width: number, font?: PDFFont) => string[];
}

async function penOf(doc: PDFDocument): Promise<Pen> {
  const { regular: font, bold, drawable } = await embedFonts(doc);
  const clean = (s: string) => drawable(s.replace(/\t/g, ' '));
  // A word wider than the box (a 100-letter « name ») is cut where it reaches the edge, so no text
  // runs over the QR code or off the page (decision 134).
  const pieces = (word: string, size: number, width: number, f: PDFFont) => {
    const out: string[] = [];
    let piece = '';
    for (const c of word) {
      if (piece && f.widthOfTextAtSize(piece + c, size) > width) {
        out.push(piece);
        piece = c;
      } else piece += c;
    }
    return [...out, piece];
  };
  const wrap = (s: string, size: number, width: number, f: PDFFont = font) => {
    const out: string[] = [];
    for (const para of clean(s).split(/\r?\n/)) {
      let line = '';
      for (const word of para.split(/ +/).flatMap((w) => pieces(w, size, width, f))) {
        const next = line ? `${line} ${word}` : word;
        if (line && f.widthOfTextAtSize(next, size) > width) {
          out.push(line);
          line = word;
        } else line = next;
      }
      out.push(line);
    }
    return out;
  };
  return { font, bold, clean, wrap };
}

function drawQr(doc: PDFDocument, page: PDFPage, text: string, x: number, y: number, size: number) {
  const ref = registerQrImage(doc, new TextEncoder().encode(text));
  const name = page.node.newXObject('Qr', ref);
  const ops = `q 0 g ${size} 0 0 ${size} ${x.toFixed(2)} ${y.toFixed(2)} cm ${name.asString()} Do Q\n`;
  page.node.addContentStream(doc.context.register(doc.context.stream(ops)));
}

/**
 * Decision 59: one convocation page per pupil — who, where, when, what to bring, the centre's
 * instructions — and a QR code staff scan to check the pupil in.
 */
export async function renderConvocations(centre: ExamCentre, pupils: ExamPupil[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Convocations — ${centre.chapterTitle}`);
  doc.setCreator('Olympe');
  const pen = await penOf(doc);
  const d = centre.details;
  for (const pupil of pupils) {
    const page = doc.addPage([W, H]);
    let y = H - M;
    const line = (s: string, size = 11, font = pen.font, color = rgb(0, 0, 0), width = W - 2 * M) => {
      for (const l of pen.wrap(s, size, width, font)) {
        page.drawText(l, { x: M, y, size, font, color });
        y -= size * 1.35;
      }
    };
    line('Convocation', 22, pen.bold);
    y -= 4;
    line(centre.chapterTitle, 13, pen.bold, GREY, W - 2 * M - 140);
    y -= 10;
    drawQr(doc, page, convocationQrText(centre.chapterId, pupil.id), W - M - 120, H - M - 120, 120);
    line(pupilName(pupil), 16, pen.bold, undefined, W - 2 * M - 140);
    line(`Classe : ${pupil.grade ? gradeLabel(pupil.grade) : 'non renseignée'}`, 11, pen.font, undefined, W - 2 * M - 140);
    line(`Établissement : ${pupil.school ?? 'non renseigné'}`, 11, pen.font, undefined, W - 2 * M - 140);
    y = Math.min(y, H - M - 140) - 10;
    line('Centre d’examen', 13, pen.bold);
    line(centre.centreName);
    if (d.address) line(d.address);
    if (d.room) line(`Salle : ${d.room}`);
    y -= 8;
    line('Date et heure', 13, pen.bold);
    line(d.sittingAt ? `Le ${formatSitting(d.sittingAt)} (heure de Paris)` : 'La date sera précisée par le centre.');
    y -= 8;
    line('À apporter', 13, pen.bold);
    line(d.bring || DEFAULT_BRING_TEXT);
    if (centre.instructions.trim()) {
      y -= 8;
      line('Instructions du centre', 13, pen.bold);
      line(centre.instructions.slice(0, 3000), 10);
    }
    page.drawText(pen.clean('Présentez cette convocation (imprimée ou sur téléphone) à l’entrée de la salle.'), {
      x: M,
      y: M,
      size: 9,
      font: pen.font,
      color: GREY,
    });
  }
  if (pupils.length === 0)
    doc.addPage([W, H]).drawText(pen.clean('Aucun élève inscrit dans ce centre.'), { x: M, y: H - M, size: 12, font: pen.font });
  return doc.save({ objectsPerTick: 2000 });
}

/** Decision 59: the feuille d’émargement — pupils sorted by name, a signature column, the count. */
export async function renderAttendanceSheet(centre: ExamCentre, pupils: ExamPupil[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Feuille d’émargement — ${centre.centreName}`);
  doc.setCreator('Olympe');
  const pen = await penOf(doc);
  const sorted = [...pupils].sort((a, b) => pupilName(a).localeCompare(pupilName(b), 'fr'));
  const ROW = 26;
  const cols = [M, M + 28, M + 230, M + 300];
  const cell = (page: PDFPage, s: string, x: number, y: number, width: number, font = pen.font, size = 10) => {
    let t = pen.clean(s);
    while (t.length > 1 && font.widthOfTextAtSize(t, size) > width) t = t.slice(0, -1);
    page.drawText(t, { x, y, size, font });
  };
  let page: PDFPage | null = null;
  let y = 0;
  let n = 0;
  const newPage = () => {
    page = doc.addPage([W, H]);
    y = H - M;
    cell(page, 'Feuille d’émargement', M, y, W - 2 * M, pen.bold, 18);
    y -= 22;
    cell(page, centre.chapterTitle, M, y, W - 2 * M, pen.bold, 11);
    y -= 15;
    const when = centre.details.sittingAt ? ` — ${formatSitting(centre.details.sittingAt)}` : '';
    cell(page, `${centre.centreName}${centre.details.room ? `, ${roomText(centre.details.room)}` : ''}${when}`, M, y, W - 2 * M);
    y -= 15;
    cell(page, `${sorted.length} élève${sorted.length > 1 ? 's' : ''} inscrit${sorted.length > 1 ? 's' : ''}`, M, y, W - 2 * M);
    y -= 24;
    for (const [i, head] of ['N°', 'Nom et prénom', 'Classe', 'Signature'].entries()) cell(page, head, cols[i], y, 190, pen.bold);
    y -= 8;
    page.drawLine({ start: { x: M, y }, end: { x: W - M, y }, thickness: 1 });
  };
  newPage();
  for (const p of sorted) {
    if (y - ROW < M + 30) newPage();
    n++;
    const base = y - ROW + 9;
    cell(page!, String(n), cols[0], base, 24);
    cell(page!, pupilName(p), cols[1], base, 196);
    cell(page!, p.grade ? gradeLabel(p.grade) : '', cols[2], base, 66);
    y -= ROW;
    page!.drawLine({ start: { x: M, y }, end: { x: W - M, y }, thickness: 0.5, color: GREY });
  }
  y -= 24;
  if (y < M + 40) newPage();
  cell(page!, `Présents : ______   Absents : ______   sur ${sorted.length} inscrits`, M, y, W - 2 * M, pen.bold, 11);
  cell(page!, 'Signature du responsable du centre :', M, y - 24, W - 2 * M);
  return doc.save({ objectsPerTick: 2000 });
}
