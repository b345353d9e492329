import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { repeatedDeflate } from '../../test/fixtures/zip-bombs.js';
import { pageImage } from './scan-images.js';

describe('pageImage', () => {
  it('reads no more than a scanner page’s operators of a content stream that inflates to 256 MiB (decision 132)', async () => {
    const doc = await PDFDocument.create();
    const width = 16;
    const picture = jpeg.encode({ data: Buffer.alloc(width * width * 4, 200), width, height: width }, 50).data;
    const page = doc.addPage([595, 842]);
    page.drawImage(await doc.embedJpg(picture), { x: 0, y: 0, width: 595, height: 842 });
    // The page's content: the drawing, then 256 MiB of blanks, as a zlib stream (header, raw deflate, no checksum).
    const raw = repeatedDeflate('q 595 0 0 842 0 0 cm /Im0 Do Q\n', 256, '\n');
    const bomb = Buffer.concat([Buffer.from([0x78, 0x9c]), raw.deflated, Buffer.alloc(4)]);
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(bomb, { Filter: 'FlateDecode' })));
    const loaded = await PDFDocument.load(await doc.save());

    const before = process.memoryUsage().arrayBuffers;
    const started = performance.now();
    const image = pageImage(loaded, loaded.getPage(0));
    const ms = performance.now() - started;
    // The picture is still found; the drawing matrix, past the reading's cap, is taken as upright.
    expect(image).toMatchObject({ picture: { kind: 'jpeg' }, displayTurn: 0 });
    expect(ms).toBeLessThan(1000);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
  });
});
