import { PDFDocument, PDFName, rgb, type PDFEmbeddedPage, type PDFFont, type PDFPage } from '@cantoo/pdf-lib';
import { embedFace, embedFonts } from '../pdf/fonts.js';
import { encodeSheetCode } from './payload.js';
import { registerQrImage } from './qr-image.js';

/** A4 in points. */
const W = 595.28;
const H = 841.89;
/** The printed sheet's size in points (A4). */
export const SHEET_SIZE = { width: W, height: H } as const;
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
/**
 * The name band, in points from the page's top-left corner (decision 130): the printed name (or, on a blank
 * sheet, the line to write it on) lies inside it on every page, cover included. An anonymous chapter's sheets
 * draw it as a framed band labelled « Nom — zone masquée à la correction »; whatever the sheet, the copies of
 * an anonymous chapter have it painted white (sorting/mask-names.ts), `NAME_MASK_MARGIN` beyond each side.
 */
export const NAME_BAND = { left: MARGIN, top: 52, right: QR_X - QR_CLEAR, bottom: 80 } as const;
/** White added around the band when it is masked: a few codes' worth of reading error, and a name overflowing the band. */
export const NAME_MASK_MARGIN = 6;
/** The band's label (docs/product.md#design-3: pupils see where not to write). */
const NAME_BAND_LABEL = 'Nom — zone masquée à la correction';
/** Anonymous sheets: the lines under the band move down so the mask never cuts them. */
const ANONYMOUS_SHIFT = 8;
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
  /** The chapter's anonymous correction (decision 130): the name is printed in a framed band that is masked. */
  anonymous?: boolean;
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
  // Decision 143: DejaVu Sans, subset, so that every name and title prints with its own letters.
  const { drawable, ...fonts } = await embedFonts(scratch);
  const text = textWriter(drawable);
  const pages = 1 + input.spare;
  const blank = input.pupils === null;
  const anonymous = input.anonymous ?? false;

  const coverPage = scratch.addPage([W, H]);
  drawCover(coverPage, fonts, text, input, { blank, anonymous }, pages);
  const answerPages: PDFPage[] = [];
  input.exercises.forEach((exercise, i) => {
    for (let p = 1; p <= pages; p++) {
      const page = scratch.addPage([W, H]);
      drawAnswerPage(page, fonts, text, {
        chapter: input.chapter.title,
        blank,
        anonymous,
        exercise: `Exercice ${i + 1} : ${exercise.title}`,
        page: `Page ${p} sur ${pages}${p > 1 ? ' (page supplémentaire, à rendre même vide)' : ''}`,
      });
      answerPages.push(page);
    }
  });
  // The templates' fonts are written into the scratch document only when it is flushed.
  await scratch.flush();
  const [cover, ...answers] = await doc.embedPages([coverPage, ...answerPages]);
  const nameFont = await embedFace(doc, 'bold');
  const nameOfPupil = nameWriter(nameFont, text.clean, anonymous);

  for (const pupil of input.pupils ?? [null]) {
    const name = pupil ? nameOfPupil(pupil) : '';
    const addPage = (template: PDFEmbeddedPage, exerciseId: string | null, p: number) => {
      const page = doc.addPage([W, H]);
      page.node.setXObject(TEMPLATE, template.ref);
      page.node.setXObject(
        QR,
        registerQrImage(
          doc,
          encodeSheetCode(input.secret, { chapterId: input.chapter.id, exerciseId, userId: pupil?.id ?? null, page: p }),
        ),
      );
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
function nameWriter(font: PDFFont, clean: (s: string) => string, anonymous: boolean) {
  // In the band: below its label when the band is drawn (anonymous), at the band's middle otherwise.
  const baseline = anonymous ? NAME_BAND.bottom - 6 : MARGIN + 32;
  const x = anonymous ? MARGIN + 4 : MARGIN;
  const width = anonymous ? TEXT_WIDTH - 8 : TEXT_WIDTH;
  return (pupil: SheetPupil) => {
    let s = clean(nameOf(pupil));
    while (s.length > 1 && font.widthOfTextAtSize(s, NAME_SIZE) > width) s = `${s.slice(0, -2).trimEnd()}…`;
    return `BT /Fn ${NAME_SIZE} Tf ${x} ${(H - baseline).toFixed(2)} Td ${font.encodeText(s).toString()} Tj ET\n`;
  };
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

type Writer = ((
  page: PDFPage,
  value: string,
  x: number,
  y: number,
  opts: { font: PDFFont; size: number; width: number; color?: ReturnType<typeof rgb> },
) => void) & {
  clean: (value: string) => string;
};

/**
 * Text in the embedded font (decision 143): whitespace runs fold to one space (no-break spaces stay), a
 * letter the font lacks loses its accent or becomes '?', and long texts are cut with an ellipsis rather
 * than overflow the code.
 */
function textWriter(drawable: (value: string) => string): Writer {
  const clean = (value: string) => drawable(value.replace(/[ \t\r\n]+/g, ' '));
  const write = (
    page: PDFPage,
    value: string,
    x: number,
    y: number,
    opts: { font: PDFFont; size: number; width: number; color?: ReturnType<typeof rgb> },
  ) => {
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

interface Layout {
  blank: boolean;
  anonymous: boolean;
}

/**
 * The pupil's name is added per page (nameWriter); a blank sheet has lines to write it on. Under anonymous
 * correction both lie in a framed band, labelled as masked (decision 130).
 */
function drawHeader(page: PDFPage, fonts: Fonts, text: Writer, chapter: string, layout: Layout) {
  text(page, chapter, MARGIN, H - MARGIN - 10, { font: fonts.bold, size: 10, width: TEXT_WIDTH, color: GREY });
  if (layout.anonymous) {
    const { left, top, right, bottom } = NAME_BAND;
    page.drawRectangle({ x: left, y: H - bottom, width: right - left, height: bottom - top, borderColor: LINE, borderWidth: 0.8 });
    const size = 7;
    const label = text.clean(NAME_BAND_LABEL);
    text(page, label, right - 4 - fonts.regular.widthOfTextAtSize(label, size), H - top - 8, {
      font: fonts.regular,
      size,
      width: right - left,
      color: GREY,
    });
  }
  if (layout.blank) {
    const baseline = layout.anonymous ? NAME_BAND.bottom - 6 : MARGIN + 32;
    const x = layout.anonymous ? MARGIN + 4 : MARGIN;
    text(page, 'Nom : ______________________  Prénom : ______________________', x, H - baseline, {
      font: fonts.regular,
      size: 11,
      width: TEXT_WIDTH - (x - MARGIN) * 2,
    });
  }
}

function drawAnswerPage(page: PDFPage, fonts: Fonts, text: Writer, t: Layout & { chapter: string; exercise: string; page: string }) {
  drawHeader(page, fonts, text, t.chapter, t);
  const shift = t.anonymous ? ANONYMOUS_SHIFT : 0;
  text(page, t.exercise, MARGIN, H - MARGIN - 54 - shift, { font: fonts.bold, size: 12, width: TEXT_WIDTH });
  text(page, t.page, MARGIN, H - MARGIN - 72 - shift / 2, { font: fonts.regular, size: 10, width: TEXT_WIDTH, color: GREY });
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

function drawCover(page: PDFPage, fonts: Fonts, text: Writer, input: SheetInput, layout: Layout, pages: number) {
  const { blank } = layout;
  drawHeader(page, fonts, text, input.chapter.title, layout);
  const shift = layout.anonymous ? ANONYMOUS_SHIFT * 2 : 0;
  text(page, 'Feuilles réponses', MARGIN, H - MARGIN - 60 - shift, { font: fonts.bold, size: 20, width: TEXT_WIDTH });
  if (input.centreName) {
    text(page, `Centre : ${input.centreName}`, MARGIN, H - MARGIN - 80 - shift, { font: fonts.regular, size: 11, width: TEXT_WIDTH });
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
  if (blank)
    line(
      layout.anonymous
        ? '• Écrivez vos nom et prénom dans le cadre « Nom » en haut de chaque page.'
        : '• Écrivez vos nom et prénom en haut de chaque page.',
    );
  // Decision 130: the band is masked for correctors; a name written elsewhere is not.
  if (layout.anonymous) line('• Correction anonyme : n’écrivez votre nom nulle part ailleurs que dans le cadre « Nom ».');
}
