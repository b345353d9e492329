import { PDFDocument } from '@cantoo/pdf-lib';
import sharp, { type OutputInfo, type Sharp, type SharpOptions } from 'sharp';

/**
 * Photos of a proof made into one PDF (decision 140), in a PDF worker thread (pdf-pool.ts), never on the
 * event loop: one A4 page a photo, in the order sent, each photo upright (its EXIF orientation applied),
 * re-encoded as a JPEG of at most A4 at 300 dpi. JPEG and PNG are decoded by sharp (libvips, shipped
 * inside its npm package), HEIC/HEIF by heic-decode (libheif in WebAssembly: sharp's build has no HEVC
 * decoder). Only those three formats are tried, recognised by their first bytes, whatever the file's name.
 */
export const photoLimits = {
  /** Pixels of one photo at most, read from its header before any decoding: a 48 MP phone photo passes, a pixel bomb does not. */
  maxPixels: 50e6,
  /** Longest side of a page's picture: an A4 page at 300 dpi. */
  longestSide: 2480,
  jpegQuality: 85,
  /** libvips' own cap on one photo's processing, below the pool's time cap. */
  sharpTimeoutSeconds: 20,
};

/** A4 in PDF points, portrait. */
const A4: [number, number] = [595.28, 841.89];

export type PhotoFault = 'unreadable' | 'pixels';

/** A photo that is refused: `index` counts from 0 in the order sent. */
export class PhotoError extends Error {
  constructor(
    readonly fault: PhotoFault,
    readonly index: number,
  ) {
    super(`photo ${index + 1}: ${fault}`);
  }
}

// One libvips thread and no operation cache in a PDF worker: the pool bounds the threads, and nothing is kept between photos.
sharp.concurrency(1);
sharp.cache(false);

type PhotoKind = 'jpeg' | 'png' | 'heif';

/** The format of a photo by its first bytes, or null for anything else (a text, a PDF, a GIF named .jpg…). */
export function photoKind(bytes: Uint8Array): PhotoKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && Buffer.from(bytes.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (bytes.length >= 12 && Buffer.from(bytes.subarray(4, 8)).toString('latin1') === 'ftyp') {
    const brand = Buffer.from(bytes.subarray(8, 12)).toString('latin1');
    if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return 'heif';
  }
  return null;
}

const tooManyPixels = (width: number | undefined, height: number | undefined) =>
  !width || !height || width * height > photoLimits.maxPixels;

/** A sharp pipeline of the decoded photo, capped in pixels, time and output size. */
function encodePage(image: Sharp): Promise<{ data: Buffer; info: OutputInfo }> {
  return image
    .rotate()
    .resize({ width: photoLimits.longestSide, height: photoLimits.longestSide, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: photoLimits.jpegQuality })
    .timeout({ seconds: photoLimits.sharpTimeoutSeconds })
    .toBuffer({ resolveWithObject: true });
}

/** One photo decoded, turned upright and re-encoded as a JPEG; throws PhotoError. */
async function photoJpeg(bytes: Uint8Array, index: number): Promise<{ data: Buffer; width: number; height: number }> {
  const kind = photoKind(bytes);
  if (!kind) throw new PhotoError('unreadable', index);
  let image: Sharp;
  if (kind === 'heif') {
    // Loaded on first use: its WebAssembly costs the threads' start nothing when nobody sends a HEIC.
    const { all } = (await import('heic-decode')).default;
    let images: Awaited<ReturnType<typeof all>>;
    try {
      images = await all({ buffer: bytes });
    } catch {
      throw new PhotoError('unreadable', index);
    }
    try {
      const first = images[0];
      if (!first) throw new PhotoError('unreadable', index);
      // libheif applies the HEIF's own rotation and mirror (irot, imir) as it decodes: the picture comes out upright.
      if (tooManyPixels(first.width, first.height)) throw new PhotoError('pixels', index);
      const decoded = await first.decode().catch(() => Promise.reject(new PhotoError('unreadable', index)));
      image = sharp(Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength), {
        raw: { width: decoded.width, height: decoded.height, channels: 4 },
      });
    } finally {
      images.dispose();
    }
  } else {
    const options: SharpOptions = { limitInputPixels: photoLimits.maxPixels, failOn: 'error', sequentialRead: true };
    // The header alone: a 20,000 × 20,000 picture in a few kilobytes is refused before a pixel is decoded.
    const meta = await sharp(bytes, { ...options, limitInputPixels: false })
      .metadata()
      .catch(() => Promise.reject(new PhotoError('unreadable', index)));
    if (meta.format !== kind) throw new PhotoError('unreadable', index);
    if (tooManyPixels(meta.width, meta.height)) throw new PhotoError('pixels', index);
    image = sharp(bytes, options);
  }
  try {
    const { data, info } = await encodePage(image);
    return { data, width: info.width, height: info.height };
  } catch (err) {
    if (err instanceof PhotoError) throw err;
    throw new PhotoError('unreadable', index);
  }
}

/**
 * The photos as one PDF, a page each in the order given: A4 portrait, or landscape for a photo wider than
 * tall, the picture centred and as large as the page allows. Throws PhotoError for the first photo refused.
 */
export async function photosToPdf(photos: Uint8Array[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (const [index, bytes] of photos.entries()) {
    const photo = await photoJpeg(bytes, index);
    const [pageWidth, pageHeight] = photo.width > photo.height ? [A4[1], A4[0]] : A4;
    const scale = Math.min(pageWidth / photo.width, pageHeight / photo.height);
    const [width, height] = [photo.width * scale, photo.height * scale];
    const page = doc.addPage([pageWidth, pageHeight]);
    page.drawImage(await doc.embedJpg(photo.data), { x: (pageWidth - width) / 2, y: (pageHeight - height) / 2, width, height });
  }
  return doc.save();
}
