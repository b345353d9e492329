import { PDFDocument, PDFName, rgb, StandardFonts, type PDFEmbeddedPage, type PDFFont, type PDFPage } from '@cantoo/pdf-lib';
import { encodeSheetCode } from './payload.js';
import { registerQrImage } from './qr-image.js';

/** A4 in points. */
const W = 595.28;
const H = 841.89;
const MARGIN = 36;
/** 30 mm: with 37 modules, 0.8 mm per module, about 5 pixels at 150 dpi. */
export const QR_SIZE = 85;
/**
 * The same code is printed twice, in opposite corners (decision 110): top right, and bottom left,
 * so that one pen stroke, a staple or a torn corner leaves the other one readable.
 */
const QR_X = W - MARGIN - QR_SIZE;
const QR_Y = H - MARGIN - QR_SIZE;
const QR2_X = MARGIN;
const QR2_Y = MARGIN;
/** White kept around the code (its quiet zone is 4 modules, about 9 pt). */
const QR_CLEAR = 14;
const TEXT_WIDTH = QR_X - QR_CLEAR - MARGIN;
/** Where the codes are printed, in points from the page's top-left corner (tests tear them off, strike them). */
export const QR_BOXES = [
  { left: QR_X, top: H - QR_Y - QR_SIZE, size: QR_SIZE },
  { left: QR2_X, top: H - QR2_Y - QR_SIZE, size: QR_SIZE },
] as const;
const GREY = rgb(0.35, 0.35, 0.35);
const LINE = rgb(0.6, 0.6, 0.6);

export interface SheetPupil {
  id: string;
  firstName: string | null;
  lastName: string | null;
}

export interface SheetInput {
  secret: string;
  chapter: { id: string; title: string };
  /** The centre's institution, printed on the cover. */
  centreName: string | null;
  exercises: Array<{ id: string; title: string }>;
  /** Null: one blank set, the name written by hand. */
  pupils: SheetPupil[] | null;
  /** Extra answer pages per exercise. */
  spare: number;
}

/**
 * One PDF: per pupil (or once, blank), a cover page then `1 + spare` answer pages per exercise.
 * Everything but the name and the code is the same for every pupil: it is drawn once per page kind
 * as a form XObject; each page adds the name as text and the code as a 1-bit image, a few hundred
 * bytes that need no compression. 100 pupils × 3 exercises × 3 pages take a fraction of a second
 * (bench/sheets/README.md), where drawing every page with pdf-lib's API took seconds.
 */
export async function renderAnswerSheets(input: SheetInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Feuilles réponses — ${input.chapter.title}`);
  doc.setCreator('Olympe');
  const scratch = await PDFDocument.create();
  const fonts: Fonts = {
    regular: await scratch.embedFont(StandardFonts.Helvetica),
    bold: await scratch.embedFont(StandardFonts.HelveticaBold),
  };
  const text = textWriter(fonts.regular);
  const pages = 1 + input.spare;
  const blank = input.pupils === null;

  const coverPage = scratch.addPage([W, H]);
  drawCover(coverPage, fonts, text, input, blank, pages);
  const answerPages: PDFPage[] = [];
  input.exercises.forEach((exercise, i) => {
    for (let p = 1; p <= pages; p++) {
      const page = scratch.addPage([W, H]);
      drawAnswerPage(page, fonts, text, {
        chapter: input.chapter.title,
        blank,
        exercise: `Exercice ${i + 1} : ${exercise.title}`,
        page: `Page ${p} sur ${pages}${p > 1 ? ' (page supplémentaire, à rendre même vide)' : ''}`,
      });
      answerPages.push(page);
    }
  });
  // The templates' fonts are written into the scratch document only when it is flushed.
  await scratch.flush();
  const [cover, ...answers] = await doc.embedPages([coverPage, ...answerPages]);
  const nameFont = await doc.embedFont(StandardFonts.HelveticaBold);
  const nameOfPupil = nameWriter(nameFont, text.clean);

  for (const pupil of input.pupils ?? [null]) {
    const name = pupil ? nameOfPupil(pupil) : '';
    const addPage = (template: PDFEmbeddedPage, exerciseId: string | null, p: number) => {
      const page = doc.addPage([W, H]);
      page.node.setXObject(TEMPLATE, template.ref);
      page.node.setXObject(QR, registerQrImage(doc, encodeSheetCode(input.secret, { chapterId: input.chapter.id, exerciseId, userId: pupil?.id ?? null, page: p })));
      page.node.setFontDictionary(NAME_FONT, nameFont.ref);
      page.node.addContentStream(doc.context.register(doc.context.stream(`q /Tpl Do Q\n${name}${QR_DRAW}`)));
    };
    addPage(cover, null, 0);
    input.exercises.forEach((exercise, i) => {
      for (let p = 1; p <= pages; p++) addPage(answers[i * pages + p - 1], exercise.id, p);
    });
  }
  // pdf-lib yields to the event loop every 50 objects by default, at ~1 ms a yield.
  return doc.save({ addDefaultPage: false, objectsPerTick: 2000 });
}

const TEMPLATE = PDFName.of('Tpl');
const QR = PDFName.of('Qr');
const QR_DRAW = [
  [QR_X, QR_Y],
  [QR2_X, QR2_Y],
]
  .map(([x, y]) => `q 0 g ${QR_SIZE} 0 0 ${QR_SIZE} ${x.toFixed(2)} ${y.toFixed(2)} cm /Qr Do Q\n`)
  .join('');
const NAME_FONT = PDFName.of('Fn');
const NAME_SIZE = 15;

/** The pupil's name as PDF text operators, cut to the width left of the code. */
function nameWriter(font: PDFFont, clean: (s: string) => string) {
  return (pupil: SheetPupil) => {
    let s = clean(nameOf(pupil));
    while (s.length > 1 && font.widthOfTextAtSize(s, NAME_SIZE) > TEXT_WIDTH) s = `${s.slice(0, -2).trimEnd()}…`;
    return `BT /Fn ${NAME_SIZE} Tf ${MARGIN} ${(H - MARGIN - 32).toFixed(2)} Td ${font.encodeText(s).toString()} Tj ET\n`;
  };
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** Letters without a WinAnsi form that NFD does not split into base letter + accent. */
const BASE_LETTERS: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i', Ŀ: 'L', ŀ: 'l', Ŧ: 'T', ŧ: 't', Ə: 'E', ə: 'e' };

type Writer = ((page: PDFPage, value: string, x: number, y: number, opts: { font: PDFFont; size: number; width: number; color?: ReturnType<typeof rgb> }) => void) & {
  clean: (value: string) => string;
};

/**
 * The standard fonts only encode WinAnsi (French accents included): other letters lose their
 * accent or become '?', and long texts are cut with an ellipsis rather than overflow the code.
 */
function textWriter(sample: PDFFont): Writer {
  const known = new Set(sample.getCharacterSet());
  const clean = (value: string) =>
    // No-break spaces stay (WinAnsi has U+00A0; U+202F, before ; ? ! and inside « », becomes it); others fold.
    [...value.replace(/[\u202f\u2009]/g, '\u00a0').replace(/[ \t\r\n]+/g, ' ')]
      .map((c) => (known.has(c.codePointAt(0)!) ? c : (BASE_LETTERS[c] ?? c.normalize('NFD').replace(/[\u0300-\u036f]/g, ''))))
      .map((c) => (c.length === 1 && known.has(c.codePointAt(0)!) ? c : '?'))
      .join('');
  const write = (page: PDFPage, value: string, x: number, y: number, opts: { font: PDFFont; size: number; width: number; color?: ReturnType<typeof rgb> }) => {
    const { font, size, width, color } = opts;
    let s = clean(value);
    if (font.widthOfTextAtSize(s, size) > width) {
      while (s.length > 1 && font.widthOfTextAtSize(`${s}…`, size) > width) s = s.slice(0, -1);
      s = `${s.trimEnd()}…`;
    }
    page.drawText(s, { x, y, font, size, color });
  };
  return Object.assign(write, { clean });
}

const nameOf = (p: SheetPupil) => [p.lastName?.toUpperCase(), p.firstName].filter(Boolean).join(' ') || 'Élève';

/** The pupil's name is added per page (nameWriter); a blank sheet has lines to write it on. */
function drawHeader(page: PDFPage, fonts: Fonts, text: Writer, chapter: string, blank: boolean) {
  text(page, chapter, MARGIN, H - MARGIN - 10, { font: fonts.bold, size: 10, width: TEXT_WIDTH, color: GREY });
  if (blank) {
    text(page, 'Nom : ______________________  Prénom : ______________________', MARGIN, H - MARGIN - 32, {
      font: fonts.regular,
      size: 11,
      width: TEXT_WIDTH,
    });
  }
}

function drawAnswerPage(page: PDFPage, fonts: Fonts, text: Writer, t: { chapter: string; blank: boolean; exercise: string; page: string }) {
  drawHeader(page, fonts, text, t.chapter, t.blank);
  text(page, t.exercise, MARGIN, H - MARGIN - 54, { font: fonts.bold, size: 12, width: TEXT_WIDTH });
  text(page, t.page, MARGIN, H - MARGIN - 72, { font: fonts.regular, size: 10, width: TEXT_WIDTH, color: GREY });
  // The answer frame goes round the second code: a notch in its bottom-left corner.
  const bottom = MARGIN + 18;
  const top = QR_Y - QR_CLEAR;
  const right = W - MARGIN;
  const notchX = QR2_X + QR_SIZE + QR_CLEAR;
  const notchY = QR2_Y + QR_SIZE + QR_CLEAR;
  // drawSvgPath's y axis points down from the given origin: the page's top-left corner.
  const y = (v: number) => H - v;
  page.drawSvgPath(
    `M ${MARGIN} ${y(top)} L ${right} ${y(top)} L ${right} ${y(bottom)} L ${notchX} ${y(bottom)} L ${notchX} ${y(notchY)} L ${MARGIN} ${y(notchY)} Z`,
    { x: 0, y: H, borderColor: LINE, borderWidth: 0.8 },
  );
  text(page, 'Écrivez uniquement dans le cadre, au stylo foncé. Ne pliez pas la feuille et ne couvrez pas les codes.', notchX, MARGIN, {
    font: fonts.regular,
    size: 8,
    width: right - notchX,
    color: GREY,
  });
}

function drawCover(page: PDFPage, fonts: Fonts, text: Writer, input: SheetInput, blank: boolean, pages: number) {
  drawHeader(page, fonts, text, input.chapter.title, blank);
  text(page, 'Feuilles réponses', MARGIN, H - MARGIN - 60, { font: fonts.bold, size: 20, width: TEXT_WIDTH });
  if (input.centreName) {
    text(page, `Centre : ${input.centreName}`, MARGIN, H - MARGIN - 80, { font: fonts.regular, size: 11, width: TEXT_WIDTH });
  }
  const width = W - 2 * MARGIN;
  let y = QR_Y - 40;
  const line = (value: string, opts: { bold?: boolean; size?: number } = {}) => {
    text(page, value, MARGIN, y, { font: opts.bold ? fonts.bold : fonts.regular, size: opts.size ?? 11, width });
    y -= (opts.size ?? 11) + 8;
  };
  line('Exercices', { bold: true, size: 13 });
  input.exercises.forEach((e, i) => line(`Exercice ${i + 1} : ${e.title} (${pages} page${pages > 1 ? 's' : ''})`));
  y -= 12;
  line('Consignes', { bold: true, size: 13 });
  line('• Répondez à chaque exercice sur les pages qui portent son titre, dans le cadre.');
  line('• Utilisez les pages supplémentaires si besoin ; rendez toutes les pages, même vides.');
  line('• Ne pliez pas les feuilles, ne les agrafez pas et ne couvrez pas les codes carrés.');
  if (blank) line('• Écrivez vos nom et prénom en haut de chaque page.');
}
