import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFStream,
  PDFString,
  rgb,
  StandardFonts,
} from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, chapters, exercises, institutions } from '../src/db/schema.js';
import { parsePgm } from '../src/sheets/raster.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';
import { multipart } from './ops-helpers.js';

/**
 * Decision 131: a PDF sent by a pupil (POST /pdfs) or by staff (a scan) is stored and served without
 * its author: no information dictionary, no XMP, no document JavaScript or opening action, no
 * attachment, and its pages draw exactly as before.
 */
const run = promisify(execFile);
type Headers = Record<string, string>;
let t: TestApp;
let dir: string;
let exerciseId: string;
let paperId: string;
let pupil: { id: string; headers: Headers };
let teacher: { id: string; headers: Headers };

const AUTHOR = 'Ines Moreau';
const SECRETS = [
  AUTHOR,
  'Copie de',
  'Brouillon perso',
  'olympiade, moreau',
  'Writer 7.6',
  'LibreOffice',
  'app.alert',
  'xmpmeta',
  'carnet-ines.txt',
  'Notes privées',
];

beforeAll(async () => {
  t = await buildTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'olympe-metadata-'));
  const db = t.database.db;
  const [school] = await db.insert(institutions).values({ name: 'Collège Sophie Germain' }).returning();
  const [online] = await db.insert(chapters).values({ title: 'Tour en ligne' }).returning();
  await db.insert(accessGroups).values({ chapterId: online.id, position: 0 });
  [{ id: exerciseId }] = await db
    .insert(exercises)
    .values({ chapterId: online.id, position: 0, title: 'Preuve', answerFormat: 'pdf' })
    .returning();
  [{ id: paperId }] = await db.insert(chapters).values({ title: 'Coupe papier', offline: true }).returning();
  pupil = await createUser(t, 'pupil', { ...PUPIL_PROFILE, institutionId: school.id });
  teacher = await createUser(t, 'teacher', { institutionId: school.id });
}, 60_000);
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const XMP = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>${AUTHOR}</rdf:li></rdf:Seq></dc:creator></rdf:Description>
</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

/** A pupil's copy as a word processor writes it: every field of the information dictionary, XMP, a script, attachments. */
async function wordProcessorCopy(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setAuthor(AUTHOR);
  doc.setTitle('Copie de Ines Moreau');
  doc.setSubject('Brouillon perso');
  doc.setKeywords(['olympiade, moreau']);
  doc.setCreator('Writer 7.6');
  doc.setProducer('LibreOffice 7.6');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([300, 200]);
  page.drawText('Exercice 1 : x = 42', { x: 30, y: 120, size: 18, font, color: rgb(0, 0, 0) });
  page.drawRectangle({ x: 30, y: 40, width: 120, height: 40, color: rgb(0.2, 0.2, 0.2) });
  const { context, catalog } = doc;
  // XMP, compressed: only a decompressed search finds its author.
  const xmp = () => context.register(context.flateStream(XMP, { Type: 'Metadata', Subtype: 'XML' }));
  catalog.set(PDFName.of('Metadata'), xmp());
  page.node.set(PDFName.of('Metadata'), xmp());
  catalog.set(
    PDFName.of('OpenAction'),
    context.register(context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of(`app.alert('${AUTHOR}')`) })),
  );
  catalog.set(PDFName.of('AA'), context.obj({ WC: context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') }) }));
  doc.addJavaScript('hello', `app.alert('${AUTHOR}');`);
  await doc.attach(Buffer.from(`Notes privées de ${AUTHOR}`), 'carnet-ines.txt', { mimeType: 'text/plain' });
  // An attachment pinned on the page (a /FileAttachment annotation), compressed too.
  const file = context.register(context.flateStream(`Notes privées de ${AUTHOR}`, { Type: 'EmbeddedFile' }));
  const spec = context.register(context.obj({ Type: 'Filespec', F: PDFString.of('carnet-ines.txt'), EF: { F: file } }));
  const pin = context.register(
    context.obj({ Type: 'Annot', Subtype: 'FileAttachment', Rect: [250, 150, 270, 170], FS: spec, Contents: PDFString.of(AUTHOR) }),
  );
  page.node.set(PDFName.of('Annots'), context.obj([pin]));
  return doc.save();
}

/** Every name, key and string and every decoded stream of the file, and its raw bytes, as text. */
async function everythingIn(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const parts = [Buffer.from(bytes).toString('latin1')];
  const walk = (o: unknown) => {
    if (o instanceof PDFString || o instanceof PDFHexString) parts.push(o.decodeText());
    else if (o instanceof PDFArray) o.asArray().forEach(walk);
    else if (o instanceof PDFName) parts.push(o.toString());
    else if (o instanceof PDFDict) {
      parts.push(o.keys().join(' '));
      o.values().forEach(walk);
    } else if (o instanceof PDFStream) {
      walk(o.dict);
      if (o instanceof PDFRawStream) parts.push(Buffer.from(decodePDFRawStream(o).decode()).toString('latin1'));
    }
  };
  for (const [, object] of doc.context.enumerateIndirectObjects()) walk(object);
  return parts.join('\n');
}

async function firstPagePixels(bytes: Uint8Array): Promise<Buffer> {
  const file = path.join(dir, `${Math.random().toString(16).slice(2)}.pdf`);
  await writeFile(file, bytes);
  // Without annotations: the attachment's pin, removed, is drawn on the page as sent.
  const { stdout } = await run('pdftoppm', ['-gray', '-r', '72', '-hide-annotations', '-f', '1', '-l', '1', file], {
    encoding: 'buffer',
    maxBuffer: 16 << 20,
  });
  return Buffer.from(parsePgm(stdout).data);
}

async function pdfinfo(bytes: Uint8Array): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(16).slice(2)}.pdf`);
  await writeFile(file, bytes);
  return (await run('pdfinfo', [file])).stdout;
}

async function sendAndFetch(headers: Headers, fields: Record<string, string>, bytes: Uint8Array): Promise<Buffer> {
  const body = multipart(fields, { name: 'copie-ines-moreau.pdf', bytes });
  const up = await inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...headers, ...body.headers }, payload: body.payload });
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const res = await t.app.inject({ method: 'GET', url: `/api/${up.body.path}`, headers });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

describe('uploaded PDFs lose their author (decision 131)', () => {
  it('a pupil’s copy is served without information dictionary, XMP, scripts or attachments, and draws the same', async () => {
    const sent = await wordProcessorCopy();
    // The file as sent carries every secret, some only once decompressed.
    const before = await everythingIn(sent);
    for (const secret of SECRETS) expect(before, secret).toContain(secret);
    expect(Buffer.from(sent).toString('latin1')).not.toContain('xmpmeta');
    expect(await pdfinfo(sent)).toMatch(/Author:\s+Ines Moreau/);

    const served = await sendAndFetch(pupil.headers, { exercise: exerciseId }, sent);
    const after = await everythingIn(served);
    for (const secret of SECRETS) expect(after, secret).not.toContain(secret);
    for (const key of ['/Info', '/Metadata', '/JavaScript', '/OpenAction', '/AA', '/EmbeddedFiles', '/FileAttachment', '/Filespec']) {
      expect(after, key).not.toContain(key);
    }
    const doc = await PDFDocument.load(served, { updateMetadata: false });
    expect([doc.getAuthor(), doc.getTitle(), doc.getSubject(), doc.getKeywords(), doc.getCreator(), doc.getProducer()]).toEqual(
      Array(6).fill(undefined),
    );
    expect(doc.getPageCount()).toBe(1);
    expect(await pdfinfo(served)).not.toMatch(/Author|Title|Creator|Producer|Subject|Keywords/);

    // The page as drawn: the same pixels, and not a blank page.
    const [was, is] = await Promise.all([firstPagePixels(sent), firstPagePixels(served)]);
    expect(was.some((v) => v < 128)).toBe(true);
    expect(is.equals(was)).toBe(true);
  }, 60_000);

  it('a scan sent by staff is stored without its copier’s information dictionary either', async () => {
    const doc = await PDFDocument.create();
    doc.setAuthor(AUTHOR);
    doc.setCreator('Copieur salle 12');
    doc.addPage([200, 200]).drawText('1', { x: 50, y: 50, size: 30 });
    const served = await sendAndFetch(teacher.headers, { chapter: paperId }, await doc.save());
    const after = await everythingIn(served);
    expect(after).not.toContain(AUTHOR);
    expect(after).not.toContain('Copieur salle 12');
  }, 60_000);
});
