declare module 'heic-decode' {
  /** Decodes the primary image of an HEIC file to RGBA pixels (libheif compiled to WebAssembly). */
  export default function decode(input: { buffer: ArrayBufferLike | Uint8Array }): Promise<{ width: number; height: number; data: Uint8ClampedArray }>;
}
