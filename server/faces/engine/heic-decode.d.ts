// heic-decode 2 (libheif compiled to WebAssembly) ships no types; the part the face worker uses.
declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    /** RGBA, four bytes a pixel, rows top to bottom. */
    data: Uint8ClampedArray;
  }
  interface HeifImage {
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }
  interface HeicDecode {
    (input: { buffer: ArrayBufferView | ArrayBuffer }): Promise<DecodedImage>;
    /** Every top-level image, undecoded; `dispose` frees the decoder's memory. */
    all(input: { buffer: ArrayBufferView | ArrayBuffer }): Promise<HeifImage[] & { dispose(): void }>;
  }
  const decode: HeicDecode;
  export default decode;
}
