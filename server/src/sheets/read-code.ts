import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import { decodeJpeg, type PageImage } from './scan-images.js';
import { toRgba, type Gray } from './raster.js';

export interface FoundCode {
  bytes: Uint8Array;
  /** Clockwise turn of the code in the picture, in degrees: 0 upright, 90 top edge to the right; skew shows as a few degrees. */
  angle: number;
  /**
   * The symbol's corners in the picture's pixels, named in the code's own frame (topLeft is the printed code's
   * top-left corner whatever its turn): where the sheet lies on the page (sorting/mask-names.ts, decision 130).
   */
  corners: CodeCorners;
}

export interface Point {
  x: number;
  y: number;
}

export interface CodeCorners {
  topLeft: Point;
  topRight: Point;
  bottomRight: Point;
  bottomLeft: Point;
}

/**
 * ZXing-C++ compiled to WebAssembly (npm zxing-wasm): it decodes the scanner's JPEG itself and
 * finds a code whatever its turn, skew or noise, in about 50 ms for a 150 dpi page. Its loader
 * would fetch the .wasm from a CDN: the copy inside the package is handed over instead, so
 * decoding never touches the network.
 */
let ready: Promise<unknown> | undefined;
function loadReader(): Promise<unknown> {
  ready ??= (async () => {
    const wasm = await readFile(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
    return prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
      fireImmediately: true,
    });
  })();
  return ready;
}

const OPTIONS: ReaderOptions = {
  formats: ['QRCode'],
  tryHarder: true,
  tryRotate: true,
  tryInvert: false,
  // A sheet carries two codes (render.ts) and a page may carry others (a statement's link): read a few.
  maxNumberOfSymbols: 4,
};

/**
 * The QR codes ZXing reads on a scanned page that `accept` recognises as sheet codes. A JPEG the
 * WebAssembly decoder cannot open (CMYK) is decoded in JavaScript (jpeg-js) and read as pixels.
 */
export async function findSheetCodes(image: PageImage, accept: (bytes: Uint8Array) => boolean): Promise<FoundCode[]> {
  await loadReader();
  const { picture } = image;
  let results;
  if (picture.kind === 'jpeg') {
    try {
      results = await readBarcodes(picture.bytes, OPTIONS);
    } catch {
      results = await readPixels(decodeJpeg(picture.bytes));
    }
  } else {
    results = await readPixels(picture.gray);
  }
  // A mirrored code is never printed: it is the show-through of the front seen on a duplex back.
  return results
    .filter((r) => r.isValid && !r.isMirrored && accept(r.bytes))
    .map((r) => ({
      bytes: r.bytes,
      angle: r.orientation,
      corners: {
        topLeft: r.position.topLeft,
        topRight: r.position.topRight,
        bottomRight: r.position.bottomRight,
        bottomLeft: r.position.bottomLeft,
      },
    }));
}

/** A raster as the ImageData-like object zxing-wasm takes (it only reads data, width and height). */
const readPixels = (gray: Gray) =>
  readBarcodes({ data: toRgba(gray), width: gray.width, height: gray.height, colorSpace: 'srgb' } as unknown as ImageData, OPTIONS);

/** The multiple of 90° nearest to an angle, in [0, 360). */
export const nearestQuarter = (angle: number) => (((Math.round(angle / 90) * 90) % 360) + 360) % 360;
