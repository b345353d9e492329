import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { repeatedDeflate, xlsxBomb, zipArchive } from '../../test/fixtures/zip-bombs.js';
import { ArchiveBombError, ArchiveReadError, unzipWithin } from './unzip-within.js';

const MIB = 1024 * 1024;
const all = () => true;

describe('unzipWithin (decision 132)', () => {
  it('reads stored and deflated entries, only the wanted ones', () => {
    const zip = zipArchive([
      { name: 'a.xml', data: Buffer.from('<a/>') },
      { name: 'b.xml', deflated: deflateRawSync('<b>bé</b>'), size: Buffer.byteLength('<b>bé</b>') },
      { name: 'image.png', deflated: Buffer.from([0xff, 0xff, 0xff]) },
    ]);
    const out = unzipWithin(zip, { budget: MIB, maxEntries: 10, wanted: (n) => n.endsWith('.xml') });
    expect(Object.keys(out)).toEqual(['a.xml', 'b.xml']);
    expect(Buffer.from(out['b.xml']).toString()).toBe('<b>bé</b>');
  });

  it('stops a bomb while it inflates, whatever its headers declare', () => {
    for (const declaredSize of [undefined, 100]) {
      const started = performance.now();
      expect(() => unzipWithin(xlsxBomb(200, { declaredSize }), { budget: 8 * MIB, maxEntries: 10, wanted: all })).toThrow(
        ArchiveBombError,
      );
      expect(performance.now() - started).toBeLessThan(2000);
    }
    // The budget is shared: entries each under it, together past it.
    const part = repeatedDeflate('', 5, '');
    const parts = [1, 2].map((i) => ({ name: `s${i}.xml`, ...part }));
    expect(() => unzipWithin(zipArchive(parts), { budget: 8 * MIB, maxEntries: 10, wanted: all })).toThrow(ArchiveBombError);
    expect(Object.keys(unzipWithin(zipArchive(parts), { budget: 11 * MIB, maxEntries: 10, wanted: all }))).toHaveLength(2);
  });

  it('refuses what is no readable ZIP', () => {
    const zip = zipArchive([{ name: 'a.xml', data: Buffer.from('<a/>') }]);
    const read =
      (bytes: Buffer, maxEntries = 10) =>
      () =>
        unzipWithin(bytes, { budget: MIB, maxEntries, wanted: all });
    expect(read(Buffer.from('PK\u0003\u0004 pas une archive'))).toThrow(ArchiveReadError);
    expect(read(zip.subarray(0, zip.length - 30))).toThrow(ArchiveReadError);
    expect(read(zip, 0)).toThrow(ArchiveReadError);
    expect(read(zipArchive([{ name: 'a.xml', deflated: Buffer.from('garbage, not deflate') }]))).toThrow(ArchiveReadError);
  });
});
