import { PDFArray, PDFDict, PDFName, PDFRef, PDFStream, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';

/**
 * Decision 131: what a PDF says besides its pages, removed from every PDF a user uploads before it is
 * stored, so that a copy corrected anonymously (docs/product.md#design-3) does not name its author:
 * the document information dictionary (/Author, /Title, /Creator…), every XMP metadata stream
 * (/Metadata of the catalog, of pages, of pictures), applications' private data (/PieceInfo), and
 * what a viewer would run or open for a corrector: document JavaScript (/Names /JavaScript),
 * additional actions (/AA), JavaScript, launch and form-submission actions (/OpenAction, /A),
 * attachments (/Names /EmbeddedFiles, /AF, portfolios, /FileAttachment annotations, any /EF).
 * The pages' content, fonts and pictures are kept as they are (their streams are not even decoded).
 *
 * Edits `doc` in place; returns whether anything was removed (then the caller saves it). The objects
 * no longer reachable from the catalog are dropped too, so that no removed value stays in the file.
 */
export function stripPrivateParts(doc: PDFDocument): boolean {
  const { context } = doc;
  let changed = false;
  const drop = (dict: PDFDict, key: string) => {
    if (dict.delete(PDFName.of(key))) changed = true;
  };

  if (context.trailerInfo.Info) {
    context.trailerInfo.Info = undefined;
    changed = true;
  }
  const catalog = context.lookupMaybe(context.trailerInfo.Root, PDFDict);
  const names = catalog?.lookupMaybe(PDFName.of('Names'), PDFDict);
  if (names) for (const key of ['JavaScript', 'EmbeddedFiles']) drop(names, key);
  if (catalog) {
    // A portfolio is a set of attachments; the opening action, unless it only goes to a page.
    drop(catalog, 'Collection');
    const open = catalog.get(PDFName.of('OpenAction'));
    if (open && !(context.lookup(open) instanceof PDFArray) && !isPlainGoTo(doc, open)) drop(catalog, 'OpenAction');
  }

  const visit = (object: PDFObject | undefined, seen: Set<PDFObject>) => {
    if (!object || seen.has(object)) return;
    seen.add(object);
    if (object instanceof PDFArray) for (const item of object.asArray()) visit(item, seen);
    const dict = object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : null;
    if (!dict) return;
    for (const key of ['Metadata', 'PieceInfo', 'AA', 'AF', 'EF']) drop(dict, key);
    const action = dict.get(PDFName.of('A'));
    if (action && isActiveAction(doc, action)) drop(dict, 'A');
    const annots = dict.lookupMaybe(PDFName.of('Annots'), PDFArray);
    if (annots) {
      for (let i = annots.size() - 1; i >= 0; i--) {
        const subtype = context.lookupMaybe(annots.get(i), PDFDict)?.lookupMaybe(PDFName.of('Subtype'), PDFName);
        if (subtype === PDFName.of('FileAttachment')) {
          annots.remove(i);
          changed = true;
        }
      }
    }
    for (const value of dict.values()) if (!(value instanceof PDFRef)) visit(value, seen);
  };
  const seen = new Set<PDFObject>();
  for (const [, object] of context.enumerateIndirectObjects()) visit(object, seen);

  // An encryption that left everything in clear but the attachments (decision 115) has nothing left to protect.
  if (doc.isEncrypted) context.trailerInfo.Encrypt = undefined;
  // Objects nothing reaches are written by pdf-lib and kept in the sent bytes: an earlier version's
  // information dictionary left by an incremental save, the streams unlinked above.
  return dropUnreachable(doc) > 0 || changed;
}

/** Actions a viewer runs or that reach outside the document: JavaScript, launching, importing, submitting. */
const ACTIVE = new Set(['JavaScript', 'Launch', 'ImportData', 'SubmitForm', 'RichMediaExecute', 'GoToE']);

function isActiveAction(doc: PDFDocument, value: PDFObject, depth = 0): boolean {
  const action = doc.context.lookup(value);
  if (!(action instanceof PDFDict) || depth > 32) return false;
  const kind = action.lookupMaybe(PDFName.of('S'), PDFName)?.decodeText();
  if (kind && ACTIVE.has(kind)) return true;
  const next = action.get(PDFName.of('Next'));
  const chain = next ? doc.context.lookup(next) : undefined;
  const following = chain instanceof PDFArray ? chain.asArray() : next ? [next] : [];
  return following.some((n) => isActiveAction(doc, n, depth + 1));
}

/** An opening action that only shows a page: kept, it says nothing of its author. */
function isPlainGoTo(doc: PDFDocument, value: PDFObject): boolean {
  const action = doc.context.lookup(value);
  return (
    action instanceof PDFDict && action.lookupMaybe(PDFName.of('S'), PDFName) === PDFName.of('GoTo') && !action.has(PDFName.of('Next'))
  );
}

/** Deletes the objects the catalog no longer reaches (pdf-lib writes every object it holds); returns how many held data. */
function dropUnreachable(doc: PDFDocument): number {
  const { context } = doc;
  const reached = new Set<string>();
  const stack: PDFObject[] = [context.trailerInfo.Root, context.trailerInfo.Encrypt].filter((o): o is PDFObject => o !== undefined);
  while (stack.length > 0) {
    const object = stack.pop()!;
    if (object instanceof PDFRef) {
      if (reached.has(object.tag)) continue;
      reached.add(object.tag);
      const target = context.lookup(object);
      if (target) stack.push(target);
    } else if (object instanceof PDFArray) {
      stack.push(...object.asArray());
    } else if (object instanceof PDFDict) {
      stack.push(...object.values());
    } else if (object instanceof PDFStream) {
      stack.push(object.dict);
    }
  }
  let dropped = 0;
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (reached.has(ref.tag)) continue;
    context.delete(ref);
    // The file's own cross-reference and object streams are unreachable by nature: pdf-lib writes its own.
    const type = object instanceof PDFStream ? object.dict.lookupMaybe(PDFName.of('Type'), PDFName) : undefined;
    if (type !== PDFName.of('XRef') && type !== PDFName.of('ObjStm')) dropped++;
  }
  return dropped;
}
