/** An 8-bit greyscale raster, row by row (0 black, 255 white). */
export interface Gray {
  width: number;
  height: number;
  data: Uint8Array;
}

/** An 8-bit RGB raster, row by row, three samples a pixel. */
export interface Rgb {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Interleaved samples (1 grey, 3 RGB, 4 RGBA or CMYK-as-RGBA from jpeg-js) to grey. */
export function toGray(data: Uint8Array, width: number, height: number, channels: number): Gray {
  const n = width * height;
  if (channels === 1) return { width, height, data: data.subarray(0, n) };
  const out = new Uint8Array(n);
  for (let i = 0, j = 0; i < n; i++, j += channels) {
    // Rec. 601 luma in integers.
    out[i] = (data[j] * 77 + data[j + 1] * 150 + data[j + 2] * 29) >> 8;
  }
  return { width, height, data: out };
}

/** RGBA samples of a grey raster (what a decoder of canvas ImageData takes). */
export function toRgba(img: Gray): Uint8ClampedArray {
  const out = new Uint8ClampedArray(img.width * img.height * 4);
  for (let i = 0, j = 0; i < img.data.length; i++, j += 4) {
    const v = img.data[i];
    out[j] = v;
    out[j + 1] = v;
    out[j + 2] = v;
    out[j + 3] = 255;
  }
  return out;
}

/** A binary PGM ("P5", 8 bits), as pdftoppm -gray writes it. */
export function parsePgm(buf: Uint8Array): Gray {
  const head = Buffer.from(buf.buffer, buf.byteOffset, Math.min(buf.byteLength, 64)).toString('latin1');
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(head);
  if (!header || header[3] !== '255') throw new Error('not an 8-bit binary PGM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const start = header[0].length;
  if (buf.byteLength < start + width * height) throw new Error('truncated PGM');
  return { width, height, data: buf.subarray(start, start + width * height) };
}

/** A binary PPM ("P6", 8 bits), as pdftoppm writes it without -gray. */
export function parsePpm(buf: Uint8Array): Rgb {
  const head = Buffer.from(buf.buffer, buf.byteOffset, Math.min(buf.byteLength, 64)).toString('latin1');
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(head);
  if (!header || header[3] !== '255') throw new Error('not an 8-bit binary PPM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const start = header[0].length;
  if (buf.byteLength < start + width * height * 3) throw new Error('truncated PPM');
  return { width, height, data: buf.subarray(start, start + width * height * 3) };
}

/**
 * Share of the page covered with ink: the raster cut into 4 × 4 cells, a cell inked when its mean
 * is darker than mid-grey (a scanner's speckles and a copier's grey background are not ink), the
 * outer 5 % of each side left out (shadows of the sheet's edges, punch holes).
 */
export function inkShare(img: Gray): number {
  const cell = 4;
  const x0 = Math.floor(img.width * 0.05);
  const y0 = Math.floor(img.height * 0.05);
  const cols = Math.floor((img.width - 2 * x0) / cell);
  const rows = Math.floor((img.height - 2 * y0) / cell);
  if (cols <= 0 || rows <= 0) return 0;
  let inked = 0;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let sum = 0;
      for (let dy = 0; dy < cell; dy++) {
        const row = (y0 + r * cell + dy) * img.width + x0 + c * cell;
        for (let dx = 0; dx < cell; dx++) sum += img.data[row + dx];
      }
      if (sum < 128 * cell * cell) inked++;
    }
  }
  return inked / (rows * cols);
}
