import QRCode from 'qrcode';

/**
 * QR options of every sheet code. ECC level Q: 25 % of the code may be lost (pen marks, noise).
 * A fixed mask skips the library's trial of all eight (two thirds of its time); any mask reads.
 */
const OPTIONS = { errorCorrectionLevel: 'Q', maskPattern: 2 } as const;

export interface QrBits {
  /** Modules across (no quiet zone: the white page around the code is the quiet zone). */
  size: number;
  /** One bit per module, 1 = dark, rows top to bottom, each row padded to a byte (a PDF 1-bit image). */
  bits: Uint8Array;
}

/**
 * A QR code as a 1-bit image. Drawn as a PDF image mask, scaled without interpolation, it prints
 * sharp at any resolution and weighs about 200 bytes, so no page needs compressing.
 */
export function qrBits(bytes: Uint8Array): QrBits {
  const qr = QRCode.create([{ data: bytes, mode: 'byte' }], OPTIONS);
  const n = qr.modules.size;
  const data = qr.modules.data;
  const stride = Math.ceil(n / 8);
  const bits = new Uint8Array(stride * n);
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      if (data[row * n + col]) bits[row * stride + (col >> 3)] |= 0x80 >> (col & 7);
    }
  }
  return { size: n, bits };
}
