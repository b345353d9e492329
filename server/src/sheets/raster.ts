/** An 8-bit greyscale raster, row by row (0 black, 255 white). */
export interface Gray {
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
