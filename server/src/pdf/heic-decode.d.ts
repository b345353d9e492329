// heic-decode ships no types: what photos.ts uses of it (decision 140).
declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    /** RGBA, 4 bytes a pixel. */
    data: Uint8ClampedArray;
  }
  interface LazyImage {
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }
  /** The images of a HEIF file, read from its header; dispose() frees the decoder's memory. */
  type LazyImages = LazyImage[] & { dispose(): void };
  interface HeicDecode {
    (input: { buffer: Uint8Array }): Promise<DecodedImage>;
    all(input: { buffer: Uint8Array }): Promise<LazyImages>;
  }
  const decode: HeicDecode;
  export default decode;
}
